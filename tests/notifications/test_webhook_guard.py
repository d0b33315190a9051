"""Who sets a competition's or a club's webhooks (the roles of issue 32, not global staff), and the
guard that keeps a webhook or a push endpoint off the server's own network (issue 33, item 2):
loopback, private, link-local and the cloud metadata address are refused unless the instance
allows it (WEBHOOK_ALLOW_PRIVATE), when saved and again before every post."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from kernel.errors import PermissionDenied
from notifications import channels, netguard, services
from notifications.models import Webhook
from tests.factories import AdminFactory, CompetitionFactory, UserFactory, team_with_member
from tournaments.models import CompetitionRole

pytestmark = pytest.mark.django_db

PUBLIC = "https://93.184.216.34/hook"  # a global address, written as a number: nothing to resolve
REFUSED = [
    "http://127.0.0.1:8000/admin/",
    "http://localhost/",
    "http://10.0.0.7/",
    "http://192.168.1.1/",
    "http://172.16.3.4/",
    "http://169.254.169.254/latest/meta-data/",  # the cloud metadata address
    "http://[::1]/",
    "http://[::ffff:127.0.0.1]/",  # loopback written as IPv6
    "http://0.0.0.0/",
    "http://100.64.0.1/",  # carrier-grade NAT
]


@pytest.fixture
def cup(settings: Any) -> dict[str, Any]:
    settings.WEBHOOK_ALLOW_PRIVATE = False
    competition = CompetitionFactory(slug="hook-cup")
    people = {kind: UserFactory(username=kind) for kind in CompetitionRole.Kind.values}
    for kind, user in people.items():
        CompetitionRole.objects.create(competition=competition, user=user, kind=kind)
    team, member = team_with_member(competition, "H")
    return {"competition": competition, "club": team.club, "member": member, **people}


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_organiser_who_is_not_staff_sets_the_competition_s_webhook_on_its_page(cup) -> None:
    assert not cup["organiser"].is_staff
    page = f"/notifications/webhooks/competition/{cup['competition'].slug}/"
    for kind in ("organiser", "co_organiser"):
        client = _client(cup[kind])
        assert client.get(page).status_code == 200
        response = client.post(page, {"url": PUBLIC, "style": "discord"})
        assert response.status_code == 302, kind
        hook = Webhook.objects.get(pk=response.url.rstrip("/").rsplit("/", 1)[1])
        assert hook.competition == cup["competition"] and hook.created_by == cup[kind]
        assert client.get(response.url).status_code == 200  # its page: secret and delivery log
    # The console's overview links there for those who may, not for the results desk.
    console = f"/console/c/{cup['competition'].slug}/"
    assert 'data-testid="console-webhooks"' in _client(cup["organiser"]).get(console).content.decode()
    assert 'data-testid="console-webhooks"' not in _client(cup["results_desk"]).get(console).content.decode()
    # So does the public home, for them only.
    home = f"/c/{cup['competition'].slug}/"
    assert page in _client(cup["co_organiser"]).get(home).content.decode()
    assert page not in _client(cup["results_desk"]).get(home).content.decode()
    assert page not in Client().get(home).content.decode()


def test_the_results_desk_a_club_member_and_a_stranger_may_not_set_a_competition_s_webhook(cup) -> None:
    page = f"/notifications/webhooks/competition/{cup['competition'].slug}/"
    hook = services.webhook_create(
        user=cup["organiser"], url=PUBLIC, style="standard", competition=cup["competition"]
    )
    for user in (cup["results_desk"], cup["member"], UserFactory(username="stranger")):
        client = _client(user)
        assert client.get(page).status_code == 403, user.username
        assert client.post(page, {"url": PUBLIC, "style": "standard"}).status_code == 403
        assert client.post(f"/notifications/webhooks/{hook.pk}/", {"action": "delete"}).status_code == 403
    assert list(Webhook.objects.all()) == [hook]
    # An organiser of another competition holds no role in this one.
    other = CompetitionFactory(slug="other-cup")
    CompetitionRole.objects.create(
        competition=other, user=UserFactory(username="elsewhere"), kind="organiser"
    )
    with pytest.raises(PermissionDenied):
        services.webhook_create(
            user=other.roles.get().user, url=PUBLIC, style="standard", competition=cup["competition"]
        )
    # The instance's administrators keep every competition.
    admin = AdminFactory(is_superuser=True)
    assert services.webhook_create(user=admin, url=PUBLIC, style="slack", competition=cup["competition"])


def test_a_club_s_webhook_is_set_by_its_members_only(cup) -> None:
    page = f"/notifications/webhooks/club/{cup['club'].pk}/"
    assert _client(cup["organiser"]).post(page, {"url": PUBLIC, "style": "standard"}).status_code == 403
    response = _client(cup["member"]).post(page, {"url": PUBLIC, "style": "standard", "include_private": "1"})
    assert response.status_code == 302
    assert Webhook.objects.get(club=cup["club"]).include_private is True


@pytest.mark.parametrize("url", REFUSED)
def test_a_webhook_on_the_server_s_own_network_is_refused_naming_the_address(cup, url: str) -> None:
    with pytest.raises(netguard.AddressRefused) as refused:
        services.webhook_create(user=cup["member"], url=url, style="standard", club=cup["club"])
    assert refused.value.message.startswith("url: ")
    assert "private, loopback or reserved network" in refused.value.message
    assert not Webhook.objects.exists()


def test_the_page_says_why_an_address_is_refused_and_keeps_it(cup) -> None:
    page = f"/notifications/webhooks/competition/{cup['competition'].slug}/"
    response = _client(cup["organiser"]).post(page, {"url": "http://127.0.0.1:6379/", "style": "discord"})
    assert response.status_code == 400
    body = response.content.decode()
    assert "127.0.0.1 is at 127.0.0.1, on a private, loopback or reserved network" in body
    assert 'value="http://127.0.0.1:6379/"' in body  # kept in the form to correct it
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("ftp://93.184.216.34/", "starts with https://"),
        ("https:///no-host", "starts with https://"),
        ("https://user:pw@93.184.216.34/", "no user name or password"),
        ("https://[::1/", "not a web address"),  # an unclosed IPv6 address
        ("https://93.184.216.34:99999/", "not a web address"),  # a port out of range
        ("https://" + "a" * 300 + ".com/", "is not a host name"),  # a label over 63 characters
        ("https://exa mple.com/", "no spaces or control characters"),
        ("https://example.com/\x00", "no spaces or control characters"),
    ],
)
def test_an_address_that_is_not_a_plain_web_address_is_refused(cup, url: str, words: str) -> None:
    with pytest.raises(netguard.AddressRefused, match=words):
        services.webhook_create(user=cup["member"], url=url, style="standard", club=cup["club"])


def test_one_setting_allows_a_receiver_on_the_same_machine(cup, settings) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE = True
    hook = services.webhook_create(user=cup["member"], url=REFUSED[0], style="standard", club=cup["club"])
    assert hook.url == REFUSED[0]


def test_a_push_endpoint_on_the_server_s_own_network_is_refused(cup) -> None:
    client = _client(cup["member"])
    body = {"endpoint": "http://169.254.169.254/push/1", "keys": {"p256dh": "k" * 20, "auth": "a" * 16}}
    response = client.post("/notifications/push/subscribe", body, content_type="application/json")
    assert response.status_code == 400
    assert "private, loopback or reserved network" in response.content.decode()
    # Never a 500: an address that is not one is refused; taking back one never stored is a no.
    for bad, taken_back in (("https://[::1/push", 200), ("https://push.example\x00/", 400)):
        body["endpoint"] = bad
        response = client.post("/notifications/push/subscribe", body, content_type="application/json")
        assert response.status_code == 400, bad
        response = client.post("/notifications/push/unsubscribe", body, content_type="application/json")
        assert response.status_code == taken_back, bad


def test_the_address_is_checked_again_before_every_post(cup, settings, monkeypatch) -> None:
    """A webhook saved while private addresses were allowed (or a name that resolves elsewhere
    later) is not posted to once the setting is off: the try fails, naming why, and nothing is sent."""
    settings.WEBHOOK_ALLOW_PRIVATE = True
    hook = services.webhook_create(user=cup["member"], url=REFUSED[5], style="standard", club=cup["club"])
    settings.WEBHOOK_ALLOW_PRIVATE = False

    def no_post(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("posted to a refused address")

    monkeypatch.setattr(channels.requests, "post", no_post)
    delivery: Any = type("D", (), {"uid": uuid.uuid4()})()
    event: Any = object()
    monkeypatch.setattr(channels, "webhook_body", lambda *a: "{}")
    outcome = channels.send_webhook(delivery, event, object(), hook)  # type: ignore[arg-type]
    assert outcome.ok is False and "169.254.169.254" in (outcome.error or "")


def test_the_admin_shows_the_outbox_and_its_log_but_never_changes_or_deletes_them(cup) -> None:
    hook = services.webhook_create(user=cup["member"], url=PUBLIC, style="standard", club=cup["club"])
    staff = _client(AdminFactory(is_superuser=True))
    for model in ("event", "delivery", "webhook", "pushsubscription"):
        assert staff.get(f"/admin/notifications/{model}/").status_code == 200
        assert staff.get(f"/admin/notifications/{model}/add/").status_code == 403
    for model in ("event", "delivery"):
        page = staff.get(f"/admin/notifications/{model}/").content.decode()
        assert 'value="delete_selected"' not in page
    # The secret is never shown in the admin.
    assert hook.secret not in staff.get(f"/admin/notifications/webhook/{hook.pk}/change/").content.decode()

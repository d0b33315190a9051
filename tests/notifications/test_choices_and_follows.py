"""A person's choices (issue 33, items 1-3) without a worker: channels per kind and the daily digest
on the settings page, following a team, a competition or a coach, a club's members following its
fixtures by default, and the reporting deadlines told at 48 h, 24 h and once passed."""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.db import transaction
from django.test import Client
from django.utils import timezone

from notifications import deadlines, delivery, kinds, outbox, recipients, services
from notifications.models import ClubMute, Delivery, Event, Follow, Preference
from tests.factories import CoachFactory, CompetitionFactory, UserFactory, team_with_member
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def match() -> dict[str, Any]:
    competition = CompetitionFactory(slug="choices-cup")
    (home, member), (away, _) = (
        team_with_member(competition, "H"),
        team_with_member(competition, "A"),
    )
    home.coach = CoachFactory(name="Coach Home")
    home.save(update_fields=["coach"])
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    Event.objects.all().delete()
    return {"competition": competition, "home": home, "member": member, "fixture": fixture}


def _emit(kind: str, fixture: Fixture, n: int = 0) -> Event:
    with transaction.atomic():
        event = outbox.fixture_event(kind, fixture, key=f"test:{kind}:{n}", extra={"score": "1-0"})
    assert event is not None
    delivery.fanout(event_id=event.pk, enqueue=lambda *args: None)
    return event


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_the_settings_page_sets_channels_per_kind_and_the_digest(match) -> None:
    client = _client(match["member"])
    page = client.get("/notifications/settings/").content.decode()
    for kind in kinds.CHOOSABLE:
        assert f'name="email_{kind}"' in page and f'name="push_{kind}"' in page, kind
    response = client.post(
        "/notifications/settings/",
        {"email_result_counts": "on", "push_live_goal": "on", "digest": "on"},
    )
    assert response.status_code == 302
    pref = Preference.objects.get(user=match["member"])
    assert pref.digest is True
    assert pref.channels[kinds.RESULT_COUNTS] == ["email"]
    assert pref.channels[kinds.LIVE_GOAL] == ["push"]
    assert pref.channels[kinds.SCORE_REPORTED] == []  # unticked: nothing
    assert Client().get("/notifications/settings/").status_code == 302  # to the sign-in page


def test_a_digest_keeps_the_mails_for_one_a_day_and_single_mails_stay_for_the_others(
    match, mailoutbox
) -> None:
    Preference.objects.create(user=match["member"], digest=True)
    fan = UserFactory(username="fan")
    Follow.objects.create(user=fan, team=match["home"])
    for n, kind in enumerate((kinds.FIXTURE_MOVED, kinds.RESULT_COUNTS)):
        _emit(kind, match["fixture"], n)
    kept = Delivery.objects.filter(user=match["member"], channel=Delivery.Channel.EMAIL)
    assert {d.status for d in kept} == {Delivery.Status.DIGEST} and kept.count() == 2
    # The follower chose no digest: a single mail for each.
    for row in Delivery.objects.filter(user=fan, channel=Delivery.Channel.EMAIL):
        assert delivery.deliver(delivery_id=row.pk, enqueue=lambda *args: None) == "sent"
    assert [m.to for m in mailoutbox] == [[fan.email], [fan.email]]

    mailoutbox.clear()
    assert delivery.digest() == 1
    (mail,) = mailoutbox
    assert mail.to == [match["member"].email] and mail.subject == "[FUBA] Your daily digest: 2 notices"
    titles = [line for line in mail.body.splitlines() if line.startswith("* ")]
    assert titles == ["* Moved: H v A", "* Result: H 1-0 A"]  # each notice, in the order they came
    assert set(kept.values_list("status", flat=True)) == {Delivery.Status.SENT}
    assert delivery.digest() == 0  # nothing kept since: no empty mail

    # Its one-click unsubscribe (RFC 8058, as a mail client does it) stops the mails of every kind.
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    link = mail.extra_headers["List-Unsubscribe"].strip("<>")
    assert link in mail.body
    address = urlsplit(link).path
    assert "every notification" in Client().get(address).content.decode()
    assert Client().post(address).status_code == 200
    channels = Preference.objects.get(user=match["member"]).channels
    assert all(kinds.EMAIL not in channels[kind] for kind in kinds.CHOOSABLE)
    assert channels[kinds.LIVE_GOAL] == [kinds.PUSH]  # web push stays as chosen


def test_a_team_a_competition_and_a_coach_are_followed_and_unfollowed(match) -> None:
    fan = UserFactory(username="fan")
    client = _client(fan)
    targets = {
        "team": match["home"].pk,
        "competition": match["competition"].pk,
        "coach": match["home"].coach_id,
    }
    for kind, target in targets.items():
        response = client.post("/notifications/follow/", {"kind": kind, "id": target, "next": "/"})
        assert response.status_code == 302 and response.url == "/"
        assert Follow.objects.filter(user=fan, **{f"{kind}_id": target}).count() == 1
        client.post("/notifications/follow/", {"kind": kind, "id": target})  # twice: still one
        assert Follow.objects.filter(user=fan, **{f"{kind}_id": target}).count() == 1
    # Following the coach alone is enough to hear of the coach's team.
    Follow.objects.filter(user=fan).exclude(coach__isnull=False).delete()
    event = _emit(kinds.RESULT_COUNTS, match["fixture"])
    assert fan.pk in recipients.audience(event).users
    client.post("/notifications/follow/", {"kind": "coach", "id": targets["coach"], "action": "unfollow"})
    assert not Follow.objects.filter(user=fan).exists()
    # Words for what cannot be followed, not a 500.
    assert client.post("/notifications/follow/", {"kind": "referee", "id": 1}).status_code == 400
    assert client.post("/notifications/follow/", {"kind": "team", "id": "x"}).status_code == 400
    assert client.post("/notifications/follow/", {"kind": "team", "id": 99999}).status_code == 404
    assert Client().post("/notifications/follow/", {"kind": "team", "id": 1}).status_code == 302


def test_a_club_s_members_follow_its_fixtures_by_default_and_may_stop(match) -> None:
    member, club = match["member"], match["home"].club
    public = _emit(kinds.FIXTURE_MOVED, match["fixture"], 1)
    assert member.pk in recipients.audience(public).users
    client = _client(member)
    client.post("/notifications/club-follow/", {"club": club.pk, "following": "0"})
    assert ClubMute.objects.filter(user=member, club=club).exists()
    assert member.pk not in recipients.audience(public).users
    # What asks something of the club still reaches its members.
    deadline = _emit(kinds.DEADLINE_24H, match["fixture"], 2)
    assert member.pk in recipients.audience(deadline).users
    client.post("/notifications/club-follow/", {"club": club.pk, "following": "1"})
    assert member.pk in recipients.audience(public).users
    # Only the club's own members.
    assert (
        _client(UserFactory(username="other"))
        .post("/notifications/club-follow/", {"club": club.pk})
        .status_code
        == 403
    )


def test_deadlines_are_told_at_48_h_24_h_and_once_passed_each_once(match) -> None:
    now = timezone.now()
    fixture = match["fixture"]

    def told_after(deadline: Any) -> dict[str, int]:
        Fixture.objects.filter(pk=fixture.pk).update(deadline=deadline)
        return deadlines.scan()

    assert told_after(now + timedelta(hours=60)) == {
        kinds.DEADLINE_48H: 0,
        kinds.DEADLINE_24H: 0,
        kinds.DEADLINE_PASSED: 0,
    }
    assert told_after(now + timedelta(hours=40))[kinds.DEADLINE_48H] == 1
    assert deadlines.scan()[kinds.DEADLINE_48H] == 0  # the beat runs again: told once
    assert told_after(now + timedelta(hours=20))[kinds.DEADLINE_24H] == 1
    assert told_after(now - timedelta(hours=1))[kinds.DEADLINE_PASSED] == 1
    assert deadlines.scan()[kinds.DEADLINE_PASSED] == 0
    # A moved deadline is told again; one long past (an old database's first beat) is not.
    assert told_after(now + timedelta(hours=30))[kinds.DEADLINE_48H] == 1
    assert told_after(now - timedelta(hours=13))[kinds.DEADLINE_PASSED] == 0
    # Deadlines reach the two clubs only, never a follower.
    Follow.objects.create(user=UserFactory(username="fan"), team=match["home"])
    event = Event.objects.filter(kind=kinds.DEADLINE_PASSED).get()
    delivery.fanout(event_id=event.pk, enqueue=lambda *args: None)
    assert set(Delivery.objects.filter(event=event).values_list("user__username", flat=True)) == {
        match["member"].username,
        *Fixture.objects.get(pk=fixture.pk).away_team.club.members.values_list("username", flat=True),
    }
    # A counted result stops the reminders.
    Fixture.objects.filter(pk=fixture.pk).update(
        status=Fixture.Status.CONFIRMED, deadline=now + timedelta(hours=10)
    )
    assert deadlines.scan()[kinds.DEADLINE_24H] == 0


def test_a_paused_phone_gets_no_notices_until_its_browser_subscribes_again(match) -> None:
    """A phone the push service said is gone (or that kept failing) is paused: there is no resume
    for a phone, so nothing piles up held for it; subscribing again lifts the pause."""
    keys = {"p256dh": "BP" + "k" * 85, "auth": "a" * 22}
    phone = services.push_subscribe(user=match["member"], endpoint="https://93.184.216.34/push/1", **keys)
    delivery.pause(endpoint=phone, why="the push service says this subscription is gone")
    _emit(kinds.LIVE_GOAL, match["fixture"], 1)
    assert not Delivery.objects.filter(push=phone).exists()
    services.push_subscribe(user=match["member"], endpoint=phone.endpoint, **keys)
    _emit(kinds.LIVE_GOAL, match["fixture"], 2)
    (sent,) = Delivery.objects.filter(push=phone)
    assert sent.status == Delivery.Status.PENDING and sent.event.key == "test:live_goal:2"


def test_a_follower_without_an_e_mail_address_gets_no_mail_row_and_one_lost_meanwhile_is_not_retried(
    match, mailoutbox
) -> None:
    with_mail = UserFactory(username="fan")
    without = UserFactory(username="no-mail", email="")
    for fan in (with_mail, without):
        Follow.objects.create(user=fan, team=match["home"])
    _emit(kinds.RESULT_COUNTS, match["fixture"])
    rows = Delivery.objects.filter(channel=Delivery.Channel.EMAIL)
    mailed = set(rows.values_list("user__username", flat=True))
    assert "fan" in mailed and match["member"].username in mailed and "no-mail" not in mailed

    # The address removed between the fan-out and the send: given up at once, not retried
    row = rows.get(user=with_mail)
    type(with_mail).objects.filter(pk=with_mail.pk).update(email="")
    retries: list[Any] = []
    assert delivery.deliver(delivery_id=row.pk, enqueue=lambda *args: retries.append(args)) == "failed"
    row.refresh_from_db()
    assert row.status == Delivery.Status.FAILED and row.next_attempt_at is None and retries == []
    assert mailoutbox == []

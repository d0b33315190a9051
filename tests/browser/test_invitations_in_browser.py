"""Inviting clubs in a browser at phone and desktop size (issue 32): three clubs in a row, each
one-time link mailed only to the address typed for that club, the form empty for the next club."""

from __future__ import annotations

import pytest
from django.core import mail

from tests.factories import AdminFactory, CompetitionFactory, TeamFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CLUBS = [
    ("Wolves FC", "wolves", "wolves@example.org"),
    ("Hawks FC", "hawks", "hawks@example.org"),
    ("Tigers FC", "tigers", "tigers@example.org"),
]


@pytest.mark.parametrize("size", [(390, 844), (1366, 900)], ids=["phone", "desktop"])
def test_three_clubs_invited_in_a_row_in_the_browser(page, live_server, client, shot, size) -> None:
    organiser = AdminFactory(is_superuser=True)
    competition = CompetitionFactory(name="Invite Cup", slug="invite-cup")
    for _club, member, _mail in CLUBS:
        TeamFactory(competition=competition, name=member.title())
    client.force_login(organiser)
    cookie = client.cookies["sessionid"]
    page.context.add_cookies([{"name": "sessionid", "value": cookie.value, "url": live_server.url}])
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.goto(f"{live_server.url}/console/c/invite-cup/teams/")
    mail.outbox.clear()
    for index, (club, member, address) in enumerate(CLUBS):
        assert page.input_value("#id_email") == ""  # no earlier club's address offered
        page.fill("#id_club", club)
        page.fill("#id_username", member)
        page.fill("#id_email", address)
        page.click("button[name=invite]")
        page.wait_for_selector(f"text={member} of {club} invited")
        link = page.locator("[data-testid=invite-link]").inner_text()
        assert [m.to for m in mail.outbox] == [[a] for _c, _m, a in CLUBS[: index + 1]]
        assert link in mail.outbox[index].body
        assert page.input_value("#id_email") == ""
        assert page.input_value("#id_club") == "" and page.input_value("#id_username") == ""
    shot(page, f"console-invitations-{size[0]}")

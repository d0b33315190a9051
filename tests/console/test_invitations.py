"""Invitations from the console reach the club they were made for (issue 32): three clubs invited
in a row, each one-time link mailed only to the address typed for that club, and the invite form
never shown again with an earlier club's address."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import AdminFactory, CompetitionFactory, TeamFactory
from tournaments.models import Competition, Invitation
from tournaments.services.invitations import club_member_invite

pytestmark = pytest.mark.django_db

CLUBS = [
    ("Wolves FC", "wolves", "wolves@example.org"),
    ("Hawks FC", "hawks", "hawks@example.org"),
    ("Tigers FC", "tigers", "tigers@example.org"),
]


@pytest.fixture
def competition() -> Competition:
    competition = CompetitionFactory(name="Invite Cup", slug="invite-cup")
    for _club, member, _mail in CLUBS:
        TeamFactory(competition=competition, name=member.title())
    return competition


@pytest.fixture
def console(client: Client) -> Client:
    client.force_login(AdminFactory(is_superuser=True))
    return client


def _email_field(page: str) -> str:
    return re.search(r"<input[^>]*name=\"email\"[^>]*>", page).group(0)


def test_three_clubs_invited_in_a_row_each_link_goes_to_its_own_address(
    console, competition, mailoutbox
) -> None:
    url = f"/console/c/{competition.slug}/teams/"
    for index, (club, member, address) in enumerate(CLUBS):
        body = {"invite": "1", "club": club, "username": member, "email": address}
        response = console.post(url, body, follow=True)
        page = response.content.decode()
        # The page after an invitation offers an empty form for the next club.
        assert 'value="' not in _email_field(page), _email_field(page)
        for _c, _m, earlier in CLUBS[: index + 1]:
            assert f'value="{earlier}"' not in page
        link = re.search(r'data-testid="invite-link">([^<]+)<', page).group(1)
        mail = mailoutbox[index]
        assert mail.to == [address]
        assert link in mail.body and member in mail.body and "Invite Cup" in mail.body
    assert [m.to for m in mailoutbox] == [[a] for _c, _m, a in CLUBS]
    invitations = Invitation.objects.filter(competition=competition)
    assert {i.username: (i.email, i.club.name) for i in invitations} == {m: (a, c) for c, m, a in CLUBS}


def test_a_refused_invitation_keeps_what_was_typed_to_correct_it(console, competition, mailoutbox) -> None:
    url = f"/console/c/{competition.slug}/teams/"
    console.post(url, {"invite": "1", "club": "Wolves FC", "username": "wolves", "email": "w@example.org"})
    page = console.post(
        url, {"invite": "1", "club": "Hawks FC", "username": "hawks fc!", "email": "h@example.org"}
    ).content.decode()
    assert "is not a user name" in page
    assert 'value="h@example.org"' in _email_field(page)  # this club's own address, to correct
    assert [m.to for m in mailoutbox] == [["w@example.org"]]


def test_the_invitation_service_sends_each_link_to_its_own_address(competition, mailoutbox) -> None:
    organiser = AdminFactory(is_superuser=True)
    links: list[Any] = []
    for club, member, address in CLUBS:
        made = club_member_invite(
            competition=competition,
            club_name=club,
            username=member,
            email=address,
            by=organiser,
            link_for=lambda token: f"https://x.test/join/{token}/",
        )
        links.append(made.link)
    assert len(set(links)) == 3
    assert [(m.to, links[i] in m.body) for i, m in enumerate(mailoutbox)] == [
        ([a], True) for _c, _m, a in CLUBS
    ]

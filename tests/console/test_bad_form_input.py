"""Bad input on the console's and the club's forms is a clear refusal naming the field, never a
500: a row's button posting something other than its id, a pasted team line longer than its
column or carrying a NUL character (PostgreSQL refuses one)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import UserFactory, team_with_member
from tournaments.models import Team
from tournaments.shapes import SHAPE_PRESETS, competition_create_from_shape

pytestmark = pytest.mark.django_db


@pytest.fixture
def cup() -> Any:
    organiser = UserFactory(username="org")
    competition = competition_create_from_shape(
        name="Probe Cup",
        slug="probe-cup",
        shape=SHAPE_PRESETS["cup_8"][1],  # groups first: the teams are pasted later
        creator=organiser,
    )
    return competition


def _client(user: Any) -> Client:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    return client


@pytest.mark.parametrize("value", ["", "x", "1.5", "١٢", "9" * 30])
def test_a_row_button_posting_something_else_than_an_id_is_named(cup, value: str) -> None:
    console = _client(cup.roles.get().user)
    response = console.post("/console/c/probe-cup/people/", {"remove": value})
    assert response.status_code == 400 and "remove: the number of the role" in response.content.decode()
    response = console.post("/console/c/probe-cup/teams/", {"approve": value}, follow=True)
    assert (
        response.status_code == 200 and "approve: the number of the application" in response.content.decode()
    )
    response = console.post("/console/c/probe-cup/results/", {"next_swiss": "1", "stage": value})
    assert response.status_code == 400 and "stage: the number of the stage" in response.content.decode()
    team, member = team_with_member(cup, "Members")
    response = _client(member).post(f"/my-club/{team.club_id}/members/", {"remove": value})
    assert response.status_code == 400 and "remove: the number of the member" in response.content.decode()
    # A number still reaches its lookup: 404 when there is no such row.
    assert console.post("/console/c/probe-cup/people/", {"remove": "999999"}).status_code == 404


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("Eighth, Wales, " + "C" * 121, "Row 1 (Eighth): club: at most 120 characters, not 121."),
        ("E" * 121 + ", Wales", "name: at most 120 characters, not 121."),
        ("Eighth, " + "W" * 61, "Row 1 (Eighth): country: at most 60 characters, not 61."),
        ("Eig\x00hth, Wales", "name: contains a NUL character."),
        ("Eighth, Wales, Cardiff\x00 FC", "Row 1 (Eighth): club: contains a NUL character."),
    ],
)
def test_a_pasted_team_too_long_for_its_column_or_with_a_nul_is_named(cup, line: str, words: str) -> None:
    console = _client(cup.roles.get().user)
    response = console.post("/console/c/probe-cup/teams/", {"paste": "1", "teams": line})
    assert response.status_code == 200
    assert words in response.content.decode()
    assert not Team.objects.filter(competition=cup).exists()

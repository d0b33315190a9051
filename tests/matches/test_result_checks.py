"""Checks on a reported result: shoot-out scores, documented error codes, the tie's winner in the API."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from kernel.errors import ApplicationError
from matches.knockout import shootout_possible
from tests.factories import CompetitionFactory, member_of, play, team_with_member
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("home", "away", "possible"),
    [
        (14, 3, False),  # nobody takes 14 kicks before the other side is out of reach
        (5, 0, False),  # 3-0 after three kicks each already decides it
        (3, 0, True),
        (4, 1, True),
        (5, 3, True),
        (5, 4, True),
        (7, 6, True),  # sudden death after 5-5
        (1, 0, True),  # 0-0 after five each, then one round of sudden death
        (7, 5, False),  # sudden death ends one goal apart
        (4, 4, False),
    ],
)
def test_shootout_scores_follow_five_kicks_then_sudden_death(home: int, away: int, possible: bool) -> None:
    assert shootout_possible(home, away) is possible


@pytest.fixture
def final() -> Fixture:
    competition = CompetitionFactory()
    a, _ = team_with_member(competition, "A", seed=1)
    b, _ = team_with_member(competition, "B", seed=2)
    stage = stage_create(competition=competition, name="Final", kind=Stage.Kind.KNOCKOUT, teams=[a, b])
    (fixture,) = fixture_generate(stage=stage)
    return Fixture.objects.select_related("home_team", "away_team", "competition").get(id=fixture.id)


def test_an_impossible_shootout_is_refused_and_a_sudden_death_one_accepted(final: Fixture) -> None:
    with pytest.raises(ApplicationError, match="cannot end 14-3") as info:
        play(final.id, 1, 1, extra_time=True, home_penalties=14, away_penalties=3)
    assert info.value.code == "validation_error"
    play(final.id, 1, 1, extra_time=True, home_penalties=7, away_penalties=6)
    assert final.result.home_penalties == 7


def test_api_refuses_a_14_3_shootout_with_the_documented_code(final: Fixture) -> None:
    client = APIClient()
    client.force_authenticate(member_of(final.home_team))
    response = client.post(
        f"/api/v1/fixtures/{final.pk}/submit-result",
        {"home_goals": 0, "away_goals": 0, "extra_time": True, "home_penalties": 14, "away_penalties": 3},
        format="json",
    )
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error" and "14-3" in error["message"]


def test_api_names_the_ties_winner_and_the_champion(final: Fixture) -> None:
    anonymous = APIClient()
    slug = final.competition.slug
    assert anonymous.get(f"/api/v1/matches/{final.pk}").json()["tie"] is None
    assert anonymous.get(f"/api/v1/competitions/{slug}").json()["champion"] is None
    play(final.id, 2, 2, extra_time=True, home_penalties=4, away_penalties=5)
    tie = anonymous.get(f"/api/v1/matches/{final.pk}").json()["tie"]
    assert tie["winner"]["name"] == final.away_team.name
    assert tie["loser"]["name"] == final.home_team.name
    assert tie["decided_by"] == "penalties"
    champion = anonymous.get(f"/api/v1/competitions/{slug}").json()["champion"]
    assert champion["name"] == final.away_team.name

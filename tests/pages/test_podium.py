"""A decided competition's public home names its champion, runner-up and third (issue 32)."""

from __future__ import annotations

import pytest
from django.test import Client

from matches.services import result_override
from tests.factories import AdminFactory, CompetitionFactory, team_with_member
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def _play(fixture: Fixture, home: int, away: int, **extra: object) -> None:
    result_override(
        fixture_id=fixture.id, user=AdminFactory(), score=Score(home, away, **extra), note="played"
    )


def _home(slug: str) -> str:
    return Client().get(f"/c/{slug}/").content.decode()


def test_a_cup_s_home_names_champion_runner_up_and_third_once_the_final_is_played() -> None:
    competition = CompetitionFactory(name="Podium Cup", slug="podium-cup")
    teams = [
        team_with_member(competition, name, seed=i)[0]
        for i, name in enumerate(("Wolves", "Hawks", "Tigers", "Bears"), 1)
    ]
    stage = stage_create(
        competition=competition, name="Cup", kind=Stage.Kind.KNOCKOUT, teams=teams, third_place_match=True
    )
    fixture_generate(stage=stage)
    semi1, semi2 = Fixture.objects.filter(stage=stage, round=1).order_by("match_number")
    _play(semi1, 2, 0)
    _play(semi2, 1, 0)
    assert 'data-testid="podium"' not in _home("podium-cup")  # undecided: no champion named
    final = Fixture.objects.get(stage=stage, round_name="Final")
    third = Fixture.objects.get(stage=stage, round_name="Third place")
    _play(third, 0, 1)
    _play(final, 1, 1, extra_time=True, home_penalties=3, away_penalties=4)
    page = _home("podium-cup")
    final.refresh_from_db()
    third.refresh_from_db()
    assert f'Champion: <a href="/c/podium-cup/teams/{final.away_team_id}/">{final.away_team.name}</a>' in page
    assert (
        f'Runner-up: <a href="/c/podium-cup/teams/{final.home_team_id}/">{final.home_team.name}</a>' in page
    )
    assert f">{third.away_team.name}</a>" in page.split('data-testid="third"')[1].split("</li>")[0]


def test_a_league_s_home_names_its_top_three_once_every_match_counts() -> None:
    competition = CompetitionFactory(name="Podium League", slug="podium-league")
    teams = [team_with_member(competition, name)[0] for name in ("Ants", "Bees", "Cats")]
    stage = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    fixtures = fixture_generate(stage=stage)
    wins = {"Ants": 2, "Bees": 1, "Cats": 0}
    for fixture in fixtures[:-1]:
        home_better = wins[fixture.home_team.name] > wins[fixture.away_team.name]
        _play(fixture, *((2, 0) if home_better else (0, 2)))
    assert 'data-testid="podium"' not in _home("podium-league")
    last = fixtures[-1]
    _play(last, *((2, 0) if wins[last.home_team.name] > wins[last.away_team.name] else (0, 2)))
    page = _home("podium-league")
    assert ">Ants</a></strong>" in page.split('data-testid="champion"')[1].split("</li>")[0]
    assert ">Bees</a>" in page.split('data-testid="runner-up"')[1].split("</li>")[0]
    assert ">Cats</a>" in page.split('data-testid="third"')[1].split("</li>")[0]
    assert "Decided by the table." in page

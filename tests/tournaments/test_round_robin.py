"""Round robin by the circle method: counts, rounds and balanced home/away."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.factories import CompetitionFactory, TeamFactory
from tournaments.fixtures import round_robin_rounds
from tournaments.models import Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create


@pytest.mark.django_db
def test_double_round_robin_of_20_teams_has_380_balanced_fixtures() -> None:
    competition = CompetitionFactory()
    teams = [TeamFactory(competition=competition, name=f"Club {i:02}") for i in range(20)]
    stage = stage_create(
        competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, legs=2, teams=teams
    )

    fixtures = fixture_generate(stage=stage)

    assert len(fixtures) == 380
    assert len({f.round for f in fixtures}) == 38
    home = Counter(f.home_team_id for f in fixtures)
    away = Counter(f.away_team_id for f in fixtures)
    assert all(home[t.id] == 19 and away[t.id] == 19 for t in teams)
    meetings = Counter((f.home_team_id, f.away_team_id) for f in fixtures)
    assert set(meetings.values()) == {1}, "every ordered pair (home, away) occurs exactly once"
    for rnd in range(1, 39):
        playing = [t for f in fixtures if f.round == rnd for t in (f.home_team_id, f.away_team_id)]
        assert len(playing) == 20 == len(set(playing))
    assert sorted(f.match_number for f in fixtures) == list(range(1, 381))


@settings(max_examples=40, deadline=None)
@given(n=st.integers(min_value=2, max_value=24), legs=st.sampled_from([1, 2]))
def test_circle_method_properties(n: int, legs: int) -> None:
    rounds = round_robin_rounds(list(range(n)), legs=legs)
    pairs = [p for r in rounds for p in r]
    assert len(pairs) == n * (n - 1) // 2 * legs
    assert Counter(frozenset(p) for p in pairs) == {
        frozenset((a, b)): legs for a in range(n) for b in range(a)
    }
    for r in rounds:
        teams = [t for p in r for t in p]
        assert len(teams) == len(set(teams))
    home = Counter(a for a, _ in pairs)
    away = Counter(b for _, b in pairs)
    worst = max(abs(home[t] - away[t]) for t in range(n))
    assert worst <= (1 if legs == 1 else 0)


def test_odd_field_sits_one_team_out_per_round() -> None:
    rounds = round_robin_rounds(["a", "b", "c", "d", "e"])
    assert len(rounds) == 5
    resting = [({"a", "b", "c", "d", "e"} - {t for p in r for t in p}).pop() for r in rounds]
    assert sorted(resting) == ["a", "b", "c", "d", "e"]

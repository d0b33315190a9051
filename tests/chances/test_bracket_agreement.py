"""The chances simulator and the league fill the same knockout slots and send the same team through
each tie, for random groups and results (both decide through tournaments.bracket)."""

from __future__ import annotations

import random
from itertools import count
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chances.core import Simulator, new_counts
from matches.knockout import tie_outcome
from matches.models import Result
from tests.chances.helpers import scenario_with_model
from tests.factories import CompetitionFactory, play, team_with_member
from tournaments.bracket import Score, needs_decider
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

goals = st.integers(min_value=0, max_value=4)
score = st.tuples(goals, goals)


@st.composite
def ties(draw: st.DrawFn) -> dict[str, Any]:
    """One tie of one or two legs with counted scores: extra time and a shoot-out in the deciding
    leg when it is level, and now and then a forfeit (an awarded score) in one of the legs."""
    legs = draw(st.sampled_from([1, 2]))
    away_goals_rule = draw(st.booleans())
    rows = []
    for leg in range(legs):
        hg, ag = draw(score)
        awarded = draw(st.integers(0, 9)) == 0
        if awarded:
            hg, ag = draw(st.sampled_from([(3, 0), (0, 3)]))
        rows.append({"goals": (hg, ag), "awarded": awarded, "leg": leg + 1})
    return {"legs": legs, "away_goals_rule": away_goals_rule, "rows": rows, "pens": draw(st.booleans())}


def _with_decider(tie: dict[str, Any]) -> list[tuple[int, int, bool, int | None, int | None, bool]]:
    """Scores as (home goals, away goals, a.e.t., home pens, away pens, awarded): a level tie gets
    extra time and a 5-4 shoot-out, as the services demand of a deciding leg."""
    out = []
    first: Score | None = None
    for row in tie["rows"]:
        hg, ag = row["goals"]
        deciding = row["leg"] == tie["legs"]
        last = Score(hg, ag)
        if (
            deciding
            and not row["awarded"]
            and needs_decider(away_goals_rule=tie["away_goals_rule"], first=first, last=last)
        ):
            pens = (5, 4) if tie["pens"] else (4, 5)
            out.append((hg, ag, True, *pens, False))
        else:
            out.append((hg, ag, False, None, None, row["awarded"]))
        first = last
    return out


@settings(max_examples=150, deadline=None)
@given(tie=ties())
def test_a_tie_has_the_same_winner_in_the_league_and_in_the_simulator(tie: dict[str, Any]) -> None:
    scores = _with_decider(tie)
    stage = Stage(id=1, kind=Stage.Kind.KNOCKOUT, legs=tie["legs"], away_goals_rule=tie["away_goals_rule"])
    # Two-legged ties swap home and away in the second leg.
    sides = [(10, 20), (20, 10)][: tie["legs"]]
    fixtures = []
    for leg, ((home, away), (hg, ag, aet, hp, ap, awarded)) in enumerate(zip(sides, scores, strict=True), 1):
        fixture = Fixture(
            id=leg,
            stage=stage,
            leg=leg,
            match_number=1,
            home_team_id=home,
            away_team_id=away,
            status="confirmed",
        )
        fixture.result = Result(
            fixture=fixture,
            home_goals=hg,
            away_goals=ag,
            extra_time=aet,
            home_penalties=hp,
            away_penalties=ap,
            source="awarded" if awarded else "clubs",
        )
        fixtures.append(fixture)
    league = tie_outcome(stage, fixtures)
    assert league is not None, "every tie here is decided"

    scenario = {
        "stages": [
            {"id": 1, "kind": "knockout", "legs": tie["legs"], "away_goals_rule": tie["away_goals_rule"]}
        ],
        "fixtures": [
            {
                "id": f.id,
                "stage": 1,
                "round": 1,
                "round_name": "Final",
                "match_number": 1,
                "leg": f.leg,
                "home": f.home_team_id,
                "away": f.away_team_id,
                "result": [hg, ag, 0, 0, aet, hp, ap, awarded],
            }
            for f, (hg, ag, aet, hp, ap, awarded) in zip(fixtures, scores, strict=True)
        ],
        "model": {},
    }
    counts = new_counts()
    Simulator(scenario).run(random.Random(1), counts)
    assert counts["champion"] == {league.winner_id: 1}


_slugs = count()


def _league_and_slots(group_scores: list[tuple[int, int]], knockout_scores: list[tuple[int, int]]) -> None:
    """Three groups of three, the top two and the two best thirds go through to an 8-team knockout."""
    competition = CompetitionFactory(slug=f"agreement-{next(_slugs)}")
    teams = [team_with_member(competition, f"T{i}")[0] for i in range(9)]
    groups = stage_create(
        competition=competition,
        name="Groups",
        kind=Stage.Kind.GROUPS,
        groups={g: teams[3 * i : 3 * i + 3] for i, g in enumerate("ABC")},
        advance_per_group=2,
        best_thirds=2,
    )
    knockout = stage_create(competition=competition, name="Knockout", kind=Stage.Kind.KNOCKOUT)
    fixture_generate(stage=groups)
    fixture_generate(stage=knockout)
    for fixture, (hg, ag) in zip(groups.fixtures.order_by("match_number"), group_scores, strict=True):
        play(fixture.id, hg, ag)
    first_round = list(knockout.fixtures.filter(round=1).order_by("match_number"))
    for fixture, (hg, ag) in zip(first_round, knockout_scores, strict=True):
        if hg == ag:
            play(fixture.id, hg, ag, extra_time=True, home_penalties=5, away_penalties=4)
        else:
            play(fixture.id, hg, ag)

    league = {
        f.id: (f.home_team_id, f.away_team_id)
        for f in knockout.fixtures.filter(round__lte=2).order_by("round", "match_number")
    }
    assert all(None not in pair for pair in league.values())
    pairs = Simulator(scenario_with_model(competition)).run(random.Random(7), new_counts())
    assert {fid: pairs.get(fid) for fid in league} == league


@pytest.mark.django_db
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    group_scores=st.lists(score, min_size=9, max_size=9),
    knockout_scores=st.lists(score, min_size=4, max_size=4),
)
def test_groups_best_thirds_and_winners_fill_the_same_slots(
    group_scores: list[tuple[int, int]], knockout_scores: list[tuple[int, int]]
) -> None:
    _league_and_slots(group_scores, knockout_scores)

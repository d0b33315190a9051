"""The core on knockout-only competitions: two legs with away goals, real decided ties, a league."""

from __future__ import annotations

import pytest

from chances.core import simulate_chunk
from tests.chances.helpers import scenario_with_model
from tests.factories import CompetitionFactory, play, team_with_member
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def _cup(n: int, legs: int, away_goals_rule: bool = False) -> tuple[Stage, list]:
    competition = CompetitionFactory()
    teams = [team_with_member(competition, f"K{i}", seed=i + 1)[0] for i in range(n)]
    stage = stage_create(
        competition=competition,
        name="Cup",
        kind=Stage.Kind.KNOCKOUT,
        legs=legs,
        away_goals_rule=away_goals_rule,
        teams=teams,
    )
    fixture_generate(stage=stage)
    return stage, teams


def test_a_two_legged_cup_sums_up() -> None:
    stage, _teams = _cup(4, legs=2, away_goals_rule=True)
    counts = simulate_chunk(scenario_with_model(stage.competition), seed=1, chunk=0, runs=300)
    assert sum(counts["champion"].values()) == 300
    assert sum(counts["rounds"]["Semi-finals"].values()) == 4 * 300
    assert sum(counts["rounds"]["Final"].values()) == 2 * 300
    assert counts["qualified"] == {} and counts["positions"] == {}


def test_a_tie_decided_on_away_goals_is_final_in_every_run() -> None:
    # 0-1 then 2-3 (the 2019 Tottenham-Ajax semi-final): the side that scored 3 away is through.
    stage, _teams = _cup(4, legs=2, away_goals_rule=True)
    leg1, leg2 = Fixture.objects.filter(stage=stage, round=1).order_by("match_number", "leg")[:2]
    play(leg1.id, 0, 1)
    play(leg2.id, 2, 3)
    through = leg1.home_team_id  # away in leg 2 and scored 3 there
    out = leg1.away_team_id
    counts = simulate_chunk(scenario_with_model(stage.competition), seed=2, chunk=0, runs=200)
    assert counts["rounds"]["Final"].get(str(through), 0) == 200
    assert counts["rounds"]["Final"].get(str(out), 0) == 0
    assert counts["champion"].get(str(out), 0) == 0


def test_a_single_match_cup_with_a_decided_final() -> None:
    stage, _teams = _cup(4, legs=1)
    for f in Fixture.objects.filter(stage=stage, round=1):
        play(f.id, 1, 0)
    final = Fixture.objects.get(stage=stage, round_name="Final")
    play(final.id, 0, 2)
    counts = simulate_chunk(scenario_with_model(stage.competition), seed=3, chunk=0, runs=50)
    assert counts["champion"] == {str(final.away_team_id): 50}


def test_a_league_champion_is_its_table_leader() -> None:
    competition = CompetitionFactory()
    teams = [team_with_member(competition, f"L{i}")[0] for i in range(4)]
    stage = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    fixture_generate(stage=stage)
    counts = simulate_chunk(scenario_with_model(competition), seed=4, chunk=0, runs=300)
    firsts = {t: h[0] for t, h in counts["positions"][str(stage.id)].items()}
    assert counts["champion"] == {t: c for t, c in firsts.items() if c}


def test_best_thirds_are_ranked_across_groups_like_the_real_standings(
    django_capture_on_commit_callbacks,
) -> None:
    # Euro 2016 shape (as tests/tournaments/test_knockout.py): six groups of three, two per
    # group and the four best thirds go through; every group result known, knockout slots
    # emptied so that each run fills them itself.
    from matches.services import result_override
    from tests.factories import AdminFactory

    competition = CompetitionFactory()
    groups = {g: [team_with_member(competition, f"{g}{i}")[0] for i in range(1, 4)] for g in "ABCDEF"}
    group_stage = stage_create(
        competition=competition, name="Groups", kind=Stage.Kind.GROUPS, groups=groups, best_thirds=4
    )
    knockout = stage_create(competition=competition, name="Knockout", kind=Stage.Kind.KNOCKOUT)
    fixture_generate(stage=group_stage)
    fixture_generate(stage=knockout)
    admin = AdminFactory()
    # (the knockout slots are filled once the results are committed)
    with django_capture_on_commit_callbacks(execute=True):
        for f in group_stage.fixtures.select_related("home_team", "away_team"):
            h, a = f.home_team.name, f.away_team.name
            idx = "ABCDEF".index(h[0])
            goals = (idx + 2, idx + 1) if h[1] < a[1] else (idx + 1, idx + 2)
            result_override(fixture_id=f.id, user=admin, score=Score(goals[0], goals[1]), note="t")
    real = {
        f.away_team_id
        for f in Fixture.objects.filter(stage=knockout, round=1)
        if (f.away_source or {}).get("type") == "best_third"
    }
    scenario = scenario_with_model(competition)
    for f in scenario["fixtures"]:
        if f["stage"] == knockout.id and (f["home_source"] or f["away_source"]):
            f["home"] = None if f["home_source"] else f["home"]
            f["away"] = None if f["away_source"] else f["away"]
    counts = simulate_chunk(scenario, seed=5, chunk=0, runs=20)
    thirds = {t.id for g in groups.values() for t in g if t.name.endswith("3")}
    qualified_thirds = {int(t) for t, c in counts["qualified"].items() if int(t) in thirds and c}
    assert qualified_thirds == real and len(real) == 4
    assert all(counts["qualified"][str(t)] == 20 for t in real)
    assert all(counts["rounds"]["Round of 16"][str(t)] == 20 for t in real)

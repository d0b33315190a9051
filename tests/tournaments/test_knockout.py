"""Knockout ties: two legs with away goals (a real case), shoot-outs, best third-placed teams."""

from __future__ import annotations

import pytest

from kernel.errors import ApplicationError, Conflict
from matches.knockout import tie_outcome
from matches.standings.selectors import standings_table
from tests.factories import AdminFactory, CompetitionFactory, play, team_with_member
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def _two_legged(away_goals_rule: bool) -> tuple[Stage, dict[str, object]]:
    competition = CompetitionFactory(name="UEFA Champions League 2018-19")
    spurs, _ = team_with_member(competition, "Tottenham Hotspur", seed=1)
    ajax, _ = team_with_member(competition, "Ajax", seed=2)
    stage = stage_create(
        competition=competition,
        name="Semi-final",
        kind=Stage.Kind.KNOCKOUT,
        legs=2,
        away_goals_rule=away_goals_rule,
        teams=[spurs, ajax],
    )
    fixture_generate(stage=stage)
    return stage, {"spurs": spurs, "ajax": ajax}


def test_champions_league_2019_semi_final_tottenham_through_on_away_goals() -> None:
    # 30 April 2019 Tottenham 0-1 Ajax; 8 May 2019 Ajax 2-3 Tottenham: 3-3 on aggregate,
    # Tottenham through on away goals (3 against 1).
    stage, t = _two_legged(away_goals_rule=True)
    leg1, leg2 = stage.fixtures.order_by("leg")
    assert (leg1.home_team, leg2.home_team) == (t["spurs"], t["ajax"])
    assert leg1.match_number == leg2.match_number

    play(leg1.id, 0, 1)
    play(leg2.id, 2, 3)

    outcome = tie_outcome(stage, list(stage.fixtures.select_related("result").order_by("leg")))
    assert outcome is not None
    assert (outcome.winner_id, outcome.decided_by) == (t["spurs"].id, "away_goals")


def test_without_away_goals_a_level_aggregate_needs_extra_time_and_a_shootout() -> None:
    stage, t = _two_legged(away_goals_rule=False)
    leg1, leg2 = stage.fixtures.order_by("leg")
    with pytest.raises(Conflict, match="first leg"):
        play(leg2.id, 2, 3)
    with pytest.raises(ApplicationError, match="first leg of a two-legged tie"):
        play(leg1.id, 0, 1, extra_time=True)
    play(leg1.id, 0, 1)
    with pytest.raises(ApplicationError, match="shoot-out"):
        play(leg2.id, 2, 3)
    with pytest.raises(ApplicationError, match="cannot end level"):
        play(leg2.id, 2, 3, extra_time=True, home_penalties=4, away_penalties=4)
    play(leg2.id, 2, 3, extra_time=True, home_penalties=5, away_penalties=4)
    outcome = tie_outcome(stage, list(stage.fixtures.select_related("result").order_by("leg")))
    assert outcome is not None
    assert (outcome.winner_id, outcome.decided_by) == (t["ajax"].id, "penalties")


def test_single_match_knockout_rejects_a_shootout_after_a_decided_match() -> None:
    competition = CompetitionFactory()
    a, _ = team_with_member(competition, "A", seed=1)
    b, _ = team_with_member(competition, "B", seed=2)
    stage = stage_create(competition=competition, name="Final", kind=Stage.Kind.KNOCKOUT, teams=[a, b])
    (final,) = fixture_generate(stage=stage)
    with pytest.raises(ApplicationError, match="without a penalty shoot-out"):
        play(final.id, 2, 1, home_penalties=3, away_penalties=2)
    Stage.objects.filter(id=stage.id).update(extra_time=False)
    with pytest.raises(ApplicationError, match="plays no extra time"):
        play(final.id, 2, 1, extra_time=True)
    assert not Fixture.objects.get(id=final.id).submissions.exists(), "a rejected submission writes nothing"


def test_best_third_placed_teams_fill_their_slots_avoiding_their_own_group_winner() -> None:
    # Euro shape: six groups, two per group plus the four best thirds make sixteen, placed by
    # UEFA's table (tests/setup/test_end_to_end.py checks all fifteen combinations).
    competition = CompetitionFactory()
    groups = {}
    for g in "ABCDEF":
        groups[g] = [team_with_member(competition, f"{g}{i}")[0] for i in range(1, 4)]
    group_stage = stage_create(
        competition=competition, name="Groups", kind=Stage.Kind.GROUPS, groups=groups, best_thirds=4
    )
    knockout = stage_create(competition=competition, name="Knockout", kind=Stage.Kind.KNOCKOUT)
    fixture_generate(stage=group_stage)
    ko = fixture_generate(stage=knockout)
    assert len([f for f in ko if f.round == 1]) == 8
    assert ko[0].away_placeholder == "Third-placed team vs winner group B"

    admin = AdminFactory()
    from matches.services import result_override

    for f in group_stage.fixtures.select_related("home_team", "away_team"):
        # The lower number wins every match 1-0 in goal difference; goals grow with the group's
        # letter, so the thirds are level on points and goal difference and goals rank them.
        h, a = f.home_team.name, f.away_team.name
        stronger_home = h[1] < a[1]
        idx = "ABCDEF".index(h[0])
        goals = (idx + 2, idx + 1) if stronger_home else (idx + 1, idx + 2)
        result_override(fixture_id=f.id, user=admin, score=Score(goals[0], goals[1]), note="test data")

    thirds_ranked = [f"{g}3" for g in "FEDCBA"]  # equal points and goal difference; more goals rank higher
    assert (
        standings_table(stage=group_stage, group=group_stage.groups.get(name="F"))[2].team
        == groups["F"][2].id
    )
    round1 = list(Fixture.objects.filter(stage=knockout, round=1).select_related("home_team", "away_team"))
    vs_third = [f for f in round1 if f.away_placeholder.startswith("Third-placed")]
    qualified_thirds = {f.away_team.name for f in vs_third}
    assert qualified_thirds == set(thirds_ranked[:4])
    for f in vs_third:
        assert f.home_team.name[0] != f.away_team.name[0], (
            f"{f} pairs a group winner with its own group's third"
        )
    # UEFA's row for thirds from C, D, E and F: 1B v 3F, 1C v 3E, 1E v 3D, 1F v 3C.
    assert {f.home_team.name: f.away_team.name for f in vs_third} == {
        "B1": "F3",
        "C1": "E3",
        "E1": "D3",
        "F1": "C3",
    }
    assert all(f.is_resolved for f in round1)


def test_an_override_that_changes_a_winner_refills_the_next_round_unless_it_was_played() -> None:
    from matches.services import result_override

    competition = CompetitionFactory()
    teams = [team_with_member(competition, f"S{i}", seed=i)[0] for i in range(1, 5)]
    stage = stage_create(
        competition=competition, name="Cup", kind=Stage.Kind.KNOCKOUT, teams=teams, third_place_match=True
    )
    fixture_generate(stage=stage)
    semi1, semi2 = Fixture.objects.filter(stage=stage, round=1).order_by("match_number")
    final = Fixture.objects.get(stage=stage, round_name="Final")
    third = Fixture.objects.get(stage=stage, round_name="Third place")
    assert (final.home_placeholder, final.home_team) == (f"Winner match {semi1.match_number}", None)

    play(semi1.id, 2, 0)
    play(semi2.id, 1, 0)
    final.refresh_from_db()
    third.refresh_from_db()
    assert (final.home_team, final.away_team) == (semi1.home_team, semi2.home_team)
    assert (third.home_team, third.away_team) == (semi1.away_team, semi2.away_team)

    admin = AdminFactory()
    result_override(fixture_id=semi1.id, user=admin, score=Score(0, 1), note="wrong winner entered")
    final.refresh_from_db()
    third.refresh_from_db()
    assert final.home_team == semi1.away_team and third.home_team == semi1.home_team

    play(final.id, 1, 0)
    # The final was played with the old winner: the correction lists it (reopen would clear it).
    with pytest.raises(Conflict, match="played with the old outcome") as refused:
        result_override(fixture_id=semi1.id, user=admin, score=Score(3, 0), note="again")
    assert [f["id"] for f in refused.value.details["fixtures"]] == [final.id]
    semi1.refresh_from_db()
    assert (semi1.result.home_goals, semi1.result.away_goals) == (0, 1), "the refused override wrote nothing"


def test_a_field_that_is_not_a_power_of_two_gives_the_top_seeds_byes() -> None:
    competition = CompetitionFactory()
    teams = [team_with_member(competition, f"S{i}", seed=i)[0] for i in range(1, 7)]
    stage = stage_create(competition=competition, name="Cup", kind=Stage.Kind.KNOCKOUT, teams=teams)
    fixtures = fixture_generate(stage=stage)
    first = [f for f in fixtures if f.round == 1]
    # Eight slots for six teams: seeds 1 and 2 skip the first round.
    assert {(f.home_team.seed, f.away_team.seed) for f in first} == {(4, 5), (3, 6)}
    semis = [f for f in fixtures if f.round == 2]
    assert [f.round_name for f in semis] == ["Semi-finals", "Semi-finals"]
    assert {f.home_team for f in semis} == {teams[0], teams[1]}
    assert all(f.away_team is None and f.away_placeholder.startswith("Winner match") for f in semis)
    for f in first:
        play(f.id, 1, 0)
    assert all(f.is_resolved for f in Fixture.objects.filter(stage=stage, round=2))


def test_an_awarded_leg_decides_the_tie_against_the_side_that_forfeited() -> None:
    from matches.models import Result
    from matches.services import result_record_system

    stage, t = _two_legged(away_goals_rule=True)
    leg1, leg2 = stage.fixtures.order_by("leg")
    play(leg1.id, 0, 3)  # Ajax win 3-0 in London ...
    Fixture.objects.filter(id=leg2.id).update(status=Fixture.Status.SIMULATING)
    # ... then forfeit the second leg: awarded 3-0 to Tottenham (away side of leg 2).
    result_record_system(
        fixture_id=leg2.id,
        source=Result.Source.AWARDED,
        score=Score(0, 3),
        allowed_statuses=["simulating"],
    )
    outcome = tie_outcome(stage, list(stage.fixtures.select_related("result").order_by("leg")))
    assert outcome is not None
    assert (outcome.winner_id, outcome.decided_by) == (t["spurs"].id, "awarded")

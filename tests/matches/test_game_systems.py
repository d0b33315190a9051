"""Game systems as one rule set (tournaments.game_systems): every service asks it.

FUBA 3 and FUBA 2 are played by the rules engine, each by its own ruleset; Soccer City (seed 003)
and Super Team (seed 004) results follow their own rulebooks; a fixture of another game is never
simulated by the FUBA 3 engine, whatever the forfeit policy says.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from kernel.errors import ApplicationError
from matches import forfeits
from matches.models import Forfeit, Result
from matches.simulation import fixture_simulate
from tests.factories import CompetitionFactory, member_of, play, team_with_member
from tests.matches.forfeit_helpers import overdue_fixture
from tournaments.game_systems import (
    FUBA_2,
    FUBA_3,
    SOCCER_CITY,
    SUPER_TEAM,
    game_system_rules,
    rules_of,
)
from tournaments.models import Competition, Fixture, Stage, Team
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create
from tournaments.skills import team_skills_set

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("code", "home", "away", "possible"),
    [
        # 003, Penalty Shootout: "Each team shoots 5 penalties. Each team will shoot an extra
        # penalty if draw continue after the first 5, until the draw is broken."
        (SOCCER_CITY, 5, 0, True),
        (SOCCER_CITY, 4, 0, True),
        (SOCCER_CITY, 5, 1, True),
        (SOCCER_CITY, 7, 6, True),
        (SOCCER_CITY, 7, 5, False),
        # FUBA's house-rule shoot-out stops once one side cannot catch up (I-42): 3-0 ends it.
        (FUBA_3, 5, 0, False),
        (FUBA_3, 3, 0, True),
        (FUBA_3, 6, 5, True),
    ],
)
def test_each_game_shoots_its_own_shoot_out(code: str, home: int, away: int, possible: bool) -> None:
    shootout = game_system_rules(code).shootout
    assert shootout is not None and shootout.possible(home, away) is possible


def test_fuba_3_and_fuba_2_are_engine_backed_and_the_rest_is_answered_per_game() -> None:
    assert [game_system_rules(code).engine_ruleset for code in (FUBA_3, FUBA_2, SOCCER_CITY, SUPER_TEAM)] == [
        "fuba-3",
        "fuba-2",
        None,
        None,
    ]
    assert game_system_rules(FUBA_3).chances_model == "engine"
    # each engine plays its own ruleset's matches; games without one get the fitted score model
    assert game_system_rules(FUBA_2).chances_model == "engine"
    assert (
        game_system_rules(SOCCER_CITY).chances_model == game_system_rules(SUPER_TEAM).chances_model == "score"
    )
    fuba2 = game_system_rules(FUBA_2)
    assert fuba2.advanced_rules == ("A1", "A2", "A3", "A4", "A5", "A6") and not fuba2.skills
    super_team = game_system_rules(SUPER_TEAM)
    assert not super_team.cards.allowed and super_team.shootout is None and not super_team.extra_time
    city, cup = game_system_rules(SOCCER_CITY), game_system_rules(SOCCER_CITY, cup_mode=True)
    assert city.cards.shirt_range_text() == "1-9" and cup.cards.shirt_range_text() == "1-9, 12, 14"
    assert (city.away_goals, cup.away_goals) == (False, True)
    assert not game_system_rules(FUBA_3).forfeit_simulated("award")
    assert not super_team.forfeit_simulated("simulate")


def _two_legged(game_system: str, **fields: object) -> tuple[Competition, Stage, list[Team]]:
    competition = CompetitionFactory(game_system=game_system, **fields)
    teams = [team_with_member(competition, name, seed=i)[0] for i, name in enumerate(("Reds", "Blues"), 1)]
    stage = stage_create(competition=competition, name="Final", kind=Stage.Kind.KNOCKOUT, legs=2, teams=teams)
    fixture_generate(stage=stage)
    return competition, stage, teams


def _legs(stage: Stage) -> list[Fixture]:
    return list(Fixture.objects.filter(stage=stage).order_by("leg"))


def test_soccer_city_books_players_by_shirt_number_one_to_nine_and_twelve_fourteen_in_the_cup() -> None:
    _, stage, _ = _two_legged(SOCCER_CITY)
    leg1, _leg2 = _legs(stage)
    for bad in (10, 12, 0, None):
        with pytest.raises(ApplicationError, match=r"shirt number, 1-9 .*12 and 14 only in Cup mode"):
            play(leg1.id, 1, 0, cards=[{"team": "home", "kind": "yellow", "shirt_number": bad}])
    _, cup_stage, _ = _two_legged(SOCCER_CITY, cup_mode=True)
    cup_leg1, _ = _legs(cup_stage)
    play(cup_leg1.id, 1, 0, cards=[{"team": "home", "kind": "yellow", "shirt_number": 14}])
    assert cup_leg1.result.cards.get().shirt_number == 14  # type: ignore[attr-defined]
    assert cup_stage.away_goals_rule and not stage.away_goals_rule  # the Cup counts away goals


def test_two_soccer_city_players_sent_off_end_the_match_with_a_5_0_loss() -> None:
    _, stage, _ = _two_legged(SOCCER_CITY)
    leg1, _ = _legs(stage)
    play(
        leg1.id,
        2,
        1,
        cards=[
            {"team": "home", "kind": "red", "shirt_number": 4},
            {"team": "home", "kind": "second_yellow", "shirt_number": 8},
            {"team": "away", "kind": "yellow", "shirt_number": 2},
        ],
    )
    result = Result.objects.get(fixture=leg1)
    assert (result.home_goals, result.away_goals) == (0, 5)


def test_a_soccer_city_shoot_out_is_five_kicks_each_so_5_0_is_a_real_score() -> None:
    _, stage, _ = _two_legged(SOCCER_CITY)
    leg1, leg2 = _legs(stage)
    play(leg1.id, 1, 0)
    with pytest.raises(ApplicationError, match="cannot end 5-7: each side takes all five kicks"):
        play(leg2.id, 1, 0, extra_time=True, home_penalties=5, away_penalties=7)
    play(leg2.id, 1, 0, extra_time=True, home_penalties=5, away_penalties=0)
    assert Fixture.objects.get(id=leg2.id).status == Fixture.Status.CONFIRMED


def test_super_team_has_no_cards_and_no_extra_time_or_shoot_out() -> None:
    competition = CompetitionFactory(game_system=SUPER_TEAM)
    teams = [team_with_member(competition, name, seed=i)[0] for i, name in enumerate(("Reds", "Blues"), 1)]
    with pytest.raises(ApplicationError, match="Super Team has no extra time or penalty shoot-out"):
        stage_create(
            competition=competition, name="Final", kind=Stage.Kind.KNOCKOUT, teams=teams, extra_time=True
        )
    stage = stage_create(competition=competition, name="Final", kind=Stage.Kind.KNOCKOUT, teams=teams)
    assert (stage.extra_time, stage.penalties) == (False, False)
    fixture_generate(stage=stage)
    (final,) = Fixture.objects.filter(stage=stage)
    with pytest.raises(ApplicationError, match=r"Super Team has no cards \(Super Team rulebook"):
        play(final.id, 1, 0, cards=[{"team": "home", "kind": "yellow"}])
    with pytest.raises(ApplicationError, match="cannot end level; play the match again"):
        play(final.id, 1, 1)
    with pytest.raises(ApplicationError, match="no extra time or shoot-out"):
        play(final.id, 1, 1, home_penalties=4, away_penalties=3)
    play(final.id, 2, 1)


def test_fuba_2_is_offered_neither_advanced_rules_nor_skills_of_rulebook_3() -> None:
    with pytest.raises(ApplicationError, match=r"FUBA 2 \(FUBA rulebook 2.0 \(seeds 000/001\)\) has A1"):
        competition_create(name="Old rules", slug="old-rules", game_system=FUBA_2, advanced_rules=["A7"])
    competition = competition_create(name="Old rules", slug="old-rules", game_system=FUBA_2)
    assert rules_of(competition).code == FUBA_2
    team, _ = team_with_member(competition, "Reds")
    from tournaments.models import Skill

    with pytest.raises(ApplicationError, match="FUBA 2 has no A11 skills"):
        team_skills_set(team=team, skills=list(Skill.objects.all()[:1]))


@pytest.mark.parametrize("game_system", [SOCCER_CITY, SUPER_TEAM])
def test_the_forfeit_sweep_never_simulates_another_game_with_the_fuba_3_engine(
    game_system: str, monkeypatch, django_capture_on_commit_callbacks
) -> None:
    def engine_must_not_play(**_: object) -> None:
        raise AssertionError("the FUBA 3 engine simulated a fixture of another game")

    monkeypatch.setattr(forfeits, "fixture_simulate", engine_must_not_play)
    fixture = overdue_fixture(game_system=game_system, slug=f"sweep-{game_system}", rules=())
    # Both sides missed the deadline: nobody to award it against, an administrator decides.
    with django_capture_on_commit_callbacks(execute=True):
        assert forfeits.forfeits_sweep() == [fixture.id]
    forfeit = Forfeit.objects.get(fixture=fixture)
    assert forfeit.state == Forfeit.State.FAILED and "an administrator sets the result" in forfeit.error
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SCHEDULED
    with django_capture_on_commit_callbacks(execute=True):
        assert forfeits.forfeits_sweep() == []  # not retried every sweep

    # A club that gives the match up loses it by the competition's award, "simulate" policy or not.
    with django_capture_on_commit_callbacks(execute=True):
        forfeits.forfeit_declare(fixture_id=fixture.id, user=member_of(fixture.away_team))
    result = Result.objects.get(fixture=fixture)
    competition = fixture.competition
    assert competition.forfeit_policy == "simulate" and result.source == Result.Source.AWARDED
    assert (result.home_goals, result.away_goals) == (
        competition.award_goals_for,
        competition.award_goals_against,
    )


def test_the_api_says_what_a_competitions_game_system_allows() -> None:
    competition_create(name="City Cup", slug="city-cup", game_system=SOCCER_CITY, cup_mode=True)
    rules = APIClient().get("/api/v1/competitions/city-cup").json()["game_system_rules"]
    assert rules["engine_ruleset"] is None and rules["shootout"] == "five_then_sudden_death"
    assert rules["cards"]["per_player"] and rules["cards"]["shirt_numbers"][-2:] == [12, 14]
    assert rules["away_goals"] and rules["chances_model"] == "score"


@pytest.mark.parametrize("game_system", [SOCCER_CITY, SUPER_TEAM])
def test_the_simulation_itself_refuses_a_fixture_of_another_game(game_system: str) -> None:
    fixture = overdue_fixture(game_system=game_system, slug=f"sim-{game_system}", rules=())
    with pytest.raises(ApplicationError, match="matches are not simulated"):
        fixture_simulate(fixture=fixture)

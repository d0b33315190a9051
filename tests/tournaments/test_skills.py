"""Skill rosters: the per-match limit, counts-as-two, eligibility, lost and gained skills (A11, A13)."""

from __future__ import annotations

import pytest

from kernel.errors import ApplicationError
from tests.factories import CoachFactory, CompetitionFactory, TeamFactory, play, team_with_member
from tournaments.models import MatchSkill, Skill, Stage, TeamSkill
from tournaments.selectors import team_fixtures_in_order
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create
from tournaments.skills import (
    log_skill_errors,
    match_skills_select,
    skill_gain_record,
    skill_loss_record,
    team_skills_set,
)

pytestmark = pytest.mark.django_db


def _skills(*names: str) -> list[Skill]:
    by_name = {s.name: s for s in Skill.objects.filter(name__in=names)}
    return [by_name[n] for n in names]


def test_match_selection_respects_the_limit_with_double_weight_skills() -> None:
    competition = CompetitionFactory(skill_limit=3)
    team, _ = team_with_member(competition, "Blues")
    other, _ = team_with_member(competition, "Yellows")
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[team, other])
    (fixture,) = fixture_generate(stage=stage)
    team_skills_set(team=team, skills=_skills("Shot stopper", "Runner", "Regista", "Tackler"))

    with pytest.raises(ApplicationError, match=r"4 skill choices .* exceed the limit of 3"):
        match_skills_select(fixture=fixture, team=team, skills=_skills("Shot stopper", "Runner", "Regista"))
    match_skills_select(fixture=fixture, team=team, skills=_skills("Shot stopper", "Runner"))
    assert MatchSkill.objects.filter(fixture=fixture, team=team).count() == 2
    with pytest.raises(ApplicationError, match="not in the team's skill roster"):
        match_skills_select(fixture=fixture, team=team, skills=_skills("Diver"))


def test_the_second_club_to_choose_matches_the_first_ones_number_of_skills() -> None:
    # A11: "Teams can choose an equal number of skills for a match" (a skill with footnote 1
    # "counts as two skill choices").
    competition = CompetitionFactory(skill_limit=5)
    blues, _ = team_with_member(competition, "Blues")
    reds, _ = team_with_member(competition, "Reds")
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[blues, reds])
    (fixture,) = fixture_generate(stage=stage)
    team_skills_set(team=blues, skills=_skills("Shot stopper", "Runner", "Regista"))
    team_skills_set(team=reds, skills=_skills("Diver", "Tackler", "Runner"))
    match_skills_select(fixture=fixture, team=blues, skills=_skills("Shot stopper"))  # counts as two
    with pytest.raises(
        ApplicationError, match=r"equal number of skills .* chose 2 skill choices .* you chose 1"
    ):
        match_skills_select(fixture=fixture, team=reds, skills=_skills("Diver"))
    assert not MatchSkill.objects.filter(team=reds).exists()
    match_skills_select(fixture=fixture, team=reds, skills=_skills("Diver", "Tackler"))
    assert MatchSkill.objects.filter(team=reds).count() == 2


def test_catenaccio_only_for_2019_world_cup_coaches_in_world_cups() -> None:
    world_cup = CompetitionFactory(is_world_cup=True)
    rookie = TeamFactory(competition=world_cup, coach=CoachFactory(played_world_cup_2019=False))
    veteran = TeamFactory(competition=world_cup, coach=CoachFactory(played_world_cup_2019=True))
    with pytest.raises(ApplicationError, match="World Cup 2019"):
        team_skills_set(team=rookie, skills=_skills("Catenaccio"))
    team_skills_set(team=veteran, skills=_skills("Catenaccio"))
    league_team = TeamFactory(competition=CompetitionFactory(is_world_cup=False))
    team_skills_set(team=league_team, skills=_skills("Catenaccio"))


def test_injured_star_player_skill_is_out_for_the_next_match_and_new_talent_stays() -> None:
    competition = CompetitionFactory()
    blues, _ = team_with_member(competition, "Blues")
    others = [team_with_member(competition, n)[0] for n in ("Reds", "Greens")]
    stage = stage_create(
        competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[blues, *others]
    )
    fixture_generate(stage=stage)
    first, second, *_ = team_fixtures_in_order(team=blues)
    team_skills_set(team=blues, skills=_skills("Runner", "Regista"))

    play(first.id, 1, 0)
    skill_loss_record(team=blues, skill=_skills("Runner")[0], fixture=first)
    skill_gain_record(team=blues, skill=_skills("Diver")[0], fixture=first)

    with pytest.raises(ApplicationError, match=r"cannot be chosen .* injured star player"):
        match_skills_select(fixture=second, team=blues, skills=_skills("Runner"))
    match_skills_select(fixture=second, team=blues, skills=_skills("Regista", "Diver"))
    # The same check applies to a turn log's header.
    (error,) = log_skill_errors(fixture=second, team=blues, side="home", codes=["runner", "regista"])
    assert error["rule"] == "A13" and "Runner" in str(error["reason"])
    assert log_skill_errors(fixture=second, team=blues, side="home", codes=["diver", "regista"]) == []
    assert TeamSkill.objects.get(team=blues, skill__name="Diver").source == TeamSkill.Source.GAINED
    # Re-choosing the roster keeps gained skills.
    team_skills_set(team=blues, skills=_skills("Regista"))
    assert set(TeamSkill.objects.filter(team=blues).values_list("skill__name", flat=True)) == {
        "Regista",
        "Diver",
    }

"""A13 skill effects that outlive the match, and the A11 World Cup 2019 restriction, in the
competition: a simulated match applies them like a played one, and the simulated header is built
from the skills the team may bring to the fixture."""

from __future__ import annotations

import pytest

from matches import forfeits
from matches.models import MatchLog
from matches.simulation import fixture_simulate
from tests.matches.forfeit_helpers import overdue_fixture
from tournaments.models import Competition, Skill, SkillLoss, TeamSkill
from tournaments.skills import skill_gain_record, team_skills_set

pytestmark = pytest.mark.django_db


def _skills(*names: str) -> list[Skill]:
    by_name = {s.name: s for s in Skill.objects.filter(name__in=names)}
    return [by_name[n] for n in names]


def test_a_simulated_match_carries_its_skill_losses_and_gains_over(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    # A13 6-3/6-4 Injured star player: "In a tournament or a league, that skill cannot be chosen
    # for the next match." 6-5/6-6 New talent: "In a tournament or a league, that skill can be
    # used in the remaining matches."
    fixture = overdue_fixture()
    team_skills_set(team=fixture.home_team, skills=_skills("Runner", "Regista", "Tackler"))
    team_skills_set(team=fixture.away_team, skills=_skills("Diver", "Mezzala", "Stopper"))

    played = []

    def with_star_events(*, fixture, seed=None):  # type: ignore[no-untyped-def]
        # the first seed from the fixture's own whose match has both special events
        for s in range(seed or 0, (seed or 0) + 400):
            sim = fixture_simulate(fixture=fixture, seed=s)
            teams = sim.result["teams"].values()
            if any(t["skills_lost"] for t in teams) and any(t["skills_gained"] for t in teams):
                played.append(sim)
                return sim
        raise AssertionError("no seed with both events")

    monkeypatch.setattr(forfeits, "fixture_simulate", with_star_events)
    with django_capture_on_commit_callbacks(execute=True):
        assert forfeits.forfeits_sweep() == [fixture.id]
    (sim,) = played
    assert MatchLog.objects.get(fixture=fixture).data == sim.log
    derived = sim.result
    for side, team in (("home", fixture.home_team), ("away", fixture.away_team)):
        lost = set(derived["teams"][side]["skills_lost"])
        gained = set(derived["teams"][side]["skills_gained"])
        recorded_lost = {
            x.skill.code for x in SkillLoss.objects.filter(team=team, lost_in=fixture).select_related("skill")
        }
        recorded_gained = {
            x.skill.code
            for x in TeamSkill.objects.filter(team=team, gained_in=fixture, source=TeamSkill.Source.GAINED)
        }
        assert (recorded_lost, recorded_gained) == (lost, gained), side


def test_a_world_cup_rookie_does_not_bring_a_gained_catenaccio_to_a_simulated_match() -> None:
    # A11 footnote 3 (Catenaccio): "This skill can be used in World Cup tournaments only if the
    # player took part in the FUBA World Cup 2019 in Milan, Italy." A New talent draw may give it
    # to any team; the roster keeps it, but the header of a World Cup match leaves it out.
    fixture = overdue_fixture()
    Competition.objects.filter(id=fixture.competition_id).update(is_world_cup=True)
    fixture.refresh_from_db()
    rookie = fixture.home_team
    assert not rookie.coach.played_world_cup_2019
    team_skills_set(team=rookie, skills=_skills("Runner"))
    team_skills_set(team=fixture.away_team, skills=_skills("Diver", "Regista"))
    skill_gain_record(team=rookie, skill=_skills("Catenaccio")[0], fixture=fixture)
    assert TeamSkill.objects.filter(team=rookie, skill__name="Catenaccio").exists()
    sim = fixture_simulate(fixture=fixture, seed=3)
    assert sim.log["teams"]["home"]["skills"] == ["runner"]
    # a coach who played the 2019 World Cup brings it
    rookie.coach.played_world_cup_2019 = True
    rookie.coach.save(update_fields=["played_world_cup_2019"])
    sim = fixture_simulate(fixture=fixture, seed=3)
    assert sorted(sim.log["teams"]["home"]["skills"]) == ["catenaccio", "runner"]

"""Setting up competitions and stages: bad input is refused with a clear message."""

from __future__ import annotations

import pytest

from kernel.errors import ApplicationError, Conflict
from tests.factories import CompetitionFactory, TeamFactory
from tournaments.bracket import Score
from tournaments.models import Competition, Stage
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def test_competition_defaults_and_validation() -> None:
    competition = competition_create(name="Helsinki League", slug="hel", advanced_rules=["A1", "A11", "A13"])
    assert (competition.points_win, competition.points_draw, competition.points_loss) == (3, 1, 0)
    assert competition.forfeit_policy == Competition.ForfeitPolicy.SIMULATE
    assert (competition.award_goals_for, competition.award_goals_against) == (3, 0)
    with pytest.raises(Conflict, match="slug 'hel'"):
        competition_create(name="Again", slug="hel")
    with pytest.raises(ApplicationError, match="unknown advanced rules"):
        competition_create(name="X", slug="x", advanced_rules=["A99"])
    with pytest.raises(ApplicationError, match="win > draw"):
        competition_create(name="X", slug="x", points_win=1, points_draw=1)
    with pytest.raises(ApplicationError, match="must have a winner"):
        competition_create(name="X", slug="x", award_goals_for=0, award_goals_against=0)
    with pytest.raises(ApplicationError, match="game system"):
        competition_create(name="X", slug="x", game_system="chess")


def test_stage_and_fixture_generation_guards() -> None:
    competition = CompetitionFactory()
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(3)]
    with pytest.raises(Conflict, match="already has a team"):
        team_create(competition=competition, name="T0")
    with pytest.raises(ApplicationError, match="summing to 10"):
        team_create(competition=competition, name="T9", default_formation="4-4-3")
    assert (
        team_create(competition=competition, name="T8", default_formation="3-5-2").default_formation
        == "3-5-2"
    )
    teams = teams[:3]
    stranger = TeamFactory()
    with pytest.raises(ApplicationError, match="not entered in"):
        stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[*teams, stranger])
    with pytest.raises(ApplicationError, match=r"legs .* must be from 1 to 2"):
        stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, legs=3, teams=teams)
    ko = stage_create(competition=competition, name="KO", kind=Stage.Kind.KNOCKOUT, teams=teams[:1])
    with pytest.raises(ApplicationError, match="at least two teams"):
        fixture_generate(stage=ko)
    league = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    assert len(fixture_generate(stage=league)) == 3
    with pytest.raises(Conflict, match="already generated"):
        fixture_generate(stage=league)
    with pytest.raises(ApplicationError, match="group stage needs its groups"):
        stage_create(competition=competition, name="G", kind=Stage.Kind.GROUPS)
    with pytest.raises(ApplicationError, match="number of Swiss rounds"):
        stage_create(competition=competition, name="S", kind=Stage.Kind.SWISS, teams=teams)


def test_fixtures_get_kickoffs_and_deadlines_and_can_be_rescheduled() -> None:
    from datetime import UTC, datetime, timedelta

    from tests.factories import AdminFactory
    from tournaments.services.scheduling import fixture_schedule

    competition = CompetitionFactory()
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(4)]
    league = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    start = datetime(2026, 12, 1, 18, tzinfo=UTC)
    fixtures = fixture_generate(
        stage=league, start=start, interval=timedelta(days=7), deadline_after=timedelta(days=3)
    )
    last = max(fixtures, key=lambda f: f.round)
    assert last.kickoff == start + timedelta(days=14) and last.deadline == last.kickoff + timedelta(days=3)

    with pytest.raises(ApplicationError, match="before the kick-off"):
        fixture_schedule(fixture_id=last.id, kickoff=start, deadline=start - timedelta(hours=1))
    moved = fixture_schedule(fixture_id=last.id, kickoff=start, deadline=start + timedelta(days=1))
    assert moved.deadline == start + timedelta(days=1)

    from matches.services import result_override

    result_override(fixture_id=last.id, user=AdminFactory(), score=Score(1, 0), note="played")
    with pytest.raises(Conflict, match="cannot be rescheduled"):
        fixture_schedule(fixture_id=last.id, kickoff=start, deadline=None)

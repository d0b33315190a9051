"""The league's changes write the notices of issue 33, item 1, in their own transaction: a fixture
moved, a draw made, a Swiss round paired, a suspension, a live match started. The worker tests
emit every kind by hand; these drive the league's services and read the outbox they wrote."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from matches.progress import swiss_round_generate
from notifications import kinds, recipients
from notifications.models import Event, Follow
from scoring.services import session_start
from tests.factories import CompetitionFactory, UserFactory, play, team_with_member
from tests.scoring.helpers import make_fixture
from tournaments.models import Stage
from tournaments.selectors import team_fixtures_in_order
from tournaments.services.drawing import groups_draw
from tournaments.services.scheduling import fixture_generate, fixture_schedule
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db

KICKOFF = datetime(2027, 5, 1, 18, tzinfo=UTC)


def _events(kind: str) -> list[Event]:
    return list(Event.objects.filter(kind=kind).order_by("id"))


def test_a_moved_kickoff_is_told_once_with_the_old_time() -> None:
    competition = CompetitionFactory(slug="moved-cup")
    teams = [team_with_member(competition, n)[0] for n in ("H", "A")]
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    (fixture,) = fixture_generate(stage=stage)
    fixture_schedule(fixture_id=fixture.pk, kickoff=KICKOFF, deadline=KICKOFF + timedelta(days=1))
    assert not _events(kinds.FIXTURE_MOVED)
    later = KICKOFF + timedelta(days=2)
    fixture_schedule(fixture_id=fixture.pk, kickoff=later, deadline=later + timedelta(days=1))
    fixture_schedule(fixture_id=fixture.pk, kickoff=later, deadline=later + timedelta(days=2))  # same time
    (moved,) = _events(kinds.FIXTURE_MOVED)
    assert moved.data["kickoff"] == later.isoformat() and moved.data["kickoff_before"] == KICKOFF.isoformat()
    assert set(moved.team_ids) == {t.pk for t in teams}


def test_a_group_draw_is_told_to_the_drawn_teams_and_the_competition_s_followers() -> None:
    competition = CompetitionFactory(slug="draw-cup")
    teams = [team_with_member(competition, f"T{i}")[0] for i in range(8)]
    stage = stage_create(
        competition=competition, name="Groups", kind=Stage.Kind.GROUPS, groups={"A": [], "B": []}
    )
    fan = UserFactory(username="fan")
    Follow.objects.create(user=fan, competition=competition)
    groups_draw(stage=stage, pots=[teams[:4], teams[4:]], seed=7, group_count=2)
    (drawn,) = _events(kinds.DRAW_MADE)
    assert set(drawn.team_ids) == {t.pk for t in teams} and drawn.competition_id == competition.pk
    assert drawn.data["title"].startswith("Groups: ")
    audience = recipients.audience(drawn).users
    assert fan.pk in audience and teams[0].club.members.get().pk in audience


def test_each_swiss_round_paired_is_told_once() -> None:
    competition = CompetitionFactory(slug="swiss-cup")
    teams = [team_with_member(competition, f"S{i}")[0] for i in range(6)]
    stage = stage_create(
        competition=competition, name="Swiss", kind=Stage.Kind.SWISS, swiss_rounds=3, teams=teams
    )
    first = swiss_round_generate(stage=stage)
    (paired,) = _events(kinds.ROUND_PAIRED)
    assert paired.data["round"] == 1 and len(paired.data["pairs"]) == len(first) == 3
    for fixture in first:
        play(fixture.pk, 1, 0)
    swiss_round_generate(stage=stage)
    assert [e.data["round"] for e in _events(kinds.ROUND_PAIRED)] == [1, 2]


def test_a_suspension_is_told_once_to_the_team_even_when_the_bans_are_recomputed() -> None:
    competition = CompetitionFactory(slug="ban-cup", yellow_card_threshold=2)
    teams = [team_with_member(competition, n)[0] for n in ("Ankka", "Hessu", "Mikki")]
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, legs=2, teams=teams)
    fixture_generate(stage=stage)
    ankka = teams[0]
    first, second, third, *_ = team_fixtures_in_order(team=ankka)
    for fixture in (first, second):
        side = "home" if fixture.home_team_id == ankka.pk else "away"
        play(fixture.pk, 1, 0, cards=[{"team": side, "kind": "yellow"}])
    (ban,) = _events(kinds.SUSPENSION)
    assert ban.team_ids == [ankka.pk] and ban.data["team"] == "Ankka"
    assert ban.data["served_in"] == str(third)
    play(third.pk, 0, 0)  # the bans are recomputed after every result: the same ban says nothing new
    assert len(_events(kinds.SUSPENSION)) == 1


def test_a_match_scored_live_tells_its_start_to_the_teams_followers() -> None:
    setup = make_fixture()
    fan = UserFactory(username="fan")
    Follow.objects.create(user=fan, team=setup.fixture.home_team)
    session = session_start(fixture_id=setup.fixture.pk, user=setup.home_user)
    (started,) = _events(kinds.LIVE_STARTED)
    assert started.fixture_id == setup.fixture.pk and started.key == f"live_started:{session.pk}"
    assert fan.pk in recipients.audience(started).users

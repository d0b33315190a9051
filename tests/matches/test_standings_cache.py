"""Cached tables follow every change that feeds them through the signals alone (no explicit invalidation)."""

from __future__ import annotations

import pytest

from matches.standings.presentation import competition_tables
from matches.standings.services import standings_recompute
from tests.factories import CompetitionFactory, TeamFactory, play, team_with_member
from tournaments.models import Bye, Stage, TiebreakPreset
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def test_a_swiss_bye_shows_in_the_cached_table_at_once() -> None:
    competition = CompetitionFactory()
    teams = [TeamFactory(competition=competition, name=f"S{i}", seed=i) for i in range(1, 4)]
    stage = stage_create(
        competition=competition, name="Swiss", kind=Stage.Kind.SWISS, swiss_rounds=2, teams=teams
    )
    assert all(r.row.points == 0 for r in competition_tables(competition)[0].rows)

    fixture_generate(stage=stage)  # three teams: one has a bye in round 1, which scores as a win

    bye = Bye.objects.get(stage=stage)
    rows = {r.row.team: r.row for r in competition_tables(competition)[0].rows}
    assert rows[bye.team_id].byes == 1 and rows[bye.team_id].points == competition.points_win


def test_recomputing_with_a_drawing_of_lots_shows_in_the_cached_table_at_once() -> None:
    competition = CompetitionFactory(tiebreak_preset=TiebreakPreset.FIFA_WORLD_CUP)
    teams = [team_with_member(competition, name)[0] for name in ("North", "South")]
    stage = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    (fixture,) = fixture_generate(stage=stage)
    play(fixture.pk, 1, 1)
    assert competition_tables(competition)[0].rows[1].row.level_with_previous

    assert standings_recompute(competition=competition) == 1

    second = competition_tables(competition)[0].rows[1]
    assert not second.row.level_with_previous and second.row.decided_by == "lots"
    assert second.explanation.endswith("placed below on drawing of lots.")

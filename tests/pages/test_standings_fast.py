"""The flat-query standings rank exactly like tournaments.ranking (same criteria, lots, byes)."""

from __future__ import annotations

import pytest

from tournaments import ranking, standings_fast

pytestmark = pytest.mark.django_db


def rows(table):
    return [(r.team, r.position, r.points, r.goal_difference, r.fair_play, r.decided_by) for r in table]


def test_same_tables_as_the_ranking_service(cup) -> None:
    for group in cup.groups_stage.groups.all():
        assert rows(standings_fast.standings_table(stage=cup.groups_stage, group=group)) == rows(
            ranking.standings_table(stage=cup.groups_stage, group=group)
        )

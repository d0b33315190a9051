"""Standings with the same rules as tournaments.ranking, loading match records with two flat queries.

ranking.standings_compute builds a Fixture, a Result and a cards queryset per match; for a
1000-team Swiss event after 10 rounds (5000 results) that ORM work takes seconds, while the pure
ranking (tournaments.standings.compute_table) takes ~0.1 s. Here the records come from two
values_list() queries; criteria, points, byes and the lot drawers are ranking's own, so both paths
rank identically (tests/pages/test_standings_fast.py checks it).
"""

from __future__ import annotations

from django.contrib.auth.models import User

from matches.models import FAIR_PLAY_POINTS, Card, CardKind, Result
from tournaments import ranking
from tournaments.models import Fixture, Group, Stage
from tournaments.standings import MatchRecord, Row, compute_table


def match_records(stage: Stage, group: Group | None = None) -> list[MatchRecord]:
    results = Result.objects.filter(fixture__stage=stage, fixture__status__in=Fixture.COUNTED_STATUSES)
    cards = Card.objects.filter(
        result__fixture__stage=stage, result__fixture__status__in=Fixture.COUNTED_STATUSES
    )
    if group is not None:
        results = results.filter(fixture__group=group)
        cards = cards.filter(result__fixture__group=group)
    fair_play: dict[tuple[int, int], int] = {}
    for result_id, team_id, kind in cards.values_list("result_id", "team_id", "kind"):
        key = (result_id, team_id)
        fair_play[key] = fair_play.get(key, 0) + FAIR_PLAY_POINTS[CardKind(kind)]
    records = []
    for result_id, home, away, home_goals, away_goals in results.values_list(
        "id", "fixture__home_team_id", "fixture__away_team_id", "home_goals", "away_goals"
    ):
        if home is None or away is None:
            continue
        records.append(
            MatchRecord(
                home,
                away,
                home_goals,
                away_goals,
                fair_play.get((result_id, home), 0),
                fair_play.get((result_id, away), 0),
            )
        )
    return records


def _table(stage: Stage, group: Group | None, drawer: ranking.LotDrawer) -> list[Row]:
    competition = stage.competition
    byes = list(stage.byes.values_list("team_id", flat=True)) if stage.kind == Stage.Kind.SWISS else []
    return compute_table(
        teams=ranking._scope_teams(stage, group),
        matches=match_records(stage, group),
        criteria=ranking.tiebreak_order(competition=competition, stage=stage),
        points=ranking.points_of(competition),
        byes=byes,
        draw_lots=drawer,
    )


def standings_table(*, stage: Stage, group: Group | None = None) -> list[Row]:
    """Read-only: recorded lot draws apply, otherwise teams still level stay level."""
    return _table(stage, group, ranking._recorded_lots(stage, group))


def standings_compute(*, stage: Stage, group: Group | None = None, user: User | None = None) -> list[Row]:
    """Final standings: teams still level at 'lots' get a drawing of lots, recorded once."""
    return _table(stage, group, ranking._drawing_lots(stage, group, user))

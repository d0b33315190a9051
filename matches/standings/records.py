"""The one loader of counted match records: every table (pages, API, admin, qualification) reads them here.

Two flat values_list() queries (results, then cards) per stage or group, no model instances: for a
1000-team Swiss event after 10 rounds (5000 results) building a Fixture, a Result and a cards
queryset per match took seconds, while ranking them takes ~0.1 s.
"""

from __future__ import annotations

from matches.models import FAIR_PLAY_POINTS, Card, CardKind, Result
from tournaments.models import Fixture, Group, Stage
from tournaments.standings.tally import MatchRecord


def match_records(*, stage: Stage, group: Group | None = None) -> list[MatchRecord]:
    """The counted results of a stage (or one of its groups), with each side's fair-play points."""
    by_group = match_records_by_group(stage=stage, group=group)
    if group is not None:
        return by_group.get(group.pk, [])
    return [record for records in by_group.values() for record in records]


def match_records_by_group(
    *, stage: Stage, group: Group | None = None
) -> dict[int | None, list[MatchRecord]]:
    """The counted results of a stage (or one of its groups) by group id (None: not in a group),
    in the same two queries: a World Cup's eight group tables read their records together."""
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
    records: dict[int | None, list[MatchRecord]] = {}
    for result_id, home, away, home_goals, away_goals, rnd, group_id in results.values_list(
        "id",
        "fixture__home_team_id",
        "fixture__away_team_id",
        "home_goals",
        "away_goals",
        "fixture__round",
        "fixture__group_id",
    ):
        if home is None or away is None:
            continue
        records.setdefault(group_id, []).append(
            MatchRecord(
                home,
                away,
                home_goals,
                away_goals,
                fair_play.get((result_id, home), 0),
                fair_play.get((result_id, away), 0),
                rnd,
            )
        )
    return records

"""Standings of a stage or group from counted results, with the competition's tie-break order.

`standings_compute` is a service: when teams are still level at "lots" it draws the lots once
and records them (LotDraw), so every later computation gives the same order. `standings_table`
is its read-only twin for pages and the API: it reuses recorded draws and otherwise leaves the
teams level.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from fubaleague.errors import ApplicationError
from tournaments.models import Competition, Fixture, Group, LotDraw, Stage, TiebreakPreset
from tournaments.standings import (
    PRESETS,
    LotDrawer,
    MatchRecord,
    Points,
    Row,
    compute_table,
    validate_order,
)


def tiebreak_order(*, competition: Competition, stage: Stage | None = None) -> list[str]:
    if (
        stage is not None
        and stage.kind == Stage.Kind.SWISS
        and competition.tiebreak_preset != TiebreakPreset.CUSTOM
    ):
        return list(PRESETS["swiss"])
    if competition.tiebreak_preset == TiebreakPreset.CUSTOM:
        try:
            return validate_order(competition.tiebreak_order)
        except ValueError as exc:
            raise ApplicationError(f"Competition '{competition}': {exc}") from None
    return list(PRESETS[competition.tiebreak_preset])


def points_of(competition: Competition) -> Points:
    return Points(competition.points_win, competition.points_draw, competition.points_loss)


def _scope_fixtures(stage: Stage, group: Group | None) -> list[Fixture]:
    qs = stage.fixtures.filter(status__in=Fixture.COUNTED_STATUSES).select_related("result")
    if group is not None:
        qs = qs.filter(group=group)
    return list(qs.prefetch_related("result__cards"))


def match_records(fixtures: Sequence[Fixture]) -> list[MatchRecord]:
    records = []
    for f in fixtures:
        result = getattr(f, "result", None)
        if result is None or f.home_team_id is None or f.away_team_id is None:
            continue
        fair_play = {f.home_team_id: 0, f.away_team_id: 0}
        for card in result.cards.all():
            fair_play[card.team_id] = fair_play.get(card.team_id, 0) + card.fair_play_points
        records.append(
            MatchRecord(
                f.home_team_id,
                f.away_team_id,
                result.home_goals,
                result.away_goals,
                fair_play[f.home_team_id],
                fair_play[f.away_team_id],
            )
        )
    return records


def _scope_teams(stage: Stage, group: Group | None) -> list[int]:
    if group is not None:
        return list(group.teams.values_list("id", flat=True))
    if stage.kind == Stage.Kind.GROUPS:
        raise ApplicationError(f"{stage}: standings of a group stage are per group; name the group.")
    return list(stage.teams.values_list("id", flat=True))


def _lot_key(teams: Sequence[int]) -> str:
    return ",".join(str(t) for t in sorted(teams))


def _recorded_lots(stage: Stage, group: Group | None) -> LotDrawer:
    def drawer(tied: Sequence[int]) -> Sequence[int] | None:
        draw = LotDraw.objects.filter(stage=stage, group=group, key=_lot_key(tied)).first()
        return draw.order if draw else None

    return drawer


def _drawing_lots(
    stage: Stage, group: Group | None, user: User | None
) -> Callable[[Sequence[int]], Sequence[int]]:
    def drawer(tied: Sequence[int]) -> Sequence[int]:
        key = _lot_key(tied)
        existing = LotDraw.objects.filter(stage=stage, group=group, key=key).first()
        if existing:
            return existing.order
        seed = secrets.randbits(62)
        # The order follows from the stored seed, so anyone can re-derive the draw.
        order = random.Random(seed).sample(sorted(tied), len(tied))
        try:
            with transaction.atomic():
                draw = LotDraw.objects.create(
                    stage=stage,
                    group=group,
                    key=key,
                    order=order,
                    seed=seed,
                    drawn_by=user if user is not None and user.is_authenticated else None,
                )
        except IntegrityError:
            # Someone else drew these lots a moment ago: theirs is the draw of record.
            draw = LotDraw.objects.get(stage=stage, group=group, key=key)
        return draw.order

    return drawer


def lots_order_from_seed(*, seed: int, teams: Sequence[int]) -> list[int]:
    return random.Random(seed).sample(sorted(teams), len(teams))


def _table(stage: Stage, group: Group | None, drawer: LotDrawer) -> list[Row]:
    competition = stage.competition
    byes = list(stage.byes.values_list("team_id", flat=True)) if stage.kind == Stage.Kind.SWISS else []
    return compute_table(
        teams=_scope_teams(stage, group),
        matches=match_records(_scope_fixtures(stage, group)),
        criteria=tiebreak_order(competition=competition, stage=stage),
        points=points_of(competition),
        byes=byes,
        draw_lots=drawer,
    )


def standings_compute(*, stage: Stage, group: Group | None = None, user: User | None = None) -> list[Row]:
    """Standings that are final: teams still level at 'lots' get a drawing of lots, recorded once."""
    return _table(stage, group, _drawing_lots(stage, group, user))


def standings_table(*, stage: Stage, group: Group | None = None) -> list[Row]:
    """Read-only standings: recorded lot draws are applied, otherwise tied teams stay level."""
    return _table(stage, group, _recorded_lots(stage, group))


@dataclass(frozen=True)
class RankedThird:
    row: Row
    group: Group


def best_thirds_compute(*, stage: Stage, rank: int = 3, user: User | None = None) -> list[RankedThird]:
    """The teams placed `rank` in their groups, ranked across groups (no head-to-head possible)."""
    entries: list[RankedThird] = []
    for group in stage.groups.order_by("name"):
        table = standings_compute(stage=stage, group=group, user=user)
        if len(table) >= rank:
            entries.append(RankedThird(table[rank - 1], group))
    rows_by_team = {e.row.team: e for e in entries}
    ranked = sorted(entries, key=lambda e: _third_key(e.row), reverse=True)
    # Lots only among thirds identical on every criterion before "lots".
    out: list[RankedThird] = []
    i = 0
    drawer = _drawing_lots(stage, None, user)
    while i < len(ranked):
        j = i + 1
        key = _third_key(ranked[i].row)
        while j < len(ranked) and _third_key(ranked[j].row) == key:
            j += 1
        block = ranked[i:j]
        if len(block) > 1:
            order = drawer([e.row.team for e in block])
            block = [rows_by_team[t] for t in order]
        out += block
        i = j
    return out


def _third_key(row: Row) -> tuple[int, ...]:
    # tournaments.standings.ACROSS_GROUPS, in this order, before lots.
    return (row.points, row.goal_difference, row.goals_for, row.won, row.fair_play)

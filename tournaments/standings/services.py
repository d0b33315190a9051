"""Writes: final standings (drawing lots once where teams are still level), best thirds, recomputing.

A drawing of lots is stored with its seed (LotDraw), once per set of tied teams, so every later
computation — and anyone re-deriving the draw from the seed — gives the same order.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from kernel.errors import ApplicationError, PermissionDenied
from matches.models import PointAdjustment
from tournaments.models import Competition, Group, LotDraw, Stage, Team
from tournaments.standings.criteria import ACROSS_GROUPS
from tournaments.standings.selectors import lot_key, table_of
from tournaments.standings.table import LotDrawer, rank_across
from tournaments.standings.tally import Row


def lots_order_from_seed(*, seed: int, teams: Sequence[int]) -> list[int]:
    return random.Random(seed).sample(sorted(teams), len(teams))


def _drawing_lots(stage: Stage, group: Group | None, user: User | None) -> LotDrawer:
    # Every draw of record of this table in one query: a big Swiss table has hundreds of tied sets.
    recorded = {d.key: d.order for d in LotDraw.objects.filter(stage=stage, group=group).only("key", "order")}

    def drawer(tied: Sequence[int]) -> Sequence[int]:
        key = lot_key(tied)
        if key in recorded:
            return recorded[key]
        seed = secrets.randbits(62)
        # The order follows from the stored seed, so anyone can re-derive the draw.
        order = lots_order_from_seed(seed=seed, teams=tied)
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
        recorded[key] = draw.order
        return draw.order

    return drawer


def standings_compute(*, stage: Stage, group: Group | None = None, user: User | None = None) -> list[Row]:
    """Standings that are final: teams still level at 'lots' get a drawing of lots, recorded once."""
    return table_of(stage=stage, group=group, draw_lots=_drawing_lots(stage, group, user))


def standings_recompute(*, competition: Competition, user: User | None = None) -> int:
    """Recompute every league and group table, drawing (and recording) lots where teams are still level.

    Returns the number of tables. Cached tables follow through the LotDraw signal (signals.py).
    """
    tables = 0
    for stage in competition.stages.exclude(kind=Stage.Kind.KNOCKOUT):
        groups: list[Group | None] = list(stage.groups.all()) if stage.kind == Stage.Kind.GROUPS else [None]
        for group in groups:
            standings_compute(stage=stage, group=group, user=user)
            tables += 1
    return tables


@dataclass(frozen=True)
class RankedThird:
    row: Row
    group: Group


def best_thirds_compute(*, stage: Stage, rank: int = 3, user: User | None = None) -> list[RankedThird]:
    """The teams placed `rank` in their groups, ranked across groups (criteria.ACROSS_GROUPS)."""
    entries: dict[int, RankedThird] = {}
    for group in stage.groups.order_by("name"):
        table = standings_compute(stage=stage, group=group, user=user)
        if len(table) >= rank:
            entries[table[rank - 1].team] = RankedThird(table[rank - 1], group)
    ranked = rank_across(
        rows=[e.row for e in entries.values()],
        criteria=ACROSS_GROUPS,
        draw_lots=_drawing_lots(stage, None, user),
    )
    return [entries[row.team] for bucket in ranked for row in bucket]


@transaction.atomic
def points_adjust(*, team: Team, points: int, reason: str, user: User) -> PointAdjustment:
    """Staff deduct (negative) or add points to a team; every table of its competition shows it."""
    if not (user.is_authenticated and user.is_staff):
        raise PermissionDenied("Only staff can adjust a team's points.")
    if isinstance(points, bool) or not isinstance(points, int) or points == 0 or abs(points) > 99:
        raise ApplicationError(
            f"{team}: points must be a whole number from -99 to 99 other than 0, not {points!r}.",
            details={"points": ["must be a non-zero whole number from -99 to 99"]},
        )
    if not reason.strip():
        raise ApplicationError(
            f"{team}: say why the points are adjusted.", details={"reason": ["This field is required."]}
        )
    # The standings signals invalidate the cached tables when the row is saved.
    return PointAdjustment.objects.create(
        competition_id=team.competition_id, team=team, points=points, reason=reason.strip(), created_by=user
    )

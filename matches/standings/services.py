"""Writes: final standings (drawing lots once where teams are still level), best thirds, recomputing.

A drawing of lots is stored with its seed (LotDraw), once per set of tied teams, so every later
computation — and anyone re-deriving the draw from the seed — gives the same order. A table's new
draws are stored together when it has been ranked.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass

from django.contrib.auth.models import User
from django.db import transaction

from kernel.errors import ApplicationError, PermissionDenied
from matches.models import PointAdjustment
from matches.standings.selectors import lot_key, table_of
from matches.standings.signals import lots_drawn
from tournaments.models import Competition, Group, LotDraw, Stage, Team
from tournaments.selectors import actor_role_words, competition_permits
from tournaments.standings.criteria import ACROSS_GROUPS
from tournaments.standings.table import rank_across
from tournaments.standings.tally import Row


def lots_order_from_seed(*, seed: int, teams: Sequence[int]) -> list[int]:
    return random.Random(seed).sample(sorted(teams), len(teams))


class _LotDrawing:
    """The draws of record of one table, and the new draws of this computation, stored together.

    A big Swiss table has thousands of tied sets: reading its draws in one query and storing the
    new ones in one bulk insert (with one invalidation of the cached tables) instead of a
    transaction, a signal and a cache bump per set is what keeps its first computation linear.
    """

    def __init__(self, stage: Stage, group: Group | None, user: User | None) -> None:
        self.stage = stage
        self.group = group
        self.user = user if user is not None and user.is_authenticated else None
        self._recorded: dict[str, list[int]] | None = None
        self.pending: dict[str, LotDraw] = {}

    def _read(self) -> dict[str, list[int]]:
        return dict(LotDraw.objects.filter(stage=self.stage, group=self.group).values_list("key", "order"))

    def __call__(self, tied: Sequence[int]) -> Sequence[int]:
        if self._recorded is None:
            # Read on first use: a table without tied teams costs no query.
            self._recorded = self._read()
        key = lot_key(tied)
        if key in self._recorded:
            return self._recorded[key]
        seed = secrets.randbits(62)
        # The order follows from the stored seed, so anyone can re-derive the draw.
        order = lots_order_from_seed(seed=seed, teams=tied)
        self.pending[key] = LotDraw(
            stage=self.stage,
            group=self.group,
            key=key,
            order=order,
            seed=seed,
            drawn_by=self.user,
            drawn_by_role=actor_role_words(user=self.user, competition=self.stage.competition),
        )
        self._recorded[key] = order
        return order

    def store(self) -> bool:
        """Store this computation's new draws; True when another writer's draw of the same tied
        set came first (theirs is the draw of record: the table must be ranked again)."""
        if not self.pending:
            return False
        with transaction.atomic():
            # ON CONFLICT DO NOTHING: a set drawn meanwhile by someone else keeps their draw.
            LotDraw.objects.bulk_create(list(self.pending.values()), batch_size=2000, ignore_conflicts=True)
            lots_drawn(self.stage.competition_id, self.stage.pk)
        stored = self._read()
        lost = any(stored.get(key) != draw.order for key, draw in self.pending.items())
        self._recorded = stored
        self.pending = {}
        return lost


def standings_compute(*, stage: Stage, group: Group | None = None, user: User | None = None) -> list[Row]:
    """Standings that are final: teams still level at 'lots' get a drawing of lots, recorded once."""
    drawing = _LotDrawing(stage, group, user)
    table = table_of(stage=stage, group=group, draw_lots=drawing)
    if drawing.store():
        table = table_of(stage=stage, group=group, draw_lots=drawing)
    return table


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
    rows = [e.row for e in entries.values()]
    drawing = _LotDrawing(stage, None, user)
    ranked = rank_across(rows=rows, criteria=ACROSS_GROUPS, draw_lots=drawing)
    if drawing.store():
        ranked = rank_across(rows=rows, criteria=ACROSS_GROUPS, draw_lots=drawing)
    return [entries[row.team] for bucket in ranked for row in bucket]


@transaction.atomic
def points_adjust(*, team: Team, points: int, reason: str, user: User) -> PointAdjustment:
    """The competition's organisers (or staff with the permission) deduct (negative) or add points
    to a team, with the reason; every table of its competition shows it, and the record names the
    person and their role."""
    competition = team.competition
    if not competition_permits(
        user=user, competition=competition, action="setup", staff_perms=("matches.add_pointadjustment",)
    ):
        raise PermissionDenied(f"Only the organisers of {competition} adjust a team's points.")
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
        competition_id=team.competition_id,
        team=team,
        points=points,
        reason=reason.strip(),
        created_by=user,
        created_by_role=actor_role_words(user=user, competition=competition),
    )

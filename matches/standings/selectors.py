"""Reads: a competition's tie-break order and points, and the read-only table of a stage or group.

`standings_table` applies the lots already drawn (LotDraw) and otherwise leaves tied teams level;
drawing lots is a write, done by services.standings_compute.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from django.db.models import Sum

from kernel.errors import ApplicationError
from kernel.gc_pause import cyclic_gc_paused
from matches.models import PointAdjustment
from matches.standings.records import match_records, match_records_by_group
from tournaments.models import Competition, Group, LotDraw, Stage, TiebreakPreset
from tournaments.standings.criteria import PRESETS, at_neutral_venue, validate_order
from tournaments.standings.table import LotDrawer, compute_table
from tournaments.standings.tally import Points, Row

# LotDraw.key's column width.
LOT_KEY_LENGTH = LotDraw._meta.get_field("key").max_length or 0


def tiebreak_order(*, competition: Competition, stage: Stage | None = None) -> list[str]:
    """The criteria that place level teams of a stage, in order.

    Away goals count only where teams meet home and away (a stage of two legs); in a single-leg
    stage every venue counts as neutral (``criteria.at_neutral_venue``).
    """
    order = _preset_order(competition, stage)
    if stage is not None and stage.legs != 2:
        return at_neutral_venue(order)
    return order


def _preset_order(competition: Competition, stage: Stage | None) -> list[str]:
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


def _scope_teams(stage: Stage, group: Group | None) -> list[int]:
    if group is not None:
        return list(group.teams.values_list("id", flat=True))
    if stage.kind == Stage.Kind.GROUPS:
        raise ApplicationError(f"{stage}: standings of a group stage are per group; name the group.")
    return list(stage.teams.values_list("id", flat=True))


def lot_key(teams: Sequence[int]) -> str:
    """How a set of tied teams is named in LotDraw.key: their sorted ids joined by commas.

    A large tied set (a Swiss event of thousands after one round has sets of hundreds) does not fit
    the column: it is named by the SHA-256 of that text instead. The draw's ``order`` still lists
    every team, so the record stays readable, and a set named so before keeps its name.
    """
    joined = ",".join(str(t) for t in sorted(teams))
    if len(joined) <= LOT_KEY_LENGTH:
        return joined
    return "sha256:" + hashlib.sha256(joined.encode()).hexdigest()


def recorded_lots(*, stage: Stage, group: Group | None) -> LotDrawer:
    recorded: dict[str, list[int]] = {}
    read = False

    def drawer(tied: Sequence[int]) -> Sequence[int] | None:
        nonlocal read
        if not read:
            # Every draw of the table in one query, on the first tied set (none: no query).
            recorded.update(LotDraw.objects.filter(stage=stage, group=group).values_list("key", "order"))
            read = True
        return recorded.get(lot_key(tied))

    return drawer


def table_of(*, stage: Stage, group: Group | None, draw_lots: LotDrawer) -> list[Row]:
    """The table of a stage (league, Swiss) or of one group, with the given way of drawing lots."""
    competition = stage.competition
    byes = list(stage.byes.values_list("team_id", flat=True)) if stage.kind == Stage.Kind.SWISS else []
    # The records and the ranking make no reference cycles; left on, the cyclic collector walks
    # the whole heap several times over a big table (kernel/gc_pause.py).
    with cyclic_gc_paused():
        return compute_table(
            teams=_scope_teams(stage, group),
            matches=match_records(stage=stage, group=group),
            criteria=tiebreak_order(competition=competition, stage=stage),
            points=points_of(competition),
            byes=byes,
            draw_lots=draw_lots,
            adjustments=point_adjustments(competition=competition),
        )


def point_adjustments(*, competition: Competition) -> dict[int, int]:
    """Each team's total of the organisers' point deductions and additions."""
    totals = (
        PointAdjustment.objects.filter(competition=competition)
        .values("team_id")
        .annotate(total=Sum("points"))
    )
    return {row["team_id"]: row["total"] for row in totals}


def _drawn(recorded: dict[str, list[int]]) -> LotDrawer:
    return lambda tied: recorded.get(lot_key(tied))


def standings_tables(*, stage: Stage) -> dict[Group | None, list[Row]]:
    """Read-only standings of every table of a stage (its groups, or the stage itself), read
    together: the same tables as ``standings_table`` per group in a handful of queries instead of
    five a group (a World Cup's home page shows eight)."""
    competition = stage.competition
    criteria = tiebreak_order(competition=competition, stage=stage)
    points = points_of(competition)
    adjustments = point_adjustments(competition=competition)
    records = match_records_by_group(stage=stage)
    draws: dict[int | None, dict[str, list[int]]] = {}
    for group_id, key, order in LotDraw.objects.filter(stage=stage).values_list("group_id", "key", "order"):
        draws.setdefault(group_id, {})[key] = order
    if stage.kind == Stage.Kind.GROUPS:
        groups = list(stage.groups.order_by("name"))
        members: dict[int, list[int]] = {g.pk: [] for g in groups}
        for group_id, team_id in Group.teams.through.objects.filter(group__stage=stage).values_list(
            "group_id", "team_id"
        ):
            members[group_id].append(team_id)
        scopes: list[tuple[Group | None, list[int]]] = [(g, members[g.pk]) for g in groups]
        byes: list[int] = []
    else:
        scopes = [(None, _scope_teams(stage, None))]
        byes = list(stage.byes.values_list("team_id", flat=True)) if stage.kind == Stage.Kind.SWISS else []
    tables: dict[Group | None, list[Row]] = {}
    for group, teams in scopes:
        scope_id = group.pk if group is not None else None
        tables[group] = compute_table(
            teams=teams,
            matches=[m for gid, ms in records.items() if gid == scope_id or group is None for m in ms],
            criteria=criteria,
            points=points,
            byes=byes,
            draw_lots=_drawn(draws.get(scope_id, {})),
            adjustments=adjustments,
        )
    return tables


def standings_table(*, stage: Stage, group: Group | None = None) -> list[Row]:
    """Read-only standings: recorded lot draws are applied, otherwise tied teams stay level."""
    return table_of(stage=stage, group=group, draw_lots=recorded_lots(stage=stage, group=group))

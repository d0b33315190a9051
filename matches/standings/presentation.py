"""Standings as pages, the API and the admin show them: named rows, tie-breaks in words, the position chart.

`competition_tables` and `position_series` are cached under the competition's standings version
(cache.py); `compute_competition_tables` is the fresh computation (the staff view).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from matches.standings import cache
from matches.standings.records import match_records
from matches.standings.selectors import points_of, standings_tables, tiebreak_order
from tournaments.models import Competition, Fixture, Group, Stage, Team
from tournaments.standings.criteria import CRITERIA, label
from tournaments.standings.table import compute_table
from tournaments.standings.tally import Row

TABLE_KINDS = (Stage.Kind.GROUPS, Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS, Stage.Kind.LEAGUE_PHASE)


@dataclass
class TableRow:
    """A computed Row with what a reader needs besides: the team's name and the tie-break in words."""

    row: Row
    team: str
    explanation: str = ""
    qualified: bool = False

    def as_dict(self) -> dict[str, Any]:
        r = self.row
        return {
            "position": r.position,
            "team_id": r.team,
            "team": self.team,
            "played": r.played,
            "won": r.won,
            "drawn": r.drawn,
            "lost": r.lost,
            "goals_for": r.goals_for,
            "goals_against": r.goals_against,
            "goal_difference": r.goal_difference,
            "points": r.points,
            "adjustment": r.adjustment,
            "fair_play": r.fair_play,
            "buchholz": r.buchholz,
            "byes": r.byes,
            "level_with_previous": r.level_with_previous,
            "decided_by": r.decided_by,
            "explanation": self.explanation,
            "qualified": self.qualified,
        }


@dataclass
class Table:
    stage_id: int
    stage: str
    kind: str
    group: str | None
    rows: list[TableRow] = field(default_factory=list)
    tiebreaks: list[str] = field(default_factory=list)
    show_buchholz: bool = False
    show_fair_play: bool = False
    show_adjustment: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "stage": self.stage_id,
            "stage_name": self.stage,
            "group": self.group,
            "tiebreak_order": self.tiebreaks,
            "rows": [r.as_dict() for r in self.rows],
        }


def explain(row: Row, above: Row | None, above_name: str) -> str:
    """A sentence for a place decided by a tie-breaker (not by points alone), else ''."""
    adjusted = f"Points include an adjustment of {row.adjustment:+d}." if row.adjustment else ""
    if above is None or row.decided_by in ("", "points"):
        return adjusted
    if above.adjustment and not row.adjustment:
        adjusted = f"{above_name}'s points include an adjustment of {above.adjustment:+d}."
    criterion = CRITERIA.get(row.decided_by)
    shown = None if criterion is None else (criterion.row_value(above), criterion.row_value(row))
    values = f" ({shown[0]} v {shown[1]})" if shown is not None and shown[0] is not None else ""
    sentence = f"Level on points with {above_name}; placed below on {label(row.decided_by)}{values}."
    return f"{sentence} {adjusted}" if adjusted else sentence


def _build_table(
    stage: Stage,
    group: Group | None,
    rows: list[Row],
    names: dict[int, str],
    order: list[str],
    thirds: set[int],
) -> Table:
    table = Table(
        stage_id=stage.pk,
        stage=stage.name,
        kind=stage.kind,
        group=group.name if group else None,
        tiebreaks=[label(c) for c in order],
        show_buchholz=stage.kind == Stage.Kind.SWISS,
        show_fair_play="fair_play" in order,
        show_adjustment=any(r.adjustment for r in rows),
    )
    previous: Row | None = None
    for r in rows:
        table.rows.append(
            TableRow(
                row=r,
                team=names.get(r.team, f"Team {r.team}"),
                explanation=explain(r, previous, names.get(previous.team, "") if previous else ""),
                qualified=stage.kind == Stage.Kind.GROUPS
                and (r.position <= stage.advance_per_group or r.team in thirds),
            )
        )
        previous = r
    return table


def _placed_thirds(stage: Stage) -> set[int]:
    """The best third-placed teams already placed in a knockout slot (once the group stage is over)."""
    placed: set[int] = set()
    for side in ("home", "away"):
        placed |= {
            team
            for team in Fixture.objects.filter(
                competition_id=stage.competition_id,
                **{f"{side}_source__type": "best_third", f"{side}_source__stage": stage.pk},
            ).values_list(f"{side}_team_id", flat=True)
            if team is not None
        }
    return placed


def compute_competition_tables(competition: Competition) -> list[Table]:
    names = dict(Team.objects.filter(competition=competition).values_list("id", "name"))
    tables: list[Table] = []
    for stage in competition.stages.filter(kind__in=TABLE_KINDS).order_by("order"):
        order = tiebreak_order(competition=competition, stage=stage)
        thirds = _placed_thirds(stage) if stage.kind == Stage.Kind.GROUPS and stage.best_thirds else set()
        # Groups by name, as standings_tables lists them.
        for group, rows in standings_tables(stage=stage).items():
            tables.append(_build_table(stage, group, rows, names, order, thirds))
    return tables


def competition_tables(competition: Competition) -> list[Table]:
    return cache.cached(competition.pk, "tables", lambda: compute_competition_tables(competition))


# --- Positions by round ---------------------------------------------------------------------------


@dataclass
class PositionSeries:
    stage: str
    group: str | None
    rounds: list[int]
    series: list[tuple[str, list[int]]]


MAX_CHART_TEAMS = 24


def compute_position_series(competition: Competition) -> list[PositionSeries]:
    """League position after each round, per table, from the counted results (no lots drawn)."""
    names = dict(Team.objects.filter(competition=competition).values_list("id", "name"))
    out: list[PositionSeries] = []
    points = points_of(competition)
    for stage in competition.stages.filter(kind__in=TABLE_KINDS).order_by("order"):
        order = [c for c in tiebreak_order(competition=competition, stage=stage) if not CRITERIA[c].drawn]
        scopes: list[tuple[str | None, list[int]]]
        if stage.kind == Stage.Kind.GROUPS:
            scopes = [
                (g.name, [t.pk for t in g.teams.all()])
                for g in stage.groups.prefetch_related("teams").order_by("name")
            ]
        else:
            scopes = [(None, list(stage.teams.values_list("id", flat=True)))]
        # A chart of a big field (a 1000-team Swiss) is unreadable: skip before loading its results.
        scopes = [(name, ids) for name, ids in scopes if 0 < len(ids) <= MAX_CHART_TEAMS]
        if not scopes:
            continue
        records = match_records(stage=stage)
        byes_by_round: dict[int, list[int]] = {}
        for bye in stage.byes.all():
            byes_by_round.setdefault(bye.round, []).append(bye.team_id)
        for group_name, team_ids in scopes:
            members = set(team_ids)
            scoped = [m for m in records if m.home in members and m.away in members]
            rounds = sorted({m.round for m in scoped})
            if not rounds:
                continue
            positions: dict[int, list[int]] = {t: [] for t in team_ids}
            for rnd in rounds:
                played = [m for m in scoped if m.round <= rnd]
                byes = [t for rr, ts in byes_by_round.items() if rr <= rnd for t in ts if t in members]
                table = compute_table(
                    teams=team_ids, matches=played, criteria=order, points=points, byes=byes
                )
                for row in table:
                    positions[row.team].append(row.position)
            final_order = sorted(team_ids, key=lambda t: positions[t][-1])
            out.append(
                PositionSeries(
                    stage=stage.name,
                    group=group_name,
                    rounds=rounds,
                    series=[(names.get(t, str(t)), positions[t]) for t in final_order],
                )
            )
    return out


def position_series(competition: Competition) -> list[PositionSeries]:
    return cache.cached(competition.pk, "positions", lambda: compute_position_series(competition))

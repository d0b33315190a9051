"""League tables and tie-breaking, as pure functions over match records.

A tie-break order is a list of criterion names. Overall criteria compare every team's whole
record; head-to-head criteria look only at the matches among the teams still level:

- ``h2h_points``, ``h2h_goal_difference``, ``h2h_goals_for``, ``h2h_away_goals``: one step each.
  A consecutive run of them is computed among the teams level when the run starts (FIFA World
  Cup 2018/2022 regulations, art. 32.5 d–f: "greater number of points obtained in the group
  matches between the teams concerned" …).
- ``head_to_head``: the UEFA block — points, goal difference, goals and away goals among the
  teams concerned, re-applied to any smaller set of teams that is still level, before moving on.
- ``lots``: a drawing of lots; the caller supplies how lots are drawn (recorded once).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

OVERALL_CRITERIA = ("points", "goal_difference", "goals_for", "away_goals", "wins", "fair_play", "buchholz")
H2H_CRITERIA = ("h2h_points", "h2h_goal_difference", "h2h_goals_for", "h2h_away_goals")
CRITERIA = (*OVERALL_CRITERIA, *H2H_CRITERIA, "head_to_head", "lots")

PRESETS: dict[str, tuple[str, ...]] = {
    # FIFA World Cup 2018 and 2022 regulations, art. 32.5 (2018) / 32.3 (2022).
    "fifa_world_cup": (
        "points",
        "goal_difference",
        "goals_for",
        "h2h_points",
        "h2h_goal_difference",
        "h2h_goals_for",
        "fair_play",
        "lots",
    ),
    # UEFA competition regulations: head-to-head first and re-applied, then the overall record.
    "uefa": (
        "points",
        "head_to_head",
        "goal_difference",
        "goals_for",
        "away_goals",
        "wins",
        "fair_play",
        "lots",
    ),
    "swiss": ("points", "buchholz", "goal_difference", "goals_for", "lots"),
}

# Ranking third-placed teams of different groups: no head-to-head is possible between them.
ACROSS_GROUPS = ("points", "goal_difference", "goals_for", "wins", "fair_play", "lots")


@dataclass(frozen=True)
class MatchRecord:
    home: int
    away: int
    home_goals: int
    away_goals: int
    home_fair_play: int = 0
    away_fair_play: int = 0


@dataclass(frozen=True)
class Points:
    win: int = 3
    draw: int = 1
    loss: int = 0


@dataclass
class Row:
    team: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    goals_for: int = 0
    goals_against: int = 0
    away_goals: int = 0
    points: int = 0
    fair_play: int = 0
    byes: int = 0
    buchholz: int = 0
    position: int = 0
    # The criterion that separated this team from the one above it ("" for the leader).
    decided_by: str = ""
    level_with_previous: bool = False
    opponents: list[int] = field(default_factory=list)

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against

    @property
    def wins(self) -> int:
        """The "wins" tie-break criterion reads the row by its name."""
        return self.won


# Returns the tied teams in drawn order, or None when no lots are drawn (the teams stay level).
LotDrawer = Callable[[Sequence[int]], Sequence[int] | None]


def validate_order(criteria: Iterable[str]) -> list[str]:
    order = list(criteria)
    unknown = [c for c in order if c not in CRITERIA]
    if unknown:
        raise ValueError(f"unknown tie-break criteria {unknown}; known: {', '.join(CRITERIA)}")
    if not order or order[0] != "points":
        raise ValueError("the tie-break order must start with 'points'")
    return order


def _tally(teams: Iterable[int], matches: Iterable[MatchRecord], points: Points) -> dict[int, Row]:
    rows = {t: Row(team=t) for t in teams}
    for m in matches:
        if m.home not in rows or m.away not in rows:
            continue
        for me, them, gf, ga, fp, away in (
            (m.home, m.away, m.home_goals, m.away_goals, m.home_fair_play, False),
            (m.away, m.home, m.away_goals, m.home_goals, m.away_fair_play, True),
        ):
            r = rows[me]
            r.played += 1
            r.goals_for += gf
            r.goals_against += ga
            r.fair_play += fp
            r.opponents.append(them)
            if away:
                r.away_goals += gf
            if gf > ga:
                r.won += 1
                r.points += points.win
            elif gf == ga:
                r.drawn += 1
                r.points += points.draw
            else:
                r.lost += 1
                r.points += points.loss
    return rows


def compute_table(
    *,
    teams: Sequence[int],
    matches: Sequence[MatchRecord],
    criteria: Sequence[str],
    points: Points = Points(),
    byes: Iterable[int] = (),
    draw_lots: LotDrawer | None = None,
) -> list[Row]:
    """Rank ``teams`` on ``matches`` with the tie-break ``criteria``; byes score as a win."""
    order = validate_order(criteria)
    rows = _tally(teams, matches, points)
    for team in byes:
        rows[team].byes += 1
        rows[team].points += points.win
    for r in rows.values():
        r.buchholz = sum(rows[o].points for o in r.opponents if o in rows)

    def h2h_rows(subset: Sequence[int]) -> dict[int, Row]:
        members = set(subset)
        return _tally(subset, [m for m in matches if m.home in members and m.away in members], points)

    def key(criterion: str, team: int, context: dict[int, Row]) -> int:
        if criterion in H2H_CRITERIA:
            r = context[team]
            criterion = criterion.removeprefix("h2h_")
        else:
            r = rows[team]
        return int(getattr(r, criterion))

    def partition(group: Sequence[int], keyfn: Callable[[int], object]) -> list[list[int]]:
        buckets: dict[object, list[int]] = defaultdict(list)
        for t in group:
            buckets[keyfn(t)].append(t)
        return [buckets[k] for k in sorted(buckets, key=lambda k: k, reverse=True)]  # type: ignore[arg-type,return-value]

    decided: dict[int, str] = {}

    def rank(group: list[int], idx: int, h2h_context: dict[int, Row] | None) -> list[list[int]]:
        if len(group) == 1:
            return [group]
        if idx == len(order):
            return [group]
        criterion = order[idx]
        if criterion == "lots":
            if draw_lots is None:
                return [group]
            lots = draw_lots(sorted(group))
            if lots is None:
                return [group]
            drawn = list(lots)
            if sorted(drawn) != sorted(group):
                raise ValueError("the drawing of lots must return the tied teams")
            for t in drawn[1:]:
                decided[t] = "lots"
            return [[t] for t in drawn]
        if criterion == "head_to_head":
            sub = h2h_rows(group)
            parts = partition(
                group,
                lambda t: (sub[t].points, sub[t].goal_difference, sub[t].goals_for, sub[t].away_goals),
            )
            if len(parts) == 1:
                return rank(group, idx + 1, None)
            out: list[list[int]] = []
            for i, part in enumerate(parts):
                # Re-applied: the teams still level are compared on their own matches only.
                ranked = rank(part, idx, None) if len(part) > 1 else [part]
                if i:
                    decided[ranked[0][0]] = "head_to_head"
                out += ranked
            return out
        if criterion in H2H_CRITERIA:
            context = h2h_context if h2h_context is not None else h2h_rows(group)
        else:
            context = None
        parts = partition(group, lambda t: key(criterion, t, context or {}))
        out = []
        keep = context if (idx + 1 < len(order) and order[idx + 1] in H2H_CRITERIA) else None
        for i, part in enumerate(parts):
            ranked = rank(part, idx + 1, keep) if len(part) > 1 else [part]
            if i:
                decided[ranked[0][0]] = criterion
            out += ranked
        return out

    ordered = rank(sorted(rows, key=lambda t: t), 0, None)
    # Stable presentation: a rank() bucket that is still level lists its teams by id.
    table: list[Row] = []
    position = 0
    for bucket in ordered:
        first = True
        for t in bucket:
            position += 1
            r = rows[t]
            r.position = position
            r.level_with_previous = not first
            r.decided_by = "" if not first else decided.get(t, "")
            table.append(r)
            first = False
    return table


def standings_compute(**kwargs: Any) -> list[Row]:
    """Shortcut to the database-backed service tournaments.ranking.standings_compute."""
    from tournaments.ranking import standings_compute as compute

    return compute(**kwargs)

"""League tables, as pure functions over match records: `compute_table` and `rank_across`.

A tie-break order is a list of criterion keys (criteria.py). The teams are split by the first
criterion; each set still level is split by the next one, and so on; the criterion that split a
team from the one above it is kept on its Row (``decided_by``) for the explanations.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence

from tournaments.standings.criteria import CRITERIA, Criterion, Value, validate_order
from tournaments.standings.tally import MatchRecord, Points, Row, tally

THREE_ONE_ZERO = Points()

# Returns the tied teams in drawn order, or None when no lots are drawn (the teams stay level).
LotDrawer = Callable[[Sequence[int]], Sequence[int] | None]


class Ranking:
    """Splits sets of level teams criterion by criterion; remembers what decided each place."""

    def __init__(
        self,
        rows: Mapping[int, Row],
        matches: Sequence[MatchRecord],
        order: Sequence[Criterion],
        points: Points,
        draw_lots: LotDrawer | None,
    ) -> None:
        self.rows = rows
        self.matches = matches
        self.order = order
        self.points = points
        self.draw_lots = draw_lots
        self.decided: dict[int, str] = {}
        self._home_matches: dict[int, list[int]] | None = None

    def _h2h_rows(self, subset: Sequence[int]) -> dict[int, Row]:
        """The records of ``subset`` over the matches among its teams alone.

        The matches are indexed by home team in one pass on first use, so a tied set costs its own
        teams' matches rather than a scan of the stage's (a 10,000-team league has thousands of
        tied sets).
        """
        if self._home_matches is None:
            self._home_matches = defaultdict(list)
            for i, m in enumerate(self.matches):
                self._home_matches[m.home].append(i)
        members = set(subset)
        among = sorted(
            i for t in members for i in self._home_matches.get(t, ()) if self.matches[i].away in members
        )
        # In stage order, as a scan would list them (a row's opponents keep the matches' order).
        return tally(subset, [self.matches[i] for i in among], self.points)

    def _step_h2h_at(self, idx: int) -> bool:
        return idx < len(self.order) and self.order[idx].head_to_head and not self.order[idx].reapplied

    @staticmethod
    def _partition(group: Sequence[int], keyfn: Callable[[int], Value]) -> list[list[int]]:
        buckets: dict[Value, list[int]] = defaultdict(list)
        for t in group:
            buckets[keyfn(t)].append(t)
        return [buckets[k] for k in sorted(buckets, reverse=True)]

    def rank(
        self, group: list[int], idx: int = 0, h2h_context: Mapping[int, Row] | None = None
    ) -> list[list[int]]:
        if len(group) == 1 or idx == len(self.order):
            return [group]
        criterion = self.order[idx]
        if criterion.value is None:
            return self._lots(group)
        value = criterion.value
        if criterion.head_to_head:
            # A run of step criteria keeps the records among the teams level when the run started.
            context = (
                h2h_context if h2h_context is not None and not criterion.reapplied else self._h2h_rows(group)
            )
        else:
            context = self.rows
        parts = self._partition(group, lambda t: value(context[t]))
        if criterion.reapplied and len(parts) == 1:
            return self.rank(group, idx + 1, None)
        keep = context if criterion.head_to_head and self._step_h2h_at(idx + 1) else None
        out: list[list[int]] = []
        for i, part in enumerate(parts):
            if len(part) == 1:
                ranked = [part]
            elif criterion.reapplied:
                # Re-applied: the teams still level are compared on their own matches only.
                ranked = self.rank(part, idx, None)
            else:
                ranked = self.rank(part, idx + 1, keep)
            if i:
                self.decided[ranked[0][0]] = criterion.key
            out += ranked
        return out

    def rank_by_sorting(self, teams: list[int]) -> list[list[int]] | None:
        """The same order as ``rank`` in one sort, for orders of overall criteria only (a Swiss or
        a round robin's table without head-to-head): O(n log n) however many teams are level.

        None when the order has a head-to-head criterion (those look at the matches among the
        teams level) or lots anywhere but last.
        """
        drawn = [c.value is None for c in self.order]
        if any(c.head_to_head for c in self.order) or any(drawn[:-1]):
            return None
        values = [c.value for c in self.order if c.value is not None]

        def key(team: int) -> tuple[Value, ...]:
            row = self.rows[team]
            return tuple(value(row) for value in values)

        keys = {t: key(t) for t in teams}
        # Stable: teams level on every criterion keep the order they came in (by id), as in rank.
        ordered = sorted(teams, key=keys.__getitem__, reverse=True)
        out: list[list[int]] = []
        previous: tuple[Value, ...] | None = None
        for team in ordered:
            if keys[team] == previous:
                out[-1].append(team)
                continue
            if previous is not None:
                split = next(i for i, (a, b) in enumerate(zip(keys[team], previous, strict=True)) if a != b)
                self.decided[team] = self.order[split].key
            out.append([team])
            previous = keys[team]
        if not drawn or not drawn[-1]:
            return out
        ranked: list[list[int]] = []
        for bucket in out:
            if len(bucket) == 1:
                ranked.append(bucket)
                continue
            above = self.decided.get(bucket[0])
            drawn_bucket = self._lots(bucket)
            # What split the bucket from the one above belongs to the team drawn first.
            if above is not None:
                self.decided[drawn_bucket[0][0]] = above
            ranked += drawn_bucket
        return ranked

    def _lots(self, group: list[int]) -> list[list[int]]:
        if self.draw_lots is None:
            return [group]
        lots = self.draw_lots(sorted(group))
        if lots is None:
            return [group]
        drawn = list(lots)
        if sorted(drawn) != sorted(group):
            raise ValueError("the drawing of lots must return the tied teams")
        for t in drawn[1:]:
            self.decided[t] = "lots"
        return [[t] for t in drawn]


def compute_table(
    *,
    teams: Sequence[int],
    matches: Sequence[MatchRecord],
    criteria: Sequence[str],
    points: Points = THREE_ONE_ZERO,
    byes: Iterable[int] = (),
    draw_lots: LotDrawer | None = None,
    adjustments: Mapping[int, int] | None = None,
) -> list[Row]:
    """Rank ``teams`` on ``matches`` with the tie-break ``criteria``; byes score as a win.

    ``adjustments`` are the organisers' point deductions (negative) or additions per team.
    """
    order = [CRITERIA[c] for c in validate_order(criteria)]
    rows = tally(teams, matches, points)
    for team in byes:
        rows[team].byes += 1
        rows[team].points += points.win
    for team, change in (adjustments or {}).items():
        if team in rows:
            rows[team].adjustment += change
            rows[team].points += change
    # Each opponent's points from a plain dict (a team outside the table counts 0): reading them
    # through the rows touches a row object per opponent, scattered over memory in a big table.
    points_by_team = {t: r.points for t, r in rows.items()}
    points_of = points_by_team.get
    for r in rows.values():
        r.buchholz = sum([points_of(o, 0) for o in r.opponents])
    ranking = Ranking(rows, matches, order, points, draw_lots)
    ordered = ranking.rank_by_sorting(sorted(rows)) or ranking.rank(sorted(rows))
    # Stable presentation: a bucket that is still level lists its teams by id.
    table: list[Row] = []
    position = 0
    for bucket in ordered:
        first = True
        for t in bucket:
            position += 1
            r = rows[t]
            r.position = position
            r.level_with_previous = not first
            r.decided_by = "" if not first else ranking.decided.get(t, "")
            table.append(r)
            first = False
    return table


def rank_across(
    *, rows: Sequence[Row], criteria: Sequence[str], draw_lots: LotDrawer | None
) -> list[list[Row]]:
    """Rank rows of teams that did not all meet (the thirds of different groups), best first.

    Only overall criteria apply; the rows are not changed (they keep their own table's position).
    Returns the teams still level together.
    """
    order = [CRITERIA[c] for c in validate_order(criteria)]
    if any(c.head_to_head for c in order):
        raise ValueError("teams ranked across groups have no head-to-head record")
    by_team = {r.team: r for r in rows}
    ranked = Ranking(by_team, (), order, Points(), draw_lots).rank(sorted(by_team))
    return [[by_team[t] for t in bucket] for bucket in ranked]

"""League tables, as pure functions over match records: `compute_table` and `rank_across`.

A tie-break order is a list of criterion keys (criteria.py). The teams are split by the first
criterion; each set still level is split by the next one, and so on; the criterion that split a
team from the one above it is kept on its Row (``decided_by``) for the explanations.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence

from tournaments.standings.criteria import CRITERIA, Criterion, Value, validate_order
from tournaments.standings.tally import MatchRecord, Points, Row, buchholz, sides, tally

THREE_ONE_ZERO = Points()

# A table this small (a group) is ranked criterion by criterion (Ranking.rank): the same order as
# rank_table's one sort, which pays off only over many teams (its packing and indexing cost a
# 4-team group twice the time, and the chances rank thousands of simulated groups).
SMALL_TABLE = 20

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
        # The matches between two teams of one set still level on the overall criteria, by set.
        self._within: dict[int, list[MatchRecord]] | None = None
        self._set_of: dict[int, int] = {}

    def _h2h_rows(self, subset: Sequence[int]) -> dict[int, Row]:
        """The records of ``subset`` over the matches among its teams alone.

        A head-to-head criterion only ever compares teams of one set level on the overall criteria
        before it (rank_table), so the matches within each set are found in one pass: a tied set
        then costs its own matches rather than a scan of the stage's (a 10,000-team league has
        thousands of tied sets).
        """
        if self._within is None:
            self._index_sets([list(self.rows)])
        assert self._within is not None
        members = set(subset)
        within = self._within.get(self._set_of.get(subset[0], -1), [])
        # In stage order, as a scan would list them (a row's opponents keep the matches' order).
        return tally(subset, [m for m in within if m.home in members and m.away in members], self.points)

    def _index_sets(self, sets: Sequence[Sequence[int]]) -> None:
        self._set_of = {t: k for k, teams in enumerate(sets) if len(teams) > 1 for t in teams}
        self._within = defaultdict(list)
        for m, home, away in zip(*sides(self._set_of, self.matches), strict=True):
            if home is not None and home == away:
                self._within[home].append(m)

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

    def rank_all(self, teams: list[int]) -> list[list[int]]:
        """``teams`` ranked: a small table criterion by criterion, a big one with rank_table."""
        return self.rank(teams) if len(teams) <= SMALL_TABLE else self.rank_table(teams)

    def rank_table(self, teams: list[int]) -> list[list[int]]:
        """The same order as ``rank``: the leading overall criteria in one sort (level_sets), then
        ``rank`` within each set still level on them."""
        first = next(
            (i for i, c in enumerate(self.order) if c.value is None or c.head_to_head), len(self.order)
        )
        rows = [self.rows[t] for t in teams]
        sets, splits = level_sets(teams, [[c.value(r) for r in rows] for c in self.order[:first] if c.value])
        if first < len(self.order) and any(c.head_to_head for c in self.order[first:]):
            self._index_sets(sets)
        out: list[list[int]] = []
        for level in sets:
            ranked = self.rank(level, first) if len(level) > 1 else [level]
            # The criterion that put the set below the one above goes to the team placed first in it.
            if level[0] in splits:
                self.decided[ranked[0][0]] = self.order[splits[level[0]]].key
            out += ranked
        return out

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


def level_sets(
    teams: Sequence[int], columns: Sequence[Sequence[Value]]
) -> tuple[list[list[int]], dict[int, int]]:
    """``teams`` best first by their values (``columns[j][i]``: team i's value on criterion j,
    higher first, compared criterion by criterion), in sets of teams level on every criterion,
    each keeping the teams' order in ``teams``; and for the first team of each set but the first,
    the criterion that put it below the set above.
    """
    packed = _packed(columns)
    if packed is not None:
        return _level_sets_packed(teams, *packed)
    keys = list(zip(*columns, strict=True))
    # Stable: teams level on every criterion keep their order, as in Ranking.rank.
    order = sorted(range(len(teams)), key=keys.__getitem__, reverse=True)
    out: list[list[int]] = []
    splits: dict[int, int] = {}
    for k, i in enumerate(order):
        if k and keys[i] == keys[order[k - 1]]:
            out[-1].append(teams[i])
            continue
        if k:
            previous = keys[order[k - 1]]
            splits[teams[i]] = next(j for j, v in enumerate(keys[i]) if v != previous[j])
        out.append([teams[i]])
    return out, splits


def _packed(columns: Sequence[Sequence[Value]]) -> tuple[list[int], list[int]] | None:
    """Each team's values in one int that orders as their tuple does, and each criterion's width
    in bits (the first criterion in the highest bits); None unless every value is an int."""
    if not columns or any(set(map(type, column)) - {int} for column in columns):
        return None
    packed = [0] * len(columns[0])
    widths = []
    for column in columns:
        lowest = min(column, default=0)
        width = (max(column, default=0) - lowest).bit_length()  # type: ignore[operator]
        packed = [(p << width) | (v - lowest) for p, v in zip(packed, column, strict=True)]  # type: ignore[operator]
        widths.append(width)
    return packed, widths


def _level_sets_packed(
    teams: Sequence[int], packed: list[int], widths: list[int]
) -> tuple[list[list[int]], dict[int, int]]:
    n = len(teams)
    # One int a team, its values then its place reversed: sorting plain ints compares no tuples
    # (a tuple and its items a team, scattered over a big table's memory), and the keys are then
    # read in order, one list after the other.
    ranked = sorted([p * n + n - 1 - i for i, p in enumerate(packed)], reverse=True)
    keys = [c // n for c in ranked]
    places = [n - 1 - c % n for c in ranked]
    # The highest bit where two keys differ is in the first criterion they differ on.
    criterion_of_bit = [j for j in reversed(range(len(widths))) for _ in range(widths[j])]
    out: list[list[int]] = []
    splits: dict[int, int] = {}
    previous = None
    for key, i in zip(keys, places, strict=True):
        if key == previous:
            out[-1].append(teams[i])
            continue
        team = teams[i]
        if previous is not None:
            splits[team] = criterion_of_bit[(key ^ previous).bit_length() - 1]
        out.append([team])
        previous = key
    return out, splits


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
    buchholz(rows)
    ranking = Ranking(rows, matches, order, points, draw_lots)
    ordered = ranking.rank_all(sorted(rows))
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

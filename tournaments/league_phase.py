"""The league phase draw (the 2024/25 Champions League shape), as pure functions of a seed.

All teams play in one table; each team meets two opponents from every pot, one at home and one
away, so with P pots each team plays 2·P matches (4 pots: 8). The draw is made under two caps:
no opponent of the team's own country, and at most `country_cap` opponents of any one country.
The drawn pairs are then scheduled into 2·P matchdays in which every team plays once.

Nothing here touches the database; tournaments.services.league_phase records the draw with its
seed and makes the fixtures. The same seed and the same pots give the same draw, because every
random choice comes from one `random.Random(seed)`.

The search is a backtracking one (fill the open slot with the fewest candidates first, so that a
constraint that bites is met early), bounded by node limits and a fixed number of restarts from
the same generator: bounded time, and still the same result for the same seed. docs/organisers.md
("League phase draw") states how the constraints are read.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)

# Work is counted in opponent checks, not time, so a draw stays the same on any machine. A
# 36-team draw with country caps takes about 0.4 million checks (each slot's candidates at each
# of its 144 steps); the budget over all restarts (about 3 s) only stops a hopeless search that
# counting cannot refuse.
WORK_LIMIT = 4_000_000
# One attempt's share: a search that bogs down is restarted from the generator's next state
# (randomised restarts find tight draws a single long search misses).
ATTEMPT_WORK = 600_000
SCHEDULE_NODE_LIMIT = 5_000
RESTARTS = 8


class LeaguePhaseImpossible(ValueError):
    """No draw meets the constraints; `constraint` names the one that cannot be met."""

    def __init__(self, *, constraint: str, reason: str) -> None:
        self.constraint, self.reason = constraint, reason
        super().__init__(f"{constraint}: {reason}")


@dataclass(frozen=True)
class Match(Generic[T]):
    home: T
    away: T
    matchday: int  # 1-based


@dataclass(frozen=True)
class LeaguePhaseDraw(Generic[T]):
    matches: list[Match[T]]
    matchdays: int

    def opponents(self, team: T) -> list[tuple[T, bool, int]]:
        """(opponent, at home?, matchday) of one team, in matchday order."""
        out = [(m.away, True, m.matchday) for m in self.matches if m.home == team]
        out += [(m.home, False, m.matchday) for m in self.matches if m.away == team]
        return sorted(out, key=lambda o: o[2])


def _check_input(pots: Sequence[Sequence[T]], country: Mapping[T, str], country_cap: int) -> None:
    """Refuse at once what counting alone shows impossible, naming the constraint."""
    if len(pots) < 1:
        raise LeaguePhaseImpossible(constraint="pots", reason="there must be at least one pot")
    size = len(pots[0])
    if any(len(p) != size for p in pots):
        sizes = ", ".join(str(len(p)) for p in pots)
        raise LeaguePhaseImpossible(constraint="pots", reason=f"every pot needs as many teams ({sizes})")
    if size < 3:
        raise LeaguePhaseImpossible(
            constraint="pots",
            reason=f"a pot needs at least 3 teams (each meets two others of its own pot); it has {size}",
        )
    seen: set[T] = set()
    for pot in pots:
        for team in pot:
            if team in seen:
                raise LeaguePhaseImpossible(constraint="pots", reason=f"team {team!r} is listed twice")
            seen.add(team)
    if country_cap < 1:
        raise LeaguePhaseImpossible(
            constraint="country cap", reason="at most 0 opponents of a country leaves nobody to play"
        )
    opponents = 2 * len(pots)
    everyone = Counter(country.get(t, "") for t in seen)
    for team in seen:
        mine = country.get(team, "")
        reachable = sum(
            n if not c else min(n, country_cap) for c, n in everyone.items() if c != mine or not c
        )
        reachable -= 0 if mine else 1  # not itself
        if reachable < opponents:
            raise LeaguePhaseImpossible(
                constraint=f"at most {country_cap} opponent(s) of one country",
                reason=f"{team!r} ({mine or 'no country'}) can meet at most {reachable} teams under "
                f"the caps; it needs {opponents}",
            )
    for number, pot in enumerate(pots, start=1):
        for team in seen:
            mine = country.get(team, "")
            others = [o for o in pot if o != team and (not mine or country.get(o, "") != mine)]
            if len(others) < 2:
                raise LeaguePhaseImpossible(
                    constraint="no opponent of the same country",
                    reason=f"{team!r} ({mine}) has {len(others)} possible opponent(s) in pot {number}; "
                    "it needs 2",
                )
            by_country: dict[str, int] = {}
            for o in others:
                c = country.get(o, "")
                by_country[c] = by_country.get(c, 0) + 1
            usable = sum(n if not c else min(n, country_cap) for c, n in by_country.items())
            if usable < 2:
                raise LeaguePhaseImpossible(
                    constraint=f"at most {country_cap} opponent(s) of one country",
                    reason=f"{team!r} cannot get 2 opponents from pot {number}",
                )


class _PairSearch(Generic[T]):
    """Fill every slot (team, pot, home/away) with an opponent: backtracking, fewest candidates first."""

    def __init__(
        self, pots: list[list[T]], country: Mapping[T, str], cap: int, rng: random.Random, budget: int
    ) -> None:
        self.pots, self.country, self.cap, self.rng, self.budget = pots, country, cap, rng, budget
        self.work = 0
        self.pot_of = {t: p for p, pot in enumerate(pots) for t in pot}
        self.teams = [t for pot in pots for t in pot]
        # slot[(team, pot, is_home)] = opponent or None
        self.slot: dict[tuple[T, int, bool], T | None] = {
            (t, p, h): None for t in self.teams for p in range(len(pots)) for h in (True, False)
        }
        self.met: dict[T, set[T]] = {t: set() for t in self.teams}
        self.counts: dict[T, dict[str, int]] = {t: {} for t in self.teams}
        self.deepest = (0, "")

    def allowed(self, a: T, b: T) -> bool:
        if a == b or b in self.met[a]:
            return False
        ca, cb = self.country.get(a, ""), self.country.get(b, "")
        if ca and ca == cb:
            return False
        if cb and self.counts[a].get(cb, 0) >= self.cap:
            return False
        return not (ca and self.counts[b].get(ca, 0) >= self.cap)

    def candidates(self, key: tuple[T, int, bool]) -> list[T]:
        team, pot, home = key
        back = (self.pot_of[team], not home)
        self.work += len(self.pots[pot])
        return [o for o in self.pots[pot] if self.slot[(o, *back)] is None and self.allowed(team, o)]

    def set(self, key: tuple[T, int, bool], other: T | None) -> None:
        team, _pot, home = key
        old = self.slot[key] if other is None else other
        assert old is not None
        step = 1 if other is not None else -1
        self.slot[key] = other
        self.slot[(old, self.pot_of[team], not home)] = team if other is not None else None
        for x, y in ((team, old), (old, team)):
            if step > 0:
                self.met[x].add(y)
            else:
                self.met[x].discard(y)
            c = self.country.get(y, "")
            if c:
                self.counts[x][c] = self.counts[x].get(c, 0) + step

    def run(self, filled: int = 0) -> bool:
        best: tuple[tuple[T, int, bool], list[T]] | None = None
        for key, value in self.slot.items():
            if value is not None:
                continue
            cands = self.candidates(key)
            if best is None or len(cands) < len(best[1]):
                best = (key, cands)
                if not cands:
                    break
        if best is None:
            return True
        if self.work > self.budget:
            return False
        key, cands = best
        if not cands and filled >= self.deepest[0]:
            team, pot, home = key
            where = "at home" if home else "away"
            self.deepest = (filled, f"{team!r} has no opponent left in pot {pot + 1} {where}")
        self.rng.shuffle(cands)
        for other in cands:
            self.set(key, other)
            if self.run(filled + 1):
                return True
            self.set(key, None)
            if self.work > self.budget:
                return False
        return False

    def pairs(self) -> list[tuple[T, T]]:
        return [(t, o) for (t, _p, home), o in self.slot.items() if home and o is not None]


def _schedule(
    pairs: list[tuple[T, T]], teams: list[T], days: int, rng: random.Random
) -> dict[tuple[T, T], int] | None:
    """Give the pairs `days` matchdays, every team once a day, or None within the node limit.

    An exact cover (Knuth's algorithm X): every pair needs one matchday, and every (team,
    matchday) exactly one pair, since each team plays exactly `days` matches. Choosing the
    column with the fewest rows first finds a dead end (a team left without a match on a day)
    at once. Dicts, not sets, so the order of the search, and the result, follow the seed only.
    """
    order = list(pairs)
    rng.shuffle(order)
    rows: dict[tuple[tuple[T, T], int], list[Hashable]] = {}
    for pair in order:
        for d in rng.sample(range(days), days):
            rows[(pair, d)] = [("pair", pair), ("day", pair[0], d), ("day", pair[1], d)]
    columns: dict[Hashable, dict[tuple[tuple[T, T], int], None]] = {}
    for pair in order:
        columns[("pair", pair)] = {}
    for t in teams:
        for d in range(days):
            columns[("day", t, d)] = {}
    for row, cols in rows.items():
        for c in cols:
            if c not in columns:
                return None  # a team with more matches than matchdays: no schedule
            columns[c][row] = None
    chosen: list[tuple[tuple[T, T], int]] = []
    nodes = 0

    def select(row: tuple[tuple[T, T], int]) -> list[dict[tuple[tuple[T, T], int], None]]:
        removed = []
        for c in rows[row]:
            for other in list(columns[c]):
                for c2 in rows[other]:
                    if c2 != c:
                        columns[c2].pop(other, None)
            removed.append(columns.pop(c))
        return removed

    def deselect(row: tuple[tuple[T, T], int], removed: list[dict[tuple[tuple[T, T], int], None]]) -> None:
        for c, col in reversed(list(zip(rows[row], removed, strict=True))):
            columns[c] = col
            for other in col:
                for c2 in rows[other]:
                    if c2 != c:
                        columns[c2][other] = None

    def search() -> bool:
        nonlocal nodes
        if not columns:
            return True
        nodes += 1
        if nodes > SCHEDULE_NODE_LIMIT:
            return False
        c = min(columns, key=lambda k: len(columns[k]))
        for row in list(columns[c]):
            removed = select(row)
            chosen.append(row)
            if search():
                return True
            chosen.pop()
            deselect(row, removed)
            if nodes > SCHEDULE_NODE_LIMIT:
                return False
        return False

    return {pair: d for pair, d in chosen} if search() else None


def draw_league_phase(
    *,
    pots: Sequence[Sequence[T]],
    seed: int,
    country: Mapping[T, str] | None = None,
    country_cap: int = 2,
) -> LeaguePhaseDraw[T]:
    """Draw each team's two opponents per pot (one home, one away) and schedule the matchdays.

    `country` gives a team's country ("" or missing: none, so no country constraint applies to
    it). Raises LeaguePhaseImpossible naming the constraint when no draw is found.
    """
    country = country or {}
    _check_input(pots, country, country_cap)
    rng = random.Random(seed)
    listed = [list(p) for p in pots]
    days = 2 * len(listed)
    deepest = (0, "")
    budget = WORK_LIMIT
    for _attempt in range(RESTARTS):
        if budget <= 0:
            break
        search = _PairSearch(listed, country, country_cap, rng, min(budget, ATTEMPT_WORK))
        found = search.run()
        budget -= search.work
        if found:
            pairs = search.pairs()
            teams = [t for pot in listed for t in pot]
            matchday = _schedule(pairs, teams, days, rng)
            if matchday is None:
                continue  # rare: draw again from the same generator
            matches = sorted(
                (Match(home=h, away=a, matchday=matchday[(h, a)] + 1) for h, a in pairs),
                key=lambda m: (m.matchday, teams.index(m.home)),
            )
            return LeaguePhaseDraw(matches=matches, matchdays=days)
        deepest = max(deepest, search.deepest, key=lambda d: d[0])
    constraint = f"no opponent of the same country, at most {country_cap} opponent(s) of one country"
    reason = deepest[1] or "no schedule of the drawn pairs gives every team one match a matchday"
    # Counting did not refuse the field, so a draw may exist that the bounded search missed:
    # say so, rather than claim it is impossible.
    raise LeaguePhaseImpossible(
        constraint=constraint,
        reason=f"no draw found within the search budget ({reason}); loosen the cap or change the pots",
    )

"""Draws, as pure functions of a seed: groups from pots, and unseeded knockout brackets.

Nothing here touches the database; tournaments.services records each draw (with its seed) and
applies it. The same seed and the same pots give the same groups, so a draw can be repeated
and checked by anyone.

Constraints are caps per group on an attribute of the team (its confederation, country or club):
"at most 2 UEFA teams per group", "at least one UEFA team per group", "no two teams of one
country" (at most 1 of every value). The whole draw is searched, as the World Cup draw's
computer does, so an early pot never makes a later one impossible while a valid draw exists.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)

# Enough for any real draw (48 teams, 12 groups, country and confederation caps) to finish in a
# fraction of a second; a search that needs more is reported as impossible, not left running.
SEARCH_LIMIT = 200_000


@dataclass(frozen=True)
class Cap:
    """Teams per group sharing a value of one attribute: at most / at least so many.

    `value` None applies the cap to every value on its own (at most 1: "keep countries apart").
    """

    attribute: str
    value: str | None = None
    at_most: int | None = None
    at_least: int | None = None

    def describe(self) -> str:
        who = f"{self.value} team(s)" if self.value else f"team(s) of one {self.attribute}"
        parts = []
        if self.at_least is not None:
            parts.append(f"at least {self.at_least}")
        if self.at_most is not None:
            parts.append(f"at most {self.at_most}")
        return f"{' and '.join(parts)} {who} per group"


@dataclass(frozen=True)
class Relaxation:
    """A pot drawn without the constraints, and why it had to be."""

    pot: int
    group: str
    reason: str


@dataclass(frozen=True)
class GroupDraw(Generic[T]):
    groups: dict[str, list[T]]
    relaxed: list[Relaxation]

    @property
    def relaxed_pots(self) -> list[int]:
        return [r.pot for r in self.relaxed]


class DrawImpossible(ValueError):
    """No draw meets the constraints: names the pot and the group that cannot be filled."""

    def __init__(self, *, pot: int, group: str, reason: str) -> None:
        self.pot, self.group, self.reason = pot, group, reason
        super().__init__(f"pot {pot} cannot be placed: group {group} {reason}")


_ROOM_REASONS = ("has no room left in this pot", "is fuller than another group")


def _count_check(
    pots: Sequence[Sequence[T]],
    names: Sequence[str],
    caps: Sequence[Cap],
    traits: Mapping[T, Mapping[str, str]],
) -> None:
    """Refuse at once what counting alone shows impossible (no search needed to know it)."""
    for cap in caps:
        counts: dict[str, int] = {}
        for number, pot in enumerate(pots, start=1):
            for team in pot:
                mine = traits.get(team, {}).get(cap.attribute, "")
                if not mine or (cap.value is not None and mine != cap.value):
                    continue
                counts[mine] = counts.get(mine, 0) + 1
                if cap.at_most is not None and counts[mine] > cap.at_most * len(names):
                    raise DrawImpossible(
                        pot=number,
                        group=names[-1],
                        reason=f"would hold more than {cap.at_most} {mine} team(s): {counts[mine]} of "
                        f"them for {len(names)} groups ({cap.describe()})",
                    )
        if cap.at_least is not None and cap.value is not None:
            have = counts.get(cap.value, 0)
            if have < cap.at_least * len(names):
                raise DrawImpossible(
                    pot=len(pots),
                    group=names[have // cap.at_least],
                    reason=f"cannot get a {cap.value} team: only {have} for {len(names)} groups "
                    f"({cap.describe()})",
                )


class _Search(Generic[T]):
    """Backtracking over the drawn order; the first group (in name order) that keeps a draw possible."""

    def __init__(
        self,
        pots: list[list[T]],
        names: Sequence[str],
        caps: Sequence[Cap],
        traits: Mapping[T, Mapping[str, str]],
        clash: Callable[[T, T], bool] | None,
    ) -> None:
        self.pots, self.names, self.caps, self.traits, self.clash = pots, names, caps, traits, clash
        self.groups: dict[str, list[T]] = {n: [] for n in names}
        self.rooms = [-(-len(pot) // len(names)) for pot in pots]
        self.nodes = 0
        # The deepest point the search reached, for the message when it fails.
        self.deepest = (-1, 0, names[0], "")

    def value(self, team: T, attribute: str) -> str:
        return self.traits.get(team, {}).get(attribute, "")

    def refusal(self, name: str, team: T, added: dict[str, int], start: dict[str, int], room: int) -> str:
        """Why `team` cannot join group `name` now ("" when it can)."""
        if added[name] >= room:
            return _ROOM_REASONS[0]
        # The smallest groups fill first, so pots of unequal sizes still give groups of equal size.
        open_sizes = [start[n] + added[n] for n in self.names if added[n] < room]
        if start[name] + added[name] > min(open_sizes):
            return _ROOM_REASONS[1]
        members = self.groups[name]
        for cap in self.caps:
            mine = self.value(team, cap.attribute)
            if not mine or cap.at_most is None or (cap.value is not None and mine != cap.value):
                continue
            if sum(1 for o in members if self.value(o, cap.attribute) == mine) >= cap.at_most:
                return f"would hold more than {cap.at_most} {mine} team(s) ({cap.describe()})"
        if self.clash is not None and any(self.clash(team, o) for o in members):
            return "already holds a team it must be kept apart from"
        return ""

    def minimums_reachable(self, pot_index: int, position: int) -> str:
        """'' if every 'at least' cap can still be met by the teams not yet drawn; else why not."""
        for cap in self.caps:
            if cap.at_least is None or cap.value is None:
                continue
            left = [
                sum(
                    1
                    for t in pot[(position if p == pot_index else 0) :]
                    if self.value(t, cap.attribute) == cap.value
                )
                for p, pot in enumerate(self.pots)
                if p >= pot_index
            ]
            need_total = 0
            for name in self.names:
                have = sum(1 for t in self.groups[name] if self.value(t, cap.attribute) == cap.value)
                need = cap.at_least - have
                if need <= 0:
                    continue
                # A group takes at most its room from each pot still to come.
                reach = sum(min(self.rooms[pot_index + i], n) for i, n in enumerate(left))
                if need > reach:
                    return f"{name}: cannot get {cap.describe()}"
                need_total += need
            if need_total > sum(left):
                return f"{self.names[0]}: not enough {cap.value} teams left for {cap.describe()}"
        return ""

    def run(self, first_pot: int = 0, last_pot: int | None = None) -> bool:
        last = len(self.pots) if last_pot is None else last_pot
        return self._pot(first_pot, last)

    def _pot(self, p: int, last: int) -> bool:
        if p == last:
            return True
        start = {n: len(self.groups[n]) for n in self.names}
        added = dict.fromkeys(self.names, 0)
        return self._team(p, 0, last, start, added)

    def _team(self, p: int, i: int, last: int, start: dict[str, int], added: dict[str, int]) -> bool:
        pot = self.pots[p]
        if i == len(pot):
            return self._pot(p + 1, last)
        self.nodes += 1
        if self.nodes > SEARCH_LIMIT:
            return False
        team = pot[i]
        reasons: list[tuple[str, str]] = []
        for name in self.names:
            why = self.refusal(name, team, added, start, self.rooms[p])
            if why:
                reasons.append((name, why))
                continue
            self.groups[name].append(team)
            added[name] += 1
            short = self.minimums_reachable(p, i + 1)
            if not short and self._team(p, i + 1, last, start, added):
                return True
            if short:
                reasons.append((short.split(":")[0], short.split(": ", 1)[1]))
            self.groups[name].pop()
            added[name] -= 1
        if (p, i) > self.deepest[:2]:
            # The group that stays unfilled: the first one refused by a constraint, not for room.
            by_rule = [(n, w) for n, w in reasons if w not in _ROOM_REASONS]
            group, why = (by_rule or reasons or [(self.names[0], "")])[0]
            self.deepest = (p, i, group, why)
        return False


def draw_groups(
    *,
    pots: Sequence[Sequence[T]],
    group_names: Sequence[str],
    seed: int,
    clash: Callable[[T, T], bool] | None = None,
    caps: Sequence[Cap] = (),
    traits: Mapping[T, Mapping[str, str]] | None = None,
    relax: bool = False,
) -> GroupDraw[T]:
    """Draw the pots into the groups, pot 1 first, as a World Cup draw does.

    Each pot's teams are drawn in a random order; a drawn team goes to the first group (in name
    order) that has room for one more team of its pot and breaks no constraint, provided the rest
    of the draw can still be made. When no draw meets every constraint, DrawImpossible names the
    pot and the group that cannot be filled; with `relax`, each pot that cannot be placed after the
    pots before it is drawn without the constraints instead, and reported.
    """
    if not group_names:
        raise ValueError("there are no groups to draw into")
    if len(set(group_names)) != len(group_names):
        raise ValueError("a group name is listed twice")
    seen: set[T] = set()
    for pot in pots:
        for team in pot:
            if team in seen:
                raise ValueError(f"team {team!r} is in two pots (or twice in one)")
            seen.add(team)
    rng = random.Random(seed)
    orders = []
    for pot in pots:
        order = list(pot)
        rng.shuffle(order)
        orders.append(order)
    traits = traits or {}
    constrained = bool(caps) or clash is not None
    try:
        _count_check(orders, group_names, caps, traits)
        search = _Search(orders, group_names, caps, traits, clash)
        if search.run():
            return GroupDraw(groups=search.groups, relaxed=[])
        if not constrained:  # cannot happen: without constraints every team fits
            raise ValueError("the pots do not fit into the groups")
        failed, _i, group, why = search.deepest
        raise DrawImpossible(pot=failed + 1, group=group, reason=why)
    except DrawImpossible:
        if not relax:
            raise
    return _relaxed_draw(orders, group_names, caps, traits, clash)


def _relaxed_draw(
    orders: list[list[T]],
    names: Sequence[str],
    caps: Sequence[Cap],
    traits: Mapping[T, Mapping[str, str]],
    clash: Callable[[T, T], bool] | None,
) -> GroupDraw[T]:
    """Pot by pot: with the constraints where the pots before allow it, without them otherwise."""
    strict = _Search(orders, names, caps, traits, clash)
    free = _Search(orders, names, (), traits, None)
    relaxed: list[Relaxation] = []
    for p in range(len(orders)):
        before = {n: list(g) for n, g in strict.groups.items()}
        strict.nodes = 0
        strict.deepest = (-1, 0, names[0], "")
        if strict.run(p, p + 1):
            continue
        _pot, _i, group, why = strict.deepest
        relaxed.append(Relaxation(pot=p + 1, group=group, reason=why))
        free.groups = before
        free.nodes = 0
        if not free.run(p, p + 1):
            raise ValueError(f"pot {p + 1} does not fit into the groups")
        strict.groups = free.groups
    return GroupDraw(groups=strict.groups, relaxed=relaxed)


def draw_bracket(*, teams: Sequence[T], seed: int) -> list[T]:
    """An unseeded knockout draw: the teams in drawn order (1 v 2, 3 v 4, ...)."""
    if len(set(teams)) != len(teams):
        raise ValueError("a team is listed twice")
    order = list(teams)
    random.Random(seed).shuffle(order)
    return order

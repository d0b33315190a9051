"""Draws, as pure functions of a seed: groups from pots, and unseeded knockout brackets.

Nothing here touches the database; tournaments.services records each draw (with its seed) and
applies it. The same seed and the same pots give the same groups, so a draw can be repeated
and checked by anyone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


@dataclass(frozen=True)
class GroupDraw(Generic[T]):
    groups: dict[str, list[T]]
    # Pots (1-based) where the constraints could not all be met; those teams were drawn freely.
    relaxed_pots: list[int]


def draw_groups(
    *,
    pots: Sequence[Sequence[T]],
    group_names: Sequence[str],
    seed: int,
    clash: Callable[[T, T], bool] | None = None,
) -> GroupDraw[T]:
    """Draw the pots into the groups, pot 1 first, as a World Cup draw does.

    Each pot's teams are drawn in a random order; a drawn team goes to the first group (in name
    order) that has room for one more team of its pot and holds no team it clashes with (same
    club or country), provided the rest of the pot can still be placed. When no placement of a
    whole pot avoids every clash, that pot is drawn without the constraint (and reported).
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
    groups: dict[str, list[T]] = {name: [] for name in group_names}
    relaxed: list[int] = []
    for number, pot in enumerate(pots, start=1):
        order = list(pot)
        rng.shuffle(order)
        # Room per group for this pot: one each when the pot fills a row, more for bigger pots.
        room = -(-len(order) // len(group_names))
        placed = _place(order, groups, group_names, room, clash)
        if placed is None:
            relaxed.append(number)
            placed = _place(order, groups, group_names, room, None)
        if placed is None:  # cannot happen: without constraints every team fits
            raise ValueError(f"pot {number} does not fit into the groups")
        for name, team in placed:
            groups[name].append(team)
    return GroupDraw(groups=groups, relaxed_pots=relaxed)


def _place(
    order: list[T],
    groups: dict[str, list[T]],
    names: Sequence[str],
    room: int,
    clash: Callable[[T, T], bool] | None,
) -> list[tuple[str, T]] | None:
    """Backtracking over the drawn order: the first group that keeps the rest of the pot placeable."""
    added: dict[str, list[T]] = {n: [] for n in names}
    out: list[tuple[str, T]] = []
    # The smallest groups fill first, so pots of unequal sizes still give groups of equal size.
    sizes = {n: len(groups[n]) for n in names}

    def fits(name: str, team: T) -> bool:
        if len(added[name]) >= room:
            return False
        smallest = min(sizes[n] + len(added[n]) for n in names if len(added[n]) < room)
        if sizes[name] + len(added[name]) > smallest:
            return False
        if clash is None:
            return True
        return not any(clash(team, other) for other in (*groups[name], *added[name]))

    def go(i: int) -> bool:
        if i == len(order):
            return True
        team = order[i]
        for name in names:
            if fits(name, team):
                added[name].append(team)
                out.append((name, team))
                if go(i + 1):
                    return True
                added[name].pop()
                out.pop()
        return False

    return out if go(0) else None


def draw_bracket(*, teams: Sequence[T], seed: int) -> list[T]:
    """An unseeded knockout draw: the teams in drawn order (1 v 2, 3 v 4, ...)."""
    if len(set(teams)) != len(teams):
        raise ValueError("a team is listed twice")
    order = list(teams)
    random.Random(seed).shuffle(order)
    return order

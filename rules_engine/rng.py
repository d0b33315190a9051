"""Seeded dice for simulations (never the global `random` state)."""

from __future__ import annotations

import random
from collections.abc import Callable

from .events import Pending, Roll


class Dice:
    """Dice source injected into a match driver; deterministic for a seed."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self._rng = random.Random(seed)
        # randint(1, sides) is 1 + _randbelow(sides) (CPython's random): the same numbers, fewer calls
        self._below: Callable[[int], int] = self._rng._randbelow  # type: ignore[attr-defined]

    def die(self, sides: int = 6) -> int:
        return self._rng.randint(1, sides)

    def roll_for(self, pending: Pending) -> Roll:
        """A Roll event answering a pending roll request."""
        if pending.kind != "roll":
            raise ValueError("the match waits for a decision, not a roll")
        below = self._below
        sides = pending.sides
        n = pending.dice
        if n == 2:
            dice: tuple[int, ...] = (below(sides) + 1, below(sides) + 1)
        elif n == 1:
            dice = (below(sides) + 1,)
        else:
            dice = tuple(below(sides) + 1 for _ in range(n))
        return Roll(pending.name, pending.actor, dice)

    def choice(self, options: tuple[object, ...]) -> object:
        return options[self._rng.randrange(len(options))]

    def random(self) -> float:
        return self._rng.random()


def app_roll(pending: Pending, seed: str, seq: int) -> Roll:
    """The app's roll for event ``seq`` of a scoring session rolled with ``seed`` ("app dice"):
    the server and the phone's engine roll the same dice for the same event, so a roll made on a
    phone without connection is the one the server would have made, and the server can check it.
    (CPython seeds ``random.Random`` from a string with SHA-512: the same on every platform.)"""
    return Dice(f"app-dice:{seed}:{seq}").roll_for(pending)

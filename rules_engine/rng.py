"""Seeded dice for simulations (never the global `random` state)."""

from __future__ import annotations

import random

from .events import Pending, Roll


class Dice:
    """Dice source injected into a match driver; deterministic for a seed."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self._rng = random.Random(seed)

    def die(self, sides: int = 6) -> int:
        return self._rng.randint(1, sides)

    def roll_for(self, pending: Pending) -> Roll:
        """A Roll event answering a pending roll request."""
        if pending.kind != "roll":
            raise ValueError("the match waits for a decision, not a roll")
        dice = tuple(self.die(pending.sides) for _ in range(pending.dice))
        return Roll(pending.name, pending.actor, dice)

    def choice(self, options: tuple[object, ...]) -> object:
        return options[self._rng.randrange(len(options))]

    def random(self) -> float:
        return self._rng.random()

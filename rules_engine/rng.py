"""Seeded dice for simulations (never the global `random` state)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Final

from .events import Pending, Roll

# CPython's randint(1, sides) is 1 + _randbelow(sides), and _randbelow draws getrandbits(k) (k the
# bit length of sides) until the draw is below sides: a few lines of interpreted Python per die.
# Dice draws the same bits itself (compiled, with the C getrandbits); should another Python draw
# otherwise, Dice keeps calling _randbelow.
_BELOW_BY_BITS: Final = getattr(random.Random, "_randbelow", None) is getattr(
    random.Random, "_randbelow_with_getrandbits", None
)


class Dice:
    """Dice source injected into a match driver; deterministic for a seed."""

    def __init__(self, seed: int | str | None = 0) -> None:
        self._rng = random.Random(seed)
        self._below: Callable[[int], int] = self._rng._randbelow  # type: ignore[attr-defined]
        self._bits: Callable[[int], int] = self._rng.getrandbits
        self._by_bits = _BELOW_BY_BITS

    def die(self, sides: int = 6) -> int:
        return self._rng.randint(1, sides)

    def _face(self, sides: int, k: int) -> int:
        """1 + _randbelow(sides): draws of ``k`` bits until one is below ``sides``."""
        bits = self._bits
        r = bits(k)
        while r >= sides:
            r = bits(k)
        return r + 1

    def roll_for(self, pending: Pending) -> Roll:
        """A Roll event answering a pending roll request."""
        if pending.kind != "roll":
            raise ValueError("the match waits for a decision, not a roll")
        sides = pending.sides
        n = pending.dice
        if self._by_bits and sides > 0:
            k = sides.bit_length()
            if n == 2:
                first = self._face(sides, k)
                dice: tuple[int, ...] = (first, self._face(sides, k))
            elif n == 1:
                dice = (self._face(sides, k),)
            else:
                dice = tuple([self._face(sides, k) for _ in range(n)])
            return Roll(pending.name, pending.actor, dice)
        below = self._below
        if n == 2:
            dice = (below(sides) + 1, below(sides) + 1)
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

"""The server's dice: every roll the server makes for a session ("roll for me"), from one generator.

Nothing that determines a roll is stored or sent (no seed): a roll is drawn when it is due, after
the decision before it is stored, from ``secrets.SystemRandom`` (the operating system's CSPRNG).
Tests inject a seeded ``random.Random`` (tests/conftest.py) so that every test's dice are
reproducible; nothing else ever replaces the generator.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Iterator
from contextlib import contextmanager

_generator: random.Random = secrets.SystemRandom()


def faces(count: int, sides: int) -> tuple[int, ...]:
    """``count`` dice of ``sides`` faces, drawn now."""
    return tuple(_generator.randint(1, sides) for _ in range(count))


@contextmanager
def generator_used(generator: random.Random) -> Iterator[None]:
    """Roll with ``generator`` inside the block (the tests' seeded dice), then as before."""
    global _generator  # the one generator of the process, swapped for tests only
    previous, _generator = _generator, generator
    try:
        yield
    finally:
        _generator = previous

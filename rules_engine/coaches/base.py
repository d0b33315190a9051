"""The ``Coach`` protocol and the random coach."""

from __future__ import annotations

import random
from typing import Any, Protocol

from .. import decisions as D
from ..events import Pending
from ..machine import Match


class Coach(Protocol):
    """Something that answers the decisions of one team."""

    def choose(self, match: Match, pending: Pending) -> Any:
        """Return the choice for ``pending`` (a decision of this coach's team)."""
        ...


class RandomCoach:
    """Chooses uniformly among the legal options (seeded).

    Optional move sequences end with probability ``stop`` at each step so that
    they stay short (a uniformly random choice would rarely pick ``done``)."""

    def __init__(self, rng: random.Random, stop: float = 0.35) -> None:
        self.rng = rng
        self.stop = stop

    def choose(self, match: Match, pending: Pending) -> Any:
        opts = pending.options
        if not opts:
            raise ValueError(f"no options for the {pending.name} decision")
        if pending.name in D.MOVE_DECISIONS and D.DONE in opts and self.rng.random() < self.stop:
            return D.DONE
        return opts[self.rng.randrange(len(opts))]

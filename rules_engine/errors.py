"""Error classes of the rules engine.

Every error carries where it happened (turn, stage), the rulebook-3 chapter it
refers to and a reason a player understands.  `path` is the JSON path of the
offending log element where there is one (for example ``$.events[41].dice``).
"""

from __future__ import annotations

from typing import Any


class FubaError(Exception):
    """Base class of all rules-engine errors."""

    kind = "error"

    def __init__(
        self,
        reason: str,
        *,
        rule: str = "",
        turn: int | None = None,
        stage: int | str | None = None,
        path: str | None = None,
    ) -> None:
        self.reason = reason
        self.rule = rule
        self.turn = turn
        self.stage = stage
        self.path = path
        super().__init__(self.message)

    @property
    def message(self) -> str:
        where = []
        if self.turn is not None:
            where.append(f"turn {self.turn}")
        if self.stage is not None:
            where.append(f"stage {self.stage}")
        prefix = ", ".join(where)
        rule = f" ({self.rule})" if self.rule and f"({self.rule})" not in self.reason else ""
        text = f"{self.reason}{rule}"
        if prefix:
            text = f"{prefix}: {text}"
        if self.path:
            text = f"{text} [at {self.path}]"
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "turn": self.turn,
            "stage": self.stage,
            "rule": self.rule,
            "reason": self.reason,
            "path": self.path,
            "message": self.message,
        }


class MalformedLogError(FubaError):
    """The log is not JSON, or violates the fuba-log/1 schema."""

    kind = "malformed"


class HeaderError(FubaError):
    """The header is well formed but not a legal match set-up (2.1, A2, A11)."""

    kind = "header"


class IllegalEventError(FubaError):
    """An event is not allowed by the rules at this point of the match."""

    kind = "illegal"


class UnexpectedEventError(IllegalEventError):
    """The event is of the wrong kind: the rules wait for something else."""

    kind = "unexpected"


class AnnotationMismatchError(FubaError):
    """A written-down score/minute/ball value differs from the replay."""

    kind = "annotation"


class IncompleteLogError(FubaError):
    """The log ends before the match is over."""

    kind = "incomplete"


class MatchOverError(IllegalEventError):
    """An event after the final whistle."""

    kind = "after_end"


class SimulationError(RuntimeError):
    """The simulation could not finish (a coach answered illegally in strict mode)."""


class SimulationLimitError(SimulationError):
    """The match did not end within ``SimulationOptions.max_events`` events."""

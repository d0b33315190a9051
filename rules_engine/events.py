"""Events (what a log records) and pending requests (what comes next).

A log is a sequence of two kinds of events:

* :class:`Decision` - a team chose something (``name`` says what, ``choice``
  is one of the options offered by :meth:`Match.pending`);
* :class:`Roll` - dice were rolled (``dice`` is a tuple of die results).

:class:`Pending` is what the state machine waits for.  It is returned by
``Match.pending()`` and is the contract between the engine and its clients
(validator, simulator bots, web scorer).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal

Actor = Literal["home", "away", "both"]
Choice = str | int | tuple[str, ...] | dict[str, Any]


class Decision:
    """A decision taken by ``by`` (``"home"``/``"away"``).

    Read-only (mypy refuses assignments).  Equality and hashing ignore
    ``check`` and hold only between decisions, as for a frozen dataclass with
    ``compare=False`` on ``check``.  A plain class rather than a NamedTuple or
    dataclass: a replay builds one per event and the compiled engine (mypyc)
    builds and reads native classes fastest."""

    __slots__ = ("by", "check", "choice", "name")

    def __init__(self, name: str, by: str, choice: Any, check: dict[str, Any] | None = None) -> None:
        self.name: Final = name
        self.by: Final = by
        self.choice: Final = choice
        self.check: Final = check

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Decision):
            return NotImplemented
        return self.name == other.name and self.by == other.by and self.choice == other.choice

    def __hash__(self) -> int:
        return hash((self.name, self.by, self.choice))

    def __repr__(self) -> str:
        return f"Decision(name={self.name!r}, by={self.by!r}, choice={self.choice!r}, check={self.check!r})"


class Roll:
    """Dice rolled by ``by``; ``dice`` in the order the rules name them.

    Read-only; equality and hashing ignore ``check`` and hold only between
    rolls (see Decision)."""

    __slots__ = ("by", "check", "dice", "name")

    def __init__(
        self, name: str, by: str, dice: tuple[int, ...], check: dict[str, Any] | None = None
    ) -> None:
        self.name: Final = name
        self.by: Final = by
        self.dice: Final = dice
        self.check: Final = check

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Roll):
            return NotImplemented
        return self.name == other.name and self.by == other.by and self.dice == other.dice

    def __hash__(self) -> int:
        return hash((self.name, self.by, self.dice))

    def __repr__(self) -> str:
        return f"Roll(name={self.name!r}, by={self.by!r}, dice={self.dice!r}, check={self.check!r})"


Event = Decision | Roll


class Pending:
    """What the match waits for next (read-only: mypy refuses assignments).

    kind     ``"decision"`` or ``"roll"``.
    name     decision/roll name (e.g. ``"target_area"``, ``"situation"``).
    actor    ``"home"``, ``"away"`` or ``"both"`` (a roll by both teams).
    turn     current turn number (0 before the first turn).
    stage    1, 2, 3 or a name (``"setup"``, ``"restart"``, ``"end_of_turn"``).
    rule     rulebook-3 chapter that asks for this event.
    prompt   one-line human explanation for the guided web scorer.
    dice     for rolls: number of dice; ``sides`` is 6 except for the random
             skill draws of A13 (number of candidate skills).
    open     True when choices other than ``options`` may be legal (set-ups).
    default  the choice taken when a log leaves this decision out ("done" for
             optional move sequences, "no" for yes/no questions and skill
             offers); None when the decision must be written.
    moot     True for an optional prompt whose answers change nothing in play (a
             condition point for a step the ball value cannot take): a page
             may take the default without asking; any legal answer is kept.
    options  (property) for decisions: every legal choice, computed lazily.
    check_fn for some decisions (the move sequences): why a choice is illegal, or None when
             it is legal; ``verify_fn``'s verdict without raising, for a coach that
             probes a few candidates per decision (a raised error costs many checks).
             For the set-up decisions (3.3) the tuple holds a few ready-made
             legal set-ups; any other legal set-up is accepted too.
    vouched  the one mutable field: a choice that ``verify_fn`` or ``check_fn`` has just passed
             on this request, set by an engine coach that checked its answer (the simulator's),
             so that ``Match.apply`` does not check the very same object again; the match
             clears it when the request is answered (free movements ask again with the same
             request).

    A plain class (not a NamedTuple): one is made for every event, and the
    compiled engine (mypyc) builds and reads a native class several times
    faster than a tuple subclass.
    """

    __slots__ = (
        "actor",
        "check_fn",
        "default",
        "dice",
        "kind",
        "moot",
        "name",
        "open",
        "options_fn",
        "prompt",
        "rule",
        "sides",
        "stage",
        "turn",
        "verify_fn",
        "vouched",
    )

    def __init__(
        self,
        kind: str,
        name: str,
        actor: str,
        turn: int,
        stage: int | str,
        rule: str,
        prompt: str = "",
        dice: int = 0,
        sides: int = 6,
        open: bool = False,
        options_fn: Callable[[], tuple[Any, ...]] | None = None,
        verify_fn: Callable[[Any], None] | None = None,
        default: Any = None,
        moot: bool = False,
        check_fn: Callable[[Any], str | None] | None = None,
    ) -> None:
        self.kind: Final = kind
        self.name: Final = name
        self.actor: Final = actor
        self.turn: Final = turn
        self.stage: Final = stage
        self.rule: Final = rule
        self.prompt: Final = prompt
        self.dice: Final = dice
        self.sides: Final = sides
        self.open: Final = open
        self.options_fn: Final = options_fn
        self.verify_fn: Final = verify_fn
        self.default: Final = default
        self.moot: Final = moot
        self.check_fn: Final = check_fn
        self.vouched: Any = None

    def __repr__(self) -> str:
        return (
            f"Pending(kind={self.kind!r}, name={self.name!r}, actor={self.actor!r}, turn={self.turn!r}, "
            f"stage={self.stage!r}, rule={self.rule!r})"
        )

    @property
    def options(self) -> tuple[Any, ...]:
        if self.options_fn is None:
            return ()
        return self.options_fn()

    def describe(self) -> dict[str, Any]:
        """JSON-friendly description (options included for decisions)."""
        out: dict[str, Any] = {
            "kind": self.kind,
            "name": self.name,
            "actor": self.actor,
            "turn": self.turn,
            "stage": self.stage,
            "rule": self.rule,
            "prompt": self.prompt,
        }
        if self.kind == "roll":
            out["dice"] = self.dice
            out["sides"] = self.sides
        else:
            out["options"] = list(self.options)
            out["open"] = self.open
            out["default"] = self.default
            out["moot"] = self.moot
        return out


# The choice of the event answering a decision, the dice of the event answering a
# roll (Match.apply guarantees the kind), for the rule flow.
def answer_choice(ev: Event) -> Any:
    """The choice of a Decision (None for a Roll)."""
    return ev.choice if isinstance(ev, Decision) else None


def answer_dice(ev: Event) -> tuple[int, ...]:
    """The dice of a Roll (empty for a Decision)."""
    return ev.dice if isinstance(ev, Roll) else ()

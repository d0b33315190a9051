"""The match state machine: ``pending()`` / ``apply(event)``.

The rules are written as generator functions (module ``flow`` and friends).
Each generator *yields* a :class:`~rules_engine.events.Pending` request and
receives the matching event.  The :class:`Match` object checks the event
against the request *before* it is handed to the rules (so a refused event
never changes the state) and keeps the event for :meth:`Match.to_log`.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Final

from .context import MatchContext
from .errors import IllegalEventError, MatchOverError, UnexpectedEventError
from .events import Decision, Event, Pending, Roll
from .flow import match_flow
from .fuba2.flow import match_flow as fuba2_match_flow
from .logformat import serialize
from .result import MatchResult, derive_result
from .state import Header

Flow = Generator[Pending, Event, Any]
# the flow of each ruleset (Header.ruleset, checked by logformat.parse_header): chosen once, here
FLOWS: Final[dict[str, Callable[[MatchContext], Flow]]] = {"fuba-3": match_flow, "fuba-2": fuba2_match_flow}


class Match(MatchContext):
    """One match.  Drive it with ``pending()`` and ``apply(event)``.

    >>> m = Match(header)
    >>> p = m.pending()          # Pending(kind="roll", name="kick_off", actor="both", ...)
    >>> m.apply(Roll("kick_off", "both", (5, 3)))
    """

    def __init__(self, header: Header) -> None:
        super().__init__(header)
        self.events: list[Event] = []
        self._drive(FLOWS[header.ruleset](self))

    def _drive(self, gen: Flow) -> None:
        """Play ``gen``: the header's flow (a test may drive one rule's generator alone)."""
        self._gen: Flow = gen
        # its send kept bound: the generator is no native type to the compiled match, so
        # ``self._gen.send(ev)`` would look the method up by name for every event
        self._send: Callable[[Event], Pending] = gen.send
        self._pending: Pending | None = next(gen)

    # ------------------------------------------------------------------ API
    def pending(self) -> Pending | None:
        """What comes next, or None when the match is over."""
        return self._pending

    @property
    def finished(self) -> bool:
        return self._pending is None

    def apply(self, ev: Event) -> None:
        """Apply one event or raise an IllegalEventError.

        A decision with a ``default`` that the event does not answer (another
        name or another team) is taken with its default first ("done", "no"):
        logs may leave those out.  An event that answers with its default a
        prompt the rules passed over for want of a real choice (logs written
        when it was asked) is kept and changes nothing.  Those defaults stay applied when the event
        itself is then refused; a caller that must keep the earlier state
        (the live scorer) rebuilds the match from its stored events instead."""
        p: Pending | None = self._pending
        if self.skipped and self._absorbed(ev):
            return
        if p is None:
            self._apply_one(ev, None)  # (refused: the match is over)
            return
        name = ev.name
        # the common case inline (same checks as _apply_one), tested first: an event answers the
        # request it meets far more often than it leaves a default out
        if p.name == name and p.actor == ev.by:
            if type(ev) is Decision:
                if p.kind == "decision":
                    verify = p.verify_fn
                    if verify is not None:
                        vouched = p.vouched
                        if vouched is None or ev.choice is not vouched:
                            try:
                                verify(ev.choice)
                            except IllegalEventError as e:
                                self._locate(e, p)
                                raise
                        if vouched is not None:
                            p.vouched = None  # (for this ask only)
                    elif not is_option(ev.choice, p.options):
                        self._apply_one(ev, p)  # (refused there, with the legal answers)
                        return
                    elif p.vouched is not None:
                        p.vouched = None  # (as _apply_one: a vouched choice counts for this ask only)
                    self.events.append(ev)
                    if self.skipped:
                        self.skipped = []
                    try:
                        self._pending = self._send(ev)
                    except StopIteration:
                        self._pending = None
                    return
            elif type(ev) is Roll and p.kind == "roll":
                dice = ev.dice
                if len(dice) == p.dice:
                    sides = p.sides
                    for d in dice:
                        if type(d) is not int or not 1 <= d <= sides:
                            break
                    else:
                        self.events.append(ev)
                        if self.skipped:
                            self.skipped = []
                        try:
                            self._pending = self._send(ev)
                        except StopIteration:
                            self._pending = None
                        return
        elif p.default is not None:
            while p is not None and p.default is not None and (p.name != name or p.actor != ev.by):
                self._apply_one(Decision(p.name, p.actor, p.default), p)
                if self.skipped and self._absorbed(ev):
                    return
                p = self._pending
        self._apply_one(ev, p)

    def _absorbed(self, ev: Event) -> bool:
        """True when ``ev`` answers, with its default, a prompt the flow passed over since the
        last event (``MatchContext.skip``): it is kept in the log and changes nothing."""
        if type(ev) is not Decision:
            return False
        for i, (name, actor, default) in enumerate(self.skipped):
            if name == ev.name and actor == ev.by and default == ev.choice:
                del self.skipped[: i + 1]
                self.events.append(ev)
                return True
        return False

    def finish_defaults(self) -> None:
        """Take the defaults of trailing left-out decisions (end of a log)."""
        p = self._pending
        while p is not None and p.default is not None:
            self._apply_one(Decision(p.name, p.actor, p.default), p)
            p = self._pending

    @staticmethod
    def _locate(e: IllegalEventError, p: Pending) -> None:
        if e.turn is None:
            e.turn = p.turn
        if e.stage is None:
            e.stage = p.stage
        e.args = (e.message,)

    def _apply_one(self, ev: Event, p: Pending | None) -> None:
        if p is None:
            raise MatchOverError("the match is over; no more events are allowed", rule="4.2.1.3")
        if isinstance(ev, Roll):
            if p.kind != "roll" or p.name != ev.name:
                raise self._unexpected(p, ev)
            if ev.by != p.actor:
                raise self._err(p, f"the {p.name} roll is made by {p.actor}, not {ev.by}")
            if len(ev.dice) != p.dice:
                raise self._err(p, f"the {p.name} roll needs {p.dice} dice, got {len(ev.dice)}")
            for d in ev.dice:
                if type(d) is not int or not 1 <= d <= p.sides:
                    raise self._err(p, f"die result {d!r} is not between 1 and {p.sides}")
        else:
            if p.kind != "decision" or p.name != ev.name:
                raise self._unexpected(p, ev)
            if ev.by != p.actor:
                raise self._err(p, f"the {p.name} decision is taken by {p.actor}, not {ev.by}")
            if p.verify_fn is not None:
                try:
                    p.verify_fn(ev.choice)
                except IllegalEventError as e:
                    self._locate(e, p)
                    raise
            elif not is_option(ev.choice, p.options):
                opts = ", ".join(str(o) for o in p.options)
                raise self._err(p, f"{ev.choice!r} is not a legal {p.name}; legal: {opts}")
        p.vouched = None  # (checked again above: a vouched choice counts for the fast path only)
        self.events.append(ev)
        if self.skipped:
            self.skipped = []
        try:
            self._pending = self._send(ev)
        except StopIteration:
            self._pending = None

    def to_log(self, *, compact: bool = True) -> dict[str, Any]:
        """The fuba-log/1 document.  ``compact`` leaves out decisions that a
        replay takes by default (see Pending.default)."""
        return serialize(self.header, self.events, compact=compact)

    def result(self) -> MatchResult:
        """The result as far as the match was played."""
        return derive_result(self)

    def _err(self, p: Pending, reason: str) -> IllegalEventError:
        return IllegalEventError(reason, rule=p.rule, turn=p.turn, stage=p.stage)

    def _unexpected(self, p: Pending, ev: Event) -> UnexpectedEventError:
        got = f"a '{ev.name}' roll" if isinstance(ev, Roll) else f"a '{ev.name}' decision"
        want = f"a '{p.name}' {p.kind} by {p.actor}"
        return UnexpectedEventError(f"expected {want}, got {got}", rule=p.rule, turn=p.turn, stage=p.stage)


def is_option(choice: Any, options: tuple[Any, ...]) -> bool:
    """The one type-aware membership test for a decision's answer.

    ``in`` compares with ``==``: 1.0 and True would pass as the option 1 (and reach ``range``
    as a count), "1" would not but an unhashable answer would crash a set lookup. A log is JSON,
    so an answer is an option only when it has the option's JSON type too."""
    kind = type(choice)
    # (a loop, not any() over a generator: a replay asks this of every listed answer)
    for o in options:  # noqa: SIM110
        if type(o) is kind and o == choice:
            return True
    return False

"""Replay a fuba-log/1 document and report the derived result or the errors."""

from __future__ import annotations

import gc
import threading
from dataclasses import dataclass, field
from typing import Any, Final

from .board import NAMES
from .errors import AnnotationMismatchError, FubaError, IllegalEventError, IncompleteLogError
from .events import Event
from .logformat import loads, parse
from .machine import Match
from .result import MatchResult

_BY_NAME: Final = {"home": 0, "away": 1}


class _GcPause:
    """The cyclic garbage collector held off while logs are validated.

    A replay allocates thousands of tracked containers (the decoded document, events, requests,
    generator frames) that all die by reference counting when it ends, yet every 700 of them set
    off a collection that walks the live ones again: 6-7% of a validation's time. A replay leaves
    no cycles behind (checked by tests/engine), so nothing waits for a collection after it.

    ``gc.disable`` is process-wide and a web server validates on several threads: a count of
    the validations under way, behind a lock, turns the collector off when the first starts and
    back on when the last ends, and only if it was on before (a caller that turned it off keeps
    it off). Other threads allocate without collections for as long as validations overlap;
    their garbage is collected at the first allocation after that."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.running = 0
        self.resume = False

    def enter(self) -> None:
        with self.lock:
            if self.running == 0:
                self.resume = gc.isenabled()
                if self.resume:
                    gc.disable()
            self.running += 1

    def leave(self) -> None:
        with self.lock:
            self.running -= 1
            if self.running == 0 and self.resume:
                self.resume = False
                gc.enable()


_GC_PAUSE: Final = _GcPause()


@dataclass(frozen=True)
class ValidationReport:
    """Outcome of :func:`validate_log`.

    valid    True when the log is a complete legal match and every written-down
             annotation matches the replay.
    result   the derived :class:`~rules_engine.result.MatchResult` when valid, else None.
    errors   every problem found: each has ``turn``, ``stage``, ``rule``,
             ``reason`` and ``path`` (see ``rules_engine.errors``).
    partial  the result as far as the replay got, when invalid.
    """

    valid: bool
    result: MatchResult | None
    errors: tuple[FubaError, ...] = ()
    partial: MatchResult | None = None
    events_applied: int = 0
    unreadable: bool = field(default=False)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"valid": self.valid}
        if self.valid:
            out["result"] = self.result.to_dict() if self.result is not None else None
        else:
            out["errors"] = [e.to_dict() for e in self.errors]
            if self.partial is not None:
                out["replayed_until"] = {
                    "events_applied": self.events_applied,
                    "score": {"home": self.partial.home.goals, "away": self.partial.away.goals},
                    "minute": self.partial.final_minute,
                    "turn": self.partial.turns,
                }
        return out


def check_annotation(m: Match, ev: Event, path: str) -> list[FubaError]:
    c = ev.check
    if not c:
        return []
    st = m.st
    out: list[FubaError] = []

    def bad(key: str, written: Any, actual: Any, rule: str) -> None:
        out.append(
            AnnotationMismatchError(
                f"written-down {key} {written!r} differs from the replay: {actual!r}",
                rule=rule,
                turn=st.turn,
                stage=st.stage,
                path=f"{path}.check.{key}",
            )
        )

    if "score" in c and c["score"] != st.score():
        bad("score", c["score"], st.score(), "3.1")
    if "minute" in c:
        w = c["minute"]
        if str(w) != st.minute_label():
            bad("minute", w, st.minute_label(), "4.2.1")
    if "ball" in c and c["ball"] != st.value:
        bad("ball", c["ball"], st.value, "1.3.1")
    if "half" in c and c["half"] != st.half:
        bad("half", c["half"], st.half, "4.2.1.3")
    if "area" in c and c["area"] != NAMES[st.ball]:
        bad("area", c["area"], NAMES[st.ball], "4.1.1")
    if "digest" in c and c["digest"] != st.digest():
        bad("digest", c["digest"], st.digest(), "state")
    if "control" in c and (type(c["control"]) is not str or _BY_NAME.get(c["control"], -1) != st.ct):
        bad("control", c["control"], ("home", "away")[st.ct], "1.3")
    return out


def validate_log(data: Any) -> ValidationReport:
    """Validate a fuba-log/1 match log.

    ``data`` is the decoded JSON (dict) or the raw JSON text/bytes.  Never
    raises for bad input: malformed JSON, schema violations, illegal events,
    annotation mismatches and incomplete logs are all returned as errors.
    """
    _GC_PAUSE.enter()
    try:
        return _validate(data)
    finally:
        _GC_PAUSE.leave()


def _validate(data: Any) -> ValidationReport:
    if isinstance(data, (str, bytes, bytearray)):
        data, errs = loads(bytes(data) if isinstance(data, bytearray) else data)
        if errs:
            return ValidationReport(False, None, tuple(errs), unreadable=True)
    header, events, errors = parse(data)
    if header is None or errors:
        return ValidationReport(False, None, tuple(errors))
    m = Match(header)
    problems: list[FubaError] = []
    applied = 0
    for ev in events:  # (the event's index is `applied`: the loop stops at the first refusal)
        try:
            # (called on ``m``, not through a bound method kept aside: compiled, that is a direct
            # call, where a bound method is a generic one with its arguments parsed)
            m.apply(ev)
        except IllegalEventError as e:
            e.path = e.path or f"$.events[{applied}]"
            e.args = (e.message,)
            problems.append(e)
            break
        applied += 1
        if ev.check:
            problems.extend(check_annotation(m, ev, f"$.events[{applied - 1}]"))
    else:
        try:
            m.finish_defaults()
        except IllegalEventError as e:  # pragma: no cover - defaults are always legal
            problems.append(e)
        p = m.pending()
        if p is not None:
            problems.append(
                IncompleteLogError(
                    f"the log ends before the final whistle; next the rules wait for a '{p.name}' {p.kind} "
                    f"by {p.actor}",
                    rule=p.rule,
                    turn=p.turn,
                    stage=p.stage,
                    path=f"$.events[{len(events)}]",
                )
            )
    res = m.result()
    if problems:
        return ValidationReport(False, None, tuple(problems), res, applied)
    return ValidationReport(True, res, (), None, applied)

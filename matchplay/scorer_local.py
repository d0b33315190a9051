"""The rules engine on the phone: the entry points the scorer's Web Worker calls under Pyodide.

Packaged with the engine, matchplay.engine_door, matchplay.narrate, matchplay.scorer_view and
matchplay.tap by scoring.web_engine and run unchanged in the browser, so a question asked offline is
the question the server would ask, and a tap is judged by the server's own apply (matchplay.tap).
Pure Python, nothing of Django. Every entry point takes and returns JSON text: one string crosses
the worker boundary instead of a tree of proxies.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from matchplay import scorer_view
from matchplay.engine_door import (
    Copies,
    Dice,
    FubaError,
    IllegalEventError,
    Match,
    Tie,
    event_from_dict,
    new_match,
    snapshot,
    tie_from_dict,
    tie_level,
)
from matchplay.engine_door import (
    setup_check as engine_setup_check,
)
from matchplay.tap import TapRefused, apply_tap

_match: Match | None = None
_header: dict[str, Any] = {}
_names: dict[str, str] = {}
_events: list[dict[str, Any]] = []
# The knockout tie the server's state names (None: not a knockout, or not known yet): the
# extra-time question offers and accepts only what the engine leaves for it (I-38).
_tie: Tie | None = None
# Copies of the match made while the scorer reads a question (prepare()), for the next question's
# lookahead (scorer_view.pending_dict's ``then`` and ``rolls``): each is a replay of the whole
# match, tens of milliseconds late in a match under Pyodide, several a question. A free movement
# question takes up to 5, the formation question at half time up to 7; more are replayed on the
# spot. A kept copy costs the events since it was made at each question (a tap's one or two).
COPIES_AHEAD = 8
_copies = Copies()


def _dump(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"))


def _error(exc: FubaError) -> dict[str, Any]:
    return {
        "ok": False,
        "error": {
            "code": "illegal_event" if isinstance(exc, IllegalEventError) else "malformed_event",
            "message": exc.message,
            "turn": exc.turn,
            "stage": exc.stage,
            "rule": exc.rule,
            "reason": exc.reason,
        },
    }


def _view() -> dict[str, Any]:
    assert _match is not None, "open() first"
    view = scorer_view.match_view(_match, _names, _tie, _copies)
    return {"ok": True, "seq": len(_events), "view": view, "shootout": _shootout(_match)}


def _shootout(match: Match) -> bool:
    """Whether full time leaves the knockout tie level (the engine's tie rule, as the server's
    ``shootout`` says it): the phone asks for the shoot-out score offline too."""
    if _tie is None or match.pending() is not None:
        return False
    home, away = snapshot(match).score
    return tie_level(_tie, home, away)


def _replayed(header: dict[str, Any], events: list[dict[str, Any]]) -> Match:
    match = new_match(dict(header))
    for data in events:
        match.apply(event_from_dict(dict(data)))
    return match


def open_match(text: str) -> str:
    """``{"header", "names", "events", "tie"}``: the match after the events the phone holds, and
    its knockout tie as the server's state gives it (optional)."""
    global _match, _header, _names, _events, _tie, _copies
    data = json.loads(text)
    try:
        match = _replayed(data["header"], data["events"])
        tie = tie_from_dict(data.get("tie"))
    except FubaError as exc:
        return _dump(_error(exc))
    _match, _header, _names, _events = match, data["header"], dict(data["names"]), list(data["events"])
    _tie = tie
    _copies = Copies()
    return _dump(_view())


def apply(text: str) -> str:
    """One tap, ``{"events": [{"client_id", "event" | "roll_for_me": true}, ...], "seed"}``,
    judged by the server's own apply (matchplay.tap.apply_tap), all or none: ``{"ok": true,
    "stored": [{"client_id", "event" (as stored), "rolled_by_app", "rolled_offline"}], "view"}``,
    or ``{"ok": false, "error": {code, message, index, client_id, turn, stage, rule, reason}}``
    with the match as before the tap. ``seed`` (drawn by the page from crypto.getRandomValues)
    rolls the tap's ``roll_for_me``, when it is due."""
    global _match, _copies
    assert _match is not None, "open() first"
    data = json.loads(text)
    seed = data.get("seed")
    faces = _faces(Dice(int(seed))) if seed is not None else None
    try:
        stored = apply_tap(_match, data.get("events") or [], tie=_tie, faces=faces)
    except TapRefused as exc:
        if exc.match is not None and exc.match is not _match:
            # the refused entry, or the tap's earlier ones, had moved the match on: the match as
            # before the tap is a replay, and the copies made of the other one are of no use
            _match, _copies = exc.match, Copies()
        return _dump({"ok": False, "error": exc.to_dict()})
    _events.extend(entry["event"] for entry in stored)
    return _dump({**_view(), "stored": stored})


def _faces(dice: Dice) -> Callable[[int, int], tuple[int, ...]]:
    def faces(count: int, sides: int) -> tuple[int, ...]:
        return tuple(dice.die(sides) for _ in range(count))

    return faces


def undo() -> str:
    """Take back the last event: the match replayed without it."""
    global _match, _copies
    if _events:
        _events.pop()
        _match = _replayed(_header, _events)
        _copies = Copies()
    return _dump(_view())


def prepare() -> str:
    """One more copy of the match for the next question's lookahead, while fewer than COPIES_AHEAD
    are kept: ``{"ok": true, "missing": <copies still to make>}``. The page calls it after it has
    shown a question, once a call, so that a tap waits for one copy at most."""
    if _match is not None and len(_copies) < COPIES_AHEAD:
        _copies.make(_match)
    return _dump({"ok": True, "missing": COPIES_AHEAD - len(_copies) if _match is not None else 0})


def lines(text: str) -> str:
    """Rows ``[{seq, data, side, rolled_by_app}]`` in words, as the server's state lists its events."""
    return _dump(scorer_view.event_lines(json.loads(text), _names))


def setup_check(text: str) -> str:
    """A proposed set-up judged for the pending set-up decision, as the server's setup-check
    answers it (``seq``, ``ok``, ``problems``, ``placed``, ``outfield``); nothing is applied."""
    assert _match is not None, "open() first"
    try:
        check = scorer_view.checked_setup(engine_setup_check(_match, json.loads(text)).to_dict())
    except FubaError as exc:
        return _dump(_error(exc))
    return _dump({"ok": True, "check": {"seq": len(_events), **check}})


def view() -> str:
    return _dump(_view())


def log() -> str:
    """The fuba-log/1 document of the events held: what the server's validated log must equal."""
    return _dump({**_header, "events": _events})


def replay_digest(text: str) -> str:
    """``{"header", "names", "events"}`` replayed from the start: a digest of every pending question
    met on the way and one of the final view, for comparing two interpreters of the same sources."""
    data = json.loads(text)
    match = new_match(dict(data["header"]))
    questions = hashlib.sha256()
    questions.update(_dump(scorer_view.pending_dict(match)).encode())
    for event in data["events"]:
        match.apply(event_from_dict(dict(event)))
        questions.update(_dump(scorer_view.pending_dict(match)).encode())
    final = scorer_view.match_view(match, data["names"])
    return _dump(
        {
            "questions": questions.hexdigest(),
            "final": hashlib.sha256(json.dumps(final, sort_keys=True).encode()).hexdigest(),
            "events": len(data["events"]),
        }
    )

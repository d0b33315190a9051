"""Every call the scorer makes into the rules engine, through the league's one door (matchplay.engine_door).

The engine state of a session is rebuilt from its stored events. Each server process keeps the
last Match it built for recent sessions, keyed by the session's (seq, client id of the last
live event): a key that names the events exactly, since client ids are never reused in a
session, and that a rolled-back write never gives to the database (the next write at that
sequence carries another client id). A process whose copy is a few events behind (another
worker took the last posts) applies only the missing events (scoring.selectors.match_of). A cached
Match is taken out of the cache while an event is applied to it and put back under the key of
the new state.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from kernel.errors import ApplicationError
from matchplay import tap
from matchplay.engine_door import (
    Decision,
    FubaError,
    HeaderError,
    IllegalEventError,
    Match,
    Roll,
    Tie,
    event_from_dict,
    new_match,
    setup_check,
    snapshot,
    validate_log,
)
from matchplay.engine_door import event_to_dict as event_to_dict  # the stored form, for the taps' checks
from matchplay.tap import TapRefused

CACHE_SIZE = 256
EXTRA_TIME = "extra_time"  # the decision that asks whether extra time is played (I-38)


class IllegalEvent(ApplicationError):
    """The rules forbid the event here; the session is unchanged (HTTP 422)."""

    status_code = 422
    code = "illegal_event"


class MalformedEvent(ApplicationError):
    status_code = 422
    code = "malformed_event"


CacheKey = tuple[int, str]
_cache: OrderedDict[int, tuple[CacheKey, Match]] = OrderedDict()
_lock = threading.Lock()


def take(session_id: int) -> tuple[CacheKey, Match] | None:
    """The cached Match of a session and the key of the state it reflects; removed from the cache."""
    with _lock:
        return _cache.pop(session_id, None)


def keep(session_id: int, key: CacheKey, match: Match) -> None:
    with _lock:
        _cache[session_id] = (key, match)
        _cache.move_to_end(session_id)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)


def held(session_id: int) -> bool:
    """Whether this process keeps a Match of the session (of whatever state: see the key)."""
    with _lock:
        return session_id in _cache


def forget(session_id: int) -> None:
    with _lock:
        _cache.pop(session_id, None)


def start(header: Mapping[str, Any]) -> Match:
    try:
        return new_match(dict(header))
    except HeaderError as exc:
        raise ApplicationError(
            f"The match cannot be set up from the fixture: {exc.reason}", code="invalid_header"
        ) from None


def rebuild(header: Mapping[str, Any], events: Iterable[Mapping[str, Any]]) -> Match:
    """The Match after the stored events (they were legal when stored)."""
    return replay(start(header), events)


def replay(match: Match, events: Iterable[Mapping[str, Any]]) -> Match:
    """``match`` after the stored events, applied in order."""
    for data in events:
        match.apply(event_from_dict(dict(data)))
    return match


def catch_up(match: Match, events: Iterable[Mapping[str, Any]]) -> Match | None:
    """A cached ``match`` after the events stored since, or None if the engine refuses one (the
    copy was not what its key said: the caller rebuilds from scratch)."""
    try:
        return replay(match, events)
    except FubaError:
        return None


def refusal(exc: TapRefused) -> ApplicationError:
    """The one apply's refusal (matchplay.tap) as the API's 422, its details the one error shape."""
    cls = IllegalEvent if exc.code == tap.ILLEGAL else MalformedEvent
    return cls(exc.message, details=exc.details())


def apply_tap(
    match: Match,
    entries: Sequence[Mapping[str, Any]],
    *,
    tie: Tie | None = None,
    faces: tap.Faces | None = None,
    app_dice: bool = False,
) -> list[dict[str, Any]]:
    """A tap's entries applied to ``match`` by the one apply the phone runs too (matchplay.tap):
    per entry ``{"client_id", "event" (as stored), "rolled_by_app", "rolled_offline"}``, or
    IllegalEvent / MalformedEvent with the entry's index, client id, turn, stage, rule and reason.
    A refused tap may have moved ``match`` on (the tap's earlier entries, the defaults the refused
    one took): the caller drops it and rebuilds from the stored events."""
    try:
        return tap.apply_tap(match, entries, tie=tie, faces=faces, app_dice=app_dice)
    except TapRefused as exc:
        raise refusal(exc) from None


def parse(data: Any) -> Any:
    """An engine event from its fuba-log/1 JSON form, or MalformedEvent naming the problem (the
    one apply's parse)."""
    try:
        return tap.parse(data)
    except TapRefused as exc:
        raise refusal(exc) from None


def is_roll(event: Any) -> bool:
    return isinstance(event, Roll)


def minute(match: Match) -> str:
    """The match minute as the clock shows it ("37", "45+2")."""
    return str(snapshot(match).minute)


def check_setup(match: Match, choice: Any) -> dict[str, Any]:
    """A proposed set-up judged for the pending set-up decision (nothing is applied)."""
    try:
        return setup_check(match, choice).to_dict()
    except IllegalEventError as exc:
        p = match.pending()
        raise IllegalEvent(
            "There is no set-up to check now: the match waits for something else.",
            details={
                "turn": p.turn if p else None,
                "stage": p.stage if p else None,
                "rule": exc.rule,
                "reason": exc.reason,
            },
        ) from None


def score(match: Match) -> tuple[int, int]:
    return snapshot(match).score


def goals(match: Match) -> tuple[int, int]:
    """The score, read without drawing the whole snapshot (each tap reads it twice: a goal is told)."""
    state = getattr(match, "st", None)
    if state is not None and hasattr(state, "score"):
        home, away = state.score()
        return int(home), int(away)
    return score(match)


def answers_extra_time(event: Any) -> bool:
    """Whether the event answers the extra-time question (I-38)."""
    return isinstance(event, Decision) and event.name == EXTRA_TIME


def result(match: Match) -> dict[str, Any]:
    return match.result().to_dict()


def validate(log: Mapping[str, Any]) -> tuple[bool, list[dict[str, Any]], dict[str, Any] | None]:
    report = validate_log(dict(log))
    errors = [e.to_dict() for e in report.errors]
    return bool(report.valid), errors, report.result.to_dict() if report.result else None

"""The one apply: a tap's events applied to a match, all or none, with one error shape.

A tap is everything one touch of the scorer enters, in order (docs/scorer-internals.md, "One tap,
one post"): the answer, the next answer it implies (``pending.then``), the dice of the roll that
follows (typed, or rolled offline by the phone), the page's own answers after it
(``pending.auto_answer``) and at most one trailing ``roll_for_me``. The phone's Web Worker
(matchplay.scorer_local, packaged with this module by scoring.web_engine) and the server
(scoring.session_engine, the batch post) both call :func:`apply_tap`, so a tap one of them
accepts is accepted by the other, and both refuse with :class:`TapRefused` (turn, stage, rule,
reason; ``malformed_event`` or ``illegal_event``; the index and client id of the entry refused).

Pure Python over the engine door: nothing of Django.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from matchplay.engine_door import (
    FubaError,
    IllegalEventError,
    Match,
    Roll,
    Tie,
    event_from_dict,
    event_to_dict,
    verify_extra_time,
)

MALFORMED = "malformed_event"
ILLEGAL = "illegal_event"
# The keys of a fuba-log/1 event (docs/turn-log-format.md); anything else an entry carries (a
# page's note, the check of an annotated log) is not the event's.
EVENT_KEYS = ("roll", "decide", "by", "dice", "choice")

# faces(count, sides): the dice of a roll the app makes (the server's CSPRNG, the phone's
# crypto.getRandomValues offline); never a seed anyone else holds (issue 31, "Dice nobody can
# foresee").
Faces = Callable[[int, int], tuple[int, ...]]


class TapRefused(Exception):
    """A tap refused whole: nothing of it is applied, ``match`` is the match as it was before the
    tap (the same object when the refusal changed nothing, else a replay of its events; a refused
    event may have taken the defaults before it, Match.apply)."""

    def __init__(
        self,
        code: str,
        reason: str,
        *,
        index: int = 0,
        client_id: str = "",
        turn: int | None = None,
        stage: int | str | None = None,
        rule: str = "",
        message: str = "",
        match: Match | None = None,
    ) -> None:
        self.code = code
        self.reason = reason
        self.index = index
        self.client_id = client_id
        self.turn = turn
        self.stage = stage
        self.rule = rule
        self.message = message or reason
        self.match = match
        super().__init__(self.message)

    def details(self) -> dict[str, Any]:
        """The one error shape (the 422's ``error.details``, the phone worker's ``error``)."""
        return {
            "index": self.index,
            "client_id": self.client_id,
            "turn": self.turn,
            "stage": self.stage,
            "rule": self.rule,
            "reason": self.reason,
        }

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, **self.details()}


def parse(data: Any, *, index: int = 0, client_id: str = "") -> Any:
    """An engine event from its fuba-log/1 JSON form, or TapRefused (malformed_event)."""
    if not isinstance(data, Mapping):
        raise TapRefused(
            MALFORMED,
            "the event must be a JSON object such as {'roll': …} or {'decide': …}",
            index=index,
            client_id=client_id,
            message="The event must be a JSON object such as {'roll': …} or {'decide': …}.",
        )
    clean = {k: v for k, v in data.items() if k in EVENT_KEYS}
    try:
        return event_from_dict(clean)
    except FubaError as exc:
        raise TapRefused(
            MALFORMED,
            exc.reason,
            index=index,
            client_id=client_id,
            rule=exc.rule,
            message=f"The event is not a fuba-log/1 event: {exc.reason}",
        ) from None


def apply_tap(
    match: Match,
    entries: Sequence[Mapping[str, Any]],
    *,
    tie: Tie | None = None,
    faces: Faces | None = None,
    app_dice: bool = False,
) -> list[dict[str, Any]]:
    """Apply a tap's ``entries`` to ``match`` in order, all or none.

    An entry is ``{"event": {...}}`` (``"rolled_offline": true`` for app dice a phone rolled
    without connection) or ``{"roll_for_me": true}``, the pending roll rolled now with ``faces``;
    ``client_id`` names it in a refusal. ``tie``: the knockout tie, which narrows the answers to
    the extra-time question (I-38). ``app_dice``: the session's dice are the app's, so dice typed
    in are refused. Returns, per entry, ``{"client_id", "event" (as stored), "rolled_by_app",
    "rolled_offline"}``; raises TapRefused, the match then as before the tap (``.match``)."""
    before = len(match.events)
    out: list[dict[str, Any]] = []
    for index, entry in enumerate(entries):
        client_id = str(entry.get("client_id") or "")
        try:
            event, by_app, offline = _event(match, entry, index, client_id, faces, app_dice)
            verify_extra_time(match, tie, event)
            match.apply(event)
        except FubaError as exc:
            raise _refused(exc, match, index, client_id, before) from None
        except TapRefused as exc:
            exc.match = _as_before(match, before)
            raise
        out.append(
            {
                "client_id": client_id,
                "event": event_to_dict(event),
                "rolled_by_app": by_app,
                "rolled_offline": offline,
            }
        )
    return out


def _event(
    match: Match, entry: Mapping[str, Any], index: int, client_id: str, faces: Faces | None, app_dice: bool
) -> tuple[Any, bool, bool]:
    """(engine event, rolled by the app, rolled offline) of one entry."""
    if entry.get("roll_for_me") is True:
        p = match.pending()
        if p is None or p.kind != "roll" or faces is None:
            where = f"the match waits for a {p.name} decision" if p is not None else "the match is over"
            raise TapRefused(
                ILLEGAL,
                f"no roll is due here: {where}" if faces is not None else "no dice to roll with here",
                index=index,
                client_id=client_id,
                turn=p.turn if p else None,
                stage=p.stage if p else None,
                rule=p.rule if p else "",
            )
        return Roll(p.name, p.actor, faces(p.dice, p.sides)), True, False
    event = parse(entry.get("event"), index=index, client_id=client_id)
    offline = entry.get("rolled_offline") is True
    if isinstance(event, Roll) and app_dice and not offline:
        p = match.pending()
        raise TapRefused(
            ILLEGAL,
            "this session uses app dice (both clubs agreed): the app rolls every roll",
            index=index,
            client_id=client_id,
            turn=p.turn if p else None,
            stage=p.stage if p else None,
            rule="app dice",
        )
    if offline and not isinstance(event, Roll):
        raise TapRefused(
            MALFORMED, "rolled_offline marks a roll, not a decision", index=index, client_id=client_id
        )
    return event, offline, offline


def _refused(exc: FubaError, match: Match, index: int, client_id: str, before: int) -> TapRefused:
    p = match.pending()
    illegal = isinstance(exc, IllegalEventError)
    return TapRefused(
        ILLEGAL if illegal else MALFORMED,
        exc.reason,
        index=index,
        client_id=client_id,
        turn=exc.turn if exc.turn is not None else (p.turn if p else None),
        stage=exc.stage if exc.stage is not None else (p.stage if p else None),
        rule=exc.rule,
        message=exc.message,
        match=_as_before(match, before),
    )


def _as_before(match: Match, before: int) -> Match:
    """``match`` as it was with its first ``before`` events: the same object when nothing was
    applied since, else a replay (the earlier entries of the tap, or the defaults a refused event
    took, are not kept)."""
    if len(match.events) == before:
        return match
    copy = Match(match.header)
    for ev in match.events[:before]:
        copy.apply(ev)
    return copy

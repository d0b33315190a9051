"""Side branches: taps a phone recorded offline on sequence numbers another device stored first.

Two phones scoring the same match without a connection both record events from the same point;
the first to sync wins (its events are stored as usual). The other phone's taps from that point are
kept here on record, never applied, and the phone is told plainly which of its taps were not used
(docs/scorer-internals.md, "The local engine"). A resend of the same branch (same branch id) changes nothing.

Branches are bounded: a session keeps at most SCORER_SIDE_BRANCHES_PER_SESSION of them, a branch
holds at most one match of taps, and its taps count toward the club's daily scorer quota
(scoring.quotas), as taps posted as events do. The two clubs and staff read them
(scoring.selectors.side_branches_of) through the API and on the match page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction

from kernel.errors import ApplicationError, NotFound
from scoring import quotas, session_engine
from scoring.models import ScoringSession, ScoringSideBranch
from scoring.services import writer_side

# One match of taps: a whole match with extra time is 600-900 events.
MAX_EVENTS = 1500


def _checked_events(events: Any) -> list[dict[str, Any]]:
    if not isinstance(events, Sequence) or isinstance(events, str | bytes) or not events:
        raise ApplicationError("events: a side branch is a non-empty list of {client_id, event}.")
    if len(events) > MAX_EVENTS:
        raise ApplicationError(f"events: at most {MAX_EVENTS} taps in one side branch, not {len(events)}.")
    out = []
    for i, item in enumerate(events):
        client_id = item.get("client_id") if isinstance(item, Mapping) else None
        if not isinstance(client_id, str) or not 0 < len(client_id) <= 64:
            raise ApplicationError(f"events[{i}].client_id: a string of 1 to 64 characters.")
        try:
            parsed = session_engine.parse(item.get("event"))
        except session_engine.MalformedEvent as exc:
            raise session_engine.MalformedEvent(
                f"events[{i}].event: {exc.message}", details=exc.details
            ) from None
        out.append({"client_id": client_id, "event": session_engine.event_to_dict(parsed)})
    return out


def branch_message(*, taps: int, from_minute: str, to_minute: str) -> str:
    """What the phone whose taps were not used is told."""
    noun, verb = ("tap", "was") if taps == 1 else ("taps", "were")
    since = f" from {from_minute}'" if from_minute else ""
    span = f"{from_minute}'–{to_minute}'" if from_minute else f"up to {to_minute}'"
    return (
        f"Your {taps} {noun}{since} {verb} not used: the other phone had already recorded {span}. "
        "They are kept on record as a side branch; the screen shows the match as stored."
    )


def _check_room(session: ScoringSession) -> None:
    limit = settings.SCORER_SIDE_BRANCHES_PER_SESSION
    if ScoringSideBranch.objects.filter(session=session).count() >= limit:
        raise quotas.ScorerQuotaExceeded(
            f"This session keeps {limit} side branches already, the most one session keeps: these "
            "taps are not kept. The match as stored is on the screen; score on from there.",
            code="side_branches_full",
            details={"quota": "side_branches", "limit": limit},
        )


def side_branch_record(
    *,
    session_id: int,
    user: User,
    branch_id: str,
    from_seq: int,
    from_minute: str,
    events: Any,
    current_minute: str,
) -> tuple[ScoringSideBranch, bool]:
    """Keep a phone's refused offline taps on record; (the branch, whether it is new).
    ``current_minute`` is the match minute as stored, for the message."""
    if not isinstance(branch_id, str) or not 0 < len(branch_id) <= 64:
        raise ApplicationError("branch_id: a string of 1 to 64 characters made by the phone.")
    session = ScoringSession.objects.select_related("fixture").filter(id=session_id).first()
    if session is None:
        raise NotFound(f"No scoring session {session_id}.")
    side = writer_side(user, session.fixture)
    existing = ScoringSideBranch.objects.filter(session=session, branch_id=branch_id).first()
    if existing is not None:
        return existing, False
    if not isinstance(from_seq, int) or not 1 <= from_seq <= session.seq:
        raise ApplicationError(
            f"from_seq: the session holds events 1–{session.seq}; taps from {from_seq} do not "
            "collide with stored events: post them as events.",
            code="not_a_side_branch",
        )
    taps = _checked_events(events)
    minute = str(from_minute or "")[:16]
    branch = ScoringSideBranch(
        session=session,
        branch_id=branch_id,
        from_seq=from_seq,
        from_minute=minute,
        events=taps,
        session_seq=session.seq,
        side=side,
        recorded_by=user if user.is_authenticated else None,
        message=branch_message(taps=len(taps), from_minute=minute, to_minute=current_minute),
    )
    with transaction.atomic():
        # One writer of a session's branches at a time, so that the bound holds exactly.
        ScoringSession.objects.select_for_update().filter(id=session.id).values_list("id").first()
        existing = ScoringSideBranch.objects.filter(session=session, branch_id=branch_id).first()
        if existing is not None:  # the same branch sent twice at once: the first one stored it
            return existing, False
        _check_room(session)
        quotas.check_events(session.fixture_id, side, count=len(taps))
        branch.save()
    return branch, True

"""Reads of scoring sessions: the state a scorer or a spectator sees, the documents the live
endpoints serve, and which fixtures are live.

Nothing here writes: the services store and the live module (scoring.live) caches what is read
here. The one exception is the engine's per-process copy of a session's match (scoring.session_engine),
a memo of a pure computation that any reader may fill.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import Q

from kernel.errors import Conflict, NotFound
from matches.holds import Hold
from matches.replay import match_story, replay_frames, with_shootout
from matches.selectors import audit_trail_is_full_for
from matchplay import narrate, scorer_view
from matchplay.engine_door import tie_level
from scoring import dice, session_engine
from scoring.models import ScoringEvent, ScoringSession, ScoringSideBranch
from tournaments.models import Fixture, Stage
from tournaments.selectors import fixture_first_leg


class StaleSequence(Conflict):
    """The client is behind (or ahead): it must catch up with the current state (HTTP 409)."""

    code = "stale_sequence"


class StaleHead(StaleSequence):
    """The post does not extend the stored head: refused whole (HTTP 409, docs/scorer-internals.md)."""

    code = "stale_head"


STALE_LISTED = 200


def stale_head(session: ScoringSession, *, after: str, after_seq: int) -> StaleHead:
    """The refusal of a post built on ``after`` (client id of the event it extends, at
    ``after_seq``) when the stored head is another: what the store holds since ``after`` (since
    ``after_seq`` when ``after`` is no live event: the chains part there at the latest), each
    event with the match minute it was entered at, for the phone to say what the other device
    recorded."""
    live = ScoringEvent.objects.filter(session=session, undone_at__isnull=True, seq__lte=session.seq)
    found = live.filter(client_id=after).values_list("seq", flat=True).first() if after else 0
    start = found if found is not None else min(max(after_seq - 1, 0), session.seq)
    rows = list(live.order_by("seq").values_list("seq", "client_id", "side", "data"))
    match = session_engine.rebuild(session.header, [r[3] for r in rows[:start]])
    names = session_names(session)
    since = []
    for seq, client_id, side, data in rows[start : start + STALE_LISTED]:
        since.append(
            {
                "seq": seq,
                "client_id": client_id,
                "minute": session_engine.minute(match),
                "side": side,
                "text": narrate.event_text(data, names),
            }
        )
        session_engine.replay(match, [data])
    built_on = f"event {after_seq} ({after})" if after else "the kick-off"
    return StaleHead(
        f"This post builds on {built_on}, but the match as stored holds {session.seq} events ending "
        f"with {session.head or 'the kick-off'}: another device recorded since. Nothing of it was "
        "stored; catch up with the match as stored.",
        details={
            "head": session.head,
            "seq": session.seq,
            "version": session.version,
            "session": session.id,
            "after_seq": found,
            "stored_since": since,
        },
    )


def _live_events(session: ScoringSession) -> list[dict[str, Any]]:
    return list(
        ScoringEvent.objects.filter(session=session, undone_at__isnull=True)
        .order_by("seq")
        .values_list("data", flat=True)
    )


class SessionChanged(StaleSequence):
    """Another write changed the session's events after this request read the session row: the
    request reads again (scoring.selectors), or the client catches up (409)."""


def cache_key(session: ScoringSession) -> session_engine.CacheKey:
    return (session.seq, session.head)


def match_of(session: ScoringSession, log: list[Any] | None = None) -> Any:
    """The engine Match after the session's live events as the row ``session`` was read (taken
    out of the process cache: give it back with session_engine.keep once done with it unchanged or
    committed). ``log``: the live events up to the row's seq as ``[seq, client_id, data]``, when
    the caller read them with the row (scoring.taps, for a process that holds no copy), else
    they are read here if needed. Raises SessionChanged when the stored events are no longer
    those of that row."""
    cached = session_engine.take(session.id)
    if cached is not None:
        (seq, head), match = cached
        if (seq, head) == cache_key(session):
            return match
        if seq < session.seq:
            caught_up = _catch_up(session, match, seq, head)
            if caught_up is not None:
                return caught_up
    # Read without a lock, so the events stored now may have gone past the row read before:
    # the events up to its seq must end with its head.
    rows = log
    if rows is None:
        rows = list(
            ScoringEvent.objects.filter(session=session, undone_at__isnull=True, seq__lte=session.seq)
            .order_by("seq")
            .values_list("seq", "client_id", "data")
        )
    if [r[0] for r in rows] != list(range(1, session.seq + 1)) or (rows and rows[-1][1] != session.head):
        raise SessionChanged(
            "The session changed while it was read; catch up and try again.",
            details={"seq": session.seq, "version": session.version, "session": session.id},
        )
    return session_engine.rebuild(session.header, [data for _, _, data in rows])


def _catch_up(session: ScoringSession, match: Any, seq: int, head: str) -> Any | None:
    """``match`` (the state after live event ``seq`` with client id ``head``) brought up to the
    session's seq, or None when its events are no longer the session's (an undo since). The
    session row's recent events usually hold the few missing ones; else they are read."""
    rows = [
        (r["seq"], r.get("client_id"), r["data"])
        for r in reversed(session.recent)
        if max(seq, 1) <= r["seq"] <= session.seq
    ]
    if not rows or rows[0][0] != max(seq, 1) or any(r[1] is None for r in rows):
        rows = list(
            ScoringEvent.objects.filter(
                session=session, undone_at__isnull=True, seq__gte=max(seq, 1), seq__lte=session.seq
            )
            .order_by("seq")
            .values_list("seq", "client_id", "data")
        )
    if seq:
        if not rows or rows[0][:2] != (seq, head):
            return None
        rows = rows[1:]
    if [r[0] for r in rows] != list(range(seq + 1, session.seq + 1)) or rows[-1][1] != session.head:
        return None
    return session_engine.catch_up(match, (data for _, _, data in rows))


def hold_key(session_id: int) -> str:
    """The key of the session's hold on its fixture (matches.holds): its own report passes it."""
    return f"scoring-session:{session_id}"


def fixture_tie(fixture: Fixture) -> session_engine.Tie | None:
    """The knockout tie of a fixture as the engine needs it at the extra-time question (I-38: the
    engine says which answers it leaves, rules_engine.tie); None for a stage that is not a
    knockout, and when the league cannot tell yet (a second leg whose first leg has no counted
    result)."""
    stage = fixture.stage
    if stage.kind != Stage.Kind.KNOCKOUT:
        return None
    if stage.legs != 2:
        return session_engine.Tie()
    if fixture.leg != 2:
        return session_engine.Tie(legs=2)
    first = fixture_first_leg(fixture=fixture)
    result = getattr(first, "result", None) if first is not None else None
    if first is None or first.status not in Fixture.COUNTED_STATUSES or result is None:
        return None
    # This match's home team was the first leg's away team.
    first_leg = (result.away_goals, result.home_goals)
    return session_engine.Tie(legs=2, first_leg=first_leg, away_goals=stage.away_goals_rule)


def extra_time_answer(fixture: Fixture, home_goals: int, away_goals: int) -> str | None:
    """The one legal answer to the extra-time question (I-38) after these 90 minutes, as the
    engine's tie rule gives it: "yes" exactly when the tie is level, so a level knockout match is
    never ended at 90 minutes; None when the league cannot tell yet."""
    if fixture.stage.kind != Stage.Kind.KNOCKOUT:
        return "no"
    tie = fixture_tie(fixture)
    if tie is None:
        return None
    return "yes" if tie_level(tie, home_goals, away_goals) else "no"


def shootout_needed(fixture: Fixture, home_goals: int, away_goals: int) -> bool:
    """Whether this final score leaves the knockout tie level, so the clubs give the penalty
    shoot-out they played when they confirm (house rule I-38, I-42)."""
    return extra_time_answer(fixture, home_goals, away_goals) == "yes"


def scored_log(session: ScoringSession) -> dict[str, Any]:
    """The fuba-log/1 document of the session: its header and live events as entered."""
    header = session.header
    if session.dice_record:
        # how the dice were rolled and who agreed, with the log the result is submitted with
        mode = dice.summary(
            dice.public(session.dice_record), app_dice=session.app_dice, names=session_names(session)
        )
        header = {**header, "meta": {**(header.get("meta") or {}), "dice": mode}}
    return {**header, "events": _live_events(session)}


def participants(session: ScoringSession) -> set[str]:
    """The clubs ("home"/"away") whose members entered events."""
    return {side for side in ("home", "away") if getattr(session, f"{side}_entered")}


def session_get(*, session_id: int) -> ScoringSession:
    try:
        return ScoringSession.objects.select_related(
            "fixture", "fixture__home_team", "fixture__away_team", "fixture__competition", "submission"
        ).get(id=session_id)
    except ScoringSession.DoesNotExist:
        raise NotFound(f"No scoring session {session_id}.") from None


def active_session(*, fixture_id: int) -> ScoringSession | None:
    return (
        ScoringSession.objects.filter(fixture_id=fixture_id, status__in=ScoringSession.ACTIVE_STATUSES)
        .select_related("fixture", "fixture__home_team", "fixture__away_team")
        .first()
    )


def live_sessions(*, team_ids: Iterable[int]) -> list[ScoringSession]:
    """The sessions running for these teams' fixtures (being scored, or waiting for the clubs'
    confirmation at full time), oldest first."""
    ids = list(team_ids)
    return list(
        ScoringSession.objects.filter(status__in=ScoringSession.ACTIVE_STATUSES)
        .filter(Q(fixture__home_team_id__in=ids) | Q(fixture__away_team_id__in=ids))
        .select_related("fixture", "fixture__competition", "fixture__home_team", "fixture__away_team")
        .order_by("created_at")
    )


def live_fixture_ids(*, fixture_ids: Iterable[int]) -> set[int]:
    """Fixtures among these with a session being scored right now (the "live" mark)."""
    return set(
        ScoringSession.objects.filter(
            fixture_id__in=list(fixture_ids), status=ScoringSession.Status.LIVE
        ).values_list("fixture_id", flat=True)
    )


def fixture_holds(fixture_ids: Collection[int]) -> dict[int, Hold]:
    """matches.holds' finder: a running session (live, or at full time waiting for the clubs)
    holds its fixture, its result comes from the session."""
    rows = ScoringSession.objects.filter(
        fixture_id__in=list(fixture_ids), status__in=ScoringSession.ACTIVE_STATUSES
    ).values_list("fixture_id", "id", "status")
    return {
        fixture_id: Hold(
            key=hold_key(session_id),
            message=(
                f"the match is being scored live (scoring session {session_id}"
                + (", at full time waiting for the clubs' confirmation" if status != "live" else "")
                + "): its result comes from the session. Follow it on the match page; to report "
                "the result by hand instead, a club abandons the session first."
            ),
            details={"scoring_session": session_id},
        )
        for fixture_id, session_id, status in rows
    }


def current_version(*, session_id: int) -> int | None:
    """The session's version (the live endpoints' ETag), as committed."""
    head = live_head(session_id=session_id)
    return head[0] if head is not None else None


def live_head(*, session_id: int) -> tuple[int, int | None] | None:
    """(the session's version as committed, the fixture whose clubs and staff alone may read it
    now or None), in one query: a poll decides who may read before it touches any cached copy."""
    row = (
        ScoringSession.objects.filter(id=session_id)
        .values_list("version", "reached_full_time", "fixture_id", "fixture__status")
        .first()
    )
    if row is None:
        return None
    version, reached, fixture_id, fixture_status = row
    private = reached and fixture_status not in Fixture.COUNTED_STATUSES
    return version, fixture_id if private else None


def session_names(session: ScoringSession) -> dict[str, str]:
    teams = session.header.get("teams") or {}
    return {side: str((teams.get(side) or {}).get("name") or side) for side in ("home", "away")}


def _current_match(session: ScoringSession) -> tuple[ScoringSession, Any]:
    """The session as it is now and its engine match."""
    for _ in range(3):
        try:
            return session, match_of(session)
        except SessionChanged:
            # Another device wrote since the row was read: the state as it is now.
            session = session_get(session_id=session.id)
    return session, match_of(session)


def setup_check(*, session_id: int, choice: Any) -> dict[str, Any]:
    """A proposed set-up judged for the session's pending set-up decision (rulebook 3, 3.3.1):
    ``ok`` and what is still wrong, in words; nothing is stored."""
    session, match = _current_match(session_get(session_id=session_id))
    try:
        return {"seq": session.seq, **scorer_view.checked_setup(session_engine.check_setup(match, choice))}
    finally:
        session_engine.keep(session.id, cache_key(session), match)


def session_state(session: ScoringSession) -> dict[str, Any]:
    """Everything the scorer page and the live page draw, rebuilt by the engine from the events."""
    names = session_names(session)
    session, match = _current_match(session)
    # Read only where the extra-time question can come (I-38); the phone's engine gets it too.
    tie = fixture_tie(session.fixture) if session.header.get("extra_time") else None
    try:
        view = scorer_view.match_view(match, names, tie)
    finally:
        session_engine.keep(session.id, cache_key(session), match)
    rows = session.recent
    undone = session.last_undo
    submission = session.submission if session.submission_id else None
    return {
        "session": session.id,
        "fixture": session.fixture_id,
        "status": session.status,
        "seq": session.seq,
        # the client id of the last live event: what the next tap names as ``after``
        "head": session.head,
        "version": session.version,
        "teams": {side: {"name": name} for side, name in names.items()},
        "advanced_rules": session.header.get("advanced_rules") or [],
        "tie": tie.to_dict() if tie is not None else None,
        "areas": scorer_view.areas(names),
        "state": view["state"],
        "pending": view["pending"],
        "question": view["question"],
        "events": scorer_view.event_lines(rows, names),
        "moments": view["moments"],
        "last_undo": {
            "seq": undone["seq"],
            "text": narrate.event_text(undone["event"], names),
            "reason": undone["reason"],
            "at": undone["at"],
        }
        if undone
        else None,
        "confirmations": {
            "home": session.home_confirmed_by_id is not None,
            "away": session.away_confirmed_by_id is not None,
        },
        "participants": sorted(participants(session)),
        "result": view["result"],
        "submission": {
            "id": submission.id,
            "status": submission.status,
            "validation_status": submission.validation_status,
        }
        if submission is not None
        else None,
        "abandon_reason": session.abandon_reason or None,
        "app_dice": session.app_dice,
        # whose choice the dice are, the other club's answer, a change asked for (scoring.dice)
        "dice": dice.view(session.dice_record, app_dice=session.app_dice, names=names),
        # at full time of a level knockout tie the page asks for the shoot-out score at once
        "shootout": session.status == ScoringSession.Status.FULL_TIME
        and shootout_needed(session.fixture, *view["state"]["score"]),
        # the shoot-out score the first club to confirm gave: the other club's page offers it
        "shootout_score": {
            "home": session.shootout_home,
            "away": session.shootout_away,
            "side": session.shootout_side,
        }
        if session.shootout_home is not None
        else None,
    }


# What a tap can change of the session state besides the match itself (the light answer).
LIGHT_FIELDS = (
    "session",
    "fixture",
    "status",
    "seq",
    "head",
    "version",
    "participants",
    "result",
    "shootout",
)


def session_light(session: ScoringSession) -> dict[str, Any]:
    """The fields of the session state that a tap can change, without the match's view
    (``state``, ``pending``, ``question``, ``moments``, ``events``): the answer to a tap posted with
    ``"answer": "light"`` by a phone whose own engine draws the match (the page's local-first
    queue), which merges them into the state it holds. The engine is asked nothing while the
    match is live; at full time it gives the result, as in session_state."""
    result = None
    shootout = False
    if session.status != ScoringSession.Status.LIVE:
        session, match = _current_match(session)
        try:
            if match.pending() is None:
                derived = session_engine.result(match)
                # the same three fields as scorer_view.match_view's result
                result = {
                    "score": derived["score"],
                    "extra_time": derived.get("extra_time"),
                    "final_minute": derived.get("final_minute"),
                }
            if session.status == ScoringSession.Status.FULL_TIME:
                shootout = shootout_needed(session.fixture, *session_engine.score(match))
        finally:
            session_engine.keep(session.id, cache_key(session), match)
    return {
        "session": session.id,
        "fixture": session.fixture_id,
        "status": session.status,
        "seq": session.seq,
        "head": session.head,
        "version": session.version,
        "participants": sorted(participants(session)),
        "result": result,
        "shootout": shootout,
    }


def session_log(session: ScoringSession) -> dict[str, Any]:
    """The session's header and every live event as stored (numbered, with its client id): what a
    phone's local engine replays before it scores, and catches up from with ``since``."""
    return {
        "session": session.id,
        "seq": session.seq,
        "version": session.version,
        "header": session.header,
        "events": [
            {
                "seq": seq,
                "client_id": client_id,
                "event": data,
                "side": side,
                "rolled_by_app": rolled,
                "rolled_offline": offline,
            }
            for seq, client_id, data, side, rolled, offline in ScoringEvent.objects.filter(
                session=session, undone_at__isnull=True
            )
            .order_by("seq")
            .values_list("seq", "client_id", "data", "side", "rolled_by_app", "rolled_offline")
        ],
    }


def live_encode(state: dict[str, Any]) -> bytes:
    return json.dumps(state, separators=(",", ":")).encode()


def result_private(session: ScoringSession) -> bool:
    """From full time until the fixture's result counts, a session carries the final score and
    the whole log of a result the clubs have yet to confirm: like the audit trail, only the two
    clubs and staff see it, whatever the session does later (undone back to play, abandoned,
    submitted and disputed; docs/reliability.md)."""
    return session.reached_full_time and session.fixture.status not in Fixture.COUNTED_STATUSES


def readable_by(session: ScoringSession, *, user: Any) -> bool:
    """Whether ``user`` may read the session's state, log and feed."""
    return not result_private(session) or audit_trail_is_full_for(fixture=session.fixture, user=user)


def private_summary(session: ScoringSession) -> dict[str, Any]:
    """What everyone may know of a session whose result is private: its status and teams."""
    return {
        "session": session.id,
        "fixture": session.fixture_id,
        "status": session.status,
        "teams": {side: {"name": name} for side, name in session_names(session).items()},
    }


@dataclass(frozen=True)
class LiveDocument:
    body: bytes
    version: int
    # The fixture whose clubs and staff alone may read it; None when it is public.
    private_to_fixture: int | None = None


def live_document(*, session_id: int) -> LiveDocument:
    """The live endpoint's JSON of the session as it is now: the state the scorer draws."""
    session = session_get(session_id=session_id)
    state = session_state(session)
    private_to = session.fixture_id if result_private(session) else None
    return LiveDocument(live_encode(state), state["version"], private_to)


def live_story(*, session_id: int, frames: bool = False) -> LiveDocument:
    """The feed by turn and the key moments of the session as scored so far (matches.replay's
    story of its log), as JSON: the engine replays the log, so the live module caches it per
    version. From full time until the result counts it is the clubs' and staff's only, as the
    live document is."""
    session = session_get(session_id=session_id)
    # With frames (a spectator stepping back through the feed asks for them once): the pitch of
    # every moment, as the replay of a counted match has it; each feed line's ``first`` is then a
    # frame index.
    story = replay_frames(scored_log(session)) if frames else match_story(scored_log(session))
    if frames:
        story = {k: story.get(k) for k in ("feed", "moments", "marks", "error", "events", "frames")}
    if session.shootout_home is not None and session.shootout_away is not None:
        story = with_shootout(
            story, home=session.shootout_home, away=session.shootout_away, names=session_names(session)
        )
    body = json.dumps({"version": session.version, **story}, separators=(",", ":")).encode()
    return LiveDocument(body, session.version, session.fixture_id if result_private(session) else None)


def side_branches_of(session: ScoringSession) -> list[dict[str, Any]]:
    """The session's side branches as the clubs read them, oldest first: where each started, how
    many taps, which club's phone and who sent it, when, what the phone was told, and its taps
    in words (the match page and ``GET …/side-branches``; the two clubs and staff only)."""
    names = session_names(session)
    rows = ScoringSideBranch.objects.filter(session=session).select_related("recorded_by").order_by("id")
    return [
        {
            "branch_id": branch.branch_id,
            "from_seq": branch.from_seq,
            "from_minute": branch.from_minute,
            "session_seq": branch.session_seq,
            "taps": len(branch.events),
            "side": branch.side,
            "team": names.get(branch.side, "staff"),
            "recorded_by": branch.recorded_by.get_username() if branch.recorded_by else "",
            "at": branch.created_at,
            "message": branch.message,
            "events": [
                {
                    "client_id": tap["client_id"],
                    "event": tap["event"],
                    "text": narrate.event_text(tap["event"], names),
                }
                for tap in branch.events
            ],
        }
        for branch in rows
    ]


def fixture_side_branches(*, fixture_id: int) -> list[dict[str, Any]]:
    """Every side branch of the fixture's sessions (for the match page of the two clubs and
    staff), each with its session."""
    sessions = ScoringSession.objects.filter(fixture_id=fixture_id, side_branches__isnull=False).distinct()
    return [
        {**branch, "session": session.id}
        for session in sessions.order_by("created_at")
        for branch in side_branches_of(session)
    ]

"""Live scoring sessions: start, choose the dice, undo, confirm at full time, abandon.

A tap's events are posted through scoring.taps (one read and one compare-and-set write, no
lock). Choosing the dice, undoing, confirming and abandoning lock the session row. The unique
constraints on (session, client_id) and on (session, seq) of live events are the last line of
defence. The engine state is rebuilt from the stored events (scoring.session_engine keeps a
per-process copy keyed by (seq, client id of the last event)); the client's idea of the state is
never used.

At full time the session becomes a result submission through matches.services (the log attached,
score and cards derived from it). When members of both clubs entered events, each side confirms
on its own device and the second confirmation is the opponent's confirmation of the results
workflow; otherwise the usual confirm/dispute on the match page follows. A level knockout tie's
shoot-out score is given by both confirmations and must agree (session_confirm).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from kernel.errors import ApplicationError, Conflict, NotFound, PermissionDenied
from matches import services as results
from matches.log_fixture import fixture_header
from matches.services.log_checks import submission_validate
from notifications import kinds, outbox
from scoring import dice, held, quotas, session_engine
from scoring.models import ScoringEvent, ScoringSession
from scoring.selectors import (
    cache_key,
    hold_key,
    match_of,
    participants,
    scored_log,
    shootout_needed,
    stale_head,
)
from tournaments.bracket import Score
from tournaments.game_systems import rules_of
from tournaments.models import Fixture, Team

RECENT_EVENTS = 12


def writer_side(
    user: User,
    fixture: Fixture,
    *,
    staff_ok: bool = True,
    membership: tuple[bool, bool] | None = None,
) -> str:
    """The writer's club in the fixture: "home"/"away" ("home" for a member of both), "" for staff.
    ``membership`` (member of the home club, of the away club) when the caller already read it."""
    if membership is None:
        membership = (False, False)
        if user.is_authenticated:
            # one query (tournaments.selectors.user_club_team_ids asks per team)
            sides = set(
                Team.objects.filter(
                    id__in=[fixture.home_team_id, fixture.away_team_id], club__members=user
                ).values_list("id", flat=True)
            )
            membership = (fixture.home_team_id in sides, fixture.away_team_id in sides)
    return side_of(user, membership, staff_ok=staff_ok, label=lambda: str(fixture))


def side_of(user: User, membership: tuple[bool, bool], *, staff_ok: bool, label: Callable[[], str]) -> str:
    home, away = membership
    if home:
        return "home"
    if away:
        return "away"
    # Staff score for a club only with the permission the admin asks to change a fixture
    # (is_staff alone is not enough, as for the API's other staff actions).
    if staff_ok and user.is_staff and user.has_perm("tournaments.change_fixture"):
        return ""
    raise PermissionDenied(
        f"{label()}: only members of the two clubs (and staff who may change fixtures) may score this match."
    )


def _lock(session_id: int) -> ScoringSession:
    """The session row, locked, with its fixture and the fixture's teams and competition."""
    qs = ScoringSession.objects.select_for_update(of=("self",)).select_related(
        "fixture", "fixture__home_team", "fixture__away_team", "fixture__competition"
    )
    try:
        return qs.get(id=session_id)
    except ScoringSession.DoesNotExist:
        raise NotFound(f"No scoring session {session_id}.") from None


def _recent(session: ScoringSession) -> list[dict[str, Any]]:
    return [
        dict(row)
        for row in ScoringEvent.objects.filter(session=session, undone_at__isnull=True)
        .order_by("-seq")
        .values("seq", "client_id", "data", "side", "rolled_by_app", "rolled_offline")[:RECENT_EVENTS]
    ]


def _changed(session: ScoringSession, fields: list[str], match: Any | None = None) -> None:
    """Save the session with a new version (the live endpoints' ETag) and keep the engine state
    for the next request."""
    session.version += 1
    session.updated_at = timezone.now()
    # An UPDATE of just these columns (Model.save costs twice as much on every tap; the session
    # has no save() override or signal to skip).
    ScoringSession.objects.filter(pk=session.pk).update(
        **{name: getattr(session, name) for name in [*fields, "version", "updated_at"]}
    )
    held.moved()  # (the live centre's version held here: scoring.held)
    if match is not None:
        session_engine.keep(session.id, cache_key(session), match)


@transaction.atomic
def session_start(*, fixture_id: int, user: User, app_dice: bool = False) -> ScoringSession:
    """Start scoring the fixture live, or resume the session already running for it (as it is:
    ``app_dice`` applies to a new session only; session_dice changes it before the first event)."""
    try:
        fixture = (
            Fixture.objects.select_for_update(of=("self",))
            .select_related("competition", "stage", "home_team", "away_team")
            .get(id=fixture_id)
        )
    except Fixture.DoesNotExist:
        raise NotFound(f"No fixture {fixture_id}.") from None
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before the match can be scored.")
    side = writer_side(user, fixture)
    running = ScoringSession.objects.filter(
        fixture=fixture, status__in=ScoringSession.ACTIVE_STATUSES
    ).first()
    if running is not None:
        return running
    if side:
        quotas.check_sessions(fixture, club_id=getattr(fixture, f"{side}_team").club_id)
    game = rules_of(fixture.competition)
    if game.engine_ruleset is None:
        raise ApplicationError(
            f"{fixture}: the live scorer plays the games of the rules engine (FUBA 3 and FUBA 2), "
            f"not {game.name}."
        )
    if fixture.status != Fixture.Status.SCHEDULED:
        raise Conflict(f"{fixture}: a match can be scored live only before its result is reported "
                       f"(now: {fixture.get_status_display()}).")  # fmt: skip
    header = fixture_header(fixture)
    header["meta"] = {"competition": fixture.competition.name, "fixture": str(fixture.id), "scorer": "live"}
    session_engine.start(header)  # refuses an illegal set-up now rather than at the first event
    session = ScoringSession.objects.create(fixture=fixture, header=header, started_by=user)
    if app_dice:
        _dice_word(session, side, user, want=True)
    outbox.fixture_event(kinds.LIVE_STARTED, fixture, key=f"live_started:{session.pk}")
    return session


def session_dice(*, session_id: int, user: User, app_dice: bool) -> ScoringSession:
    """A club's word on how the session's dice are rolled: ``app_dice`` (the app rolls every roll,
    both clubs agreeing) or dice rolled at the table and typed in. Before the first event one
    club's choice stands at once and the other club agrees or says no; from the first event the
    mode changes only when both clubs say so (scoring.dice has the rules). Every word is on the
    session's record with the club, the member and the time; a repeat changes nothing."""
    with transaction.atomic():
        session = _lock(session_id)
        side = writer_side(user, session.fixture)
        if session.status != ScoringSession.Status.LIVE:
            raise Conflict(f"The session is {session.get_status_display().lower()}; the dice are settled.")
        _dice_word(session, side, user, want=app_dice)
    return session


def _dice_word(session: ScoringSession, side: str, user: User, *, want: bool) -> None:
    """Record a club's word on the dice and apply what it decides (the session row locked or new)."""
    if not side:
        raise PermissionDenied("The two clubs choose how the dice are rolled; staff do not.")
    decided = dice.decide(
        session.dice_record, app_dice=session.app_dice, seq=session.seq, side=side, want=want
    )
    if decided is None:
        return
    what, mode = decided
    now = timezone.now()
    entry = dice.entry(what, want if what == "asked" else mode, side, user, seq=session.seq, at=now)
    session.dice_record = [*session.dice_record, entry]
    fields = ["dice_record"]
    if mode != session.app_dice:
        session.app_dice, session.app_dice_by, session.app_dice_at = mode, user, now
        fields += ["app_dice", "app_dice_by", "app_dice_at"]
    _changed(session, fields)


def event_undo(
    *, session_id: int, user: User, after: str, after_seq: int, reason: str = ""
) -> tuple[ScoringSession, bool]:
    """Take back the stored head, named by ``after`` (its client id) and ``after_seq``; it stays
    stored as undone. (session, whether it was undone now): a resend of an undo already made
    (``after`` undone, the head the event before it) changes nothing; an undo of anything but the
    head is refused whole (409 stale_head with what the store holds since ``after``)."""
    with transaction.atomic():
        session = _lock(session_id)
        writer_side(user, session.fixture)
        if session.status not in ScoringSession.ACTIVE_STATUSES:
            raise Conflict(f"The session is {session.get_status_display().lower()}; nothing can be undone.")
        if not after and session.seq == 0:
            raise Conflict("There is no event to undo.")
        if after != session.head or after_seq != session.seq:
            undone = ScoringEvent.objects.filter(
                session=session, client_id=after, undone_at__isnull=False
            ).first()
            if undone is not None and undone.seq == session.seq + 1:
                return session, False
            raise stale_head(session, after=after, after_seq=after_seq)
        last = ScoringEvent.objects.get(session=session, seq=session.seq, undone_at__isnull=True)
        last.undone_at = timezone.now()
        last.undone_by = user if user.is_authenticated else None
        last.undo_reason = reason.strip()[:200]
        last.save(update_fields=["undone_at", "undone_by", "undo_reason"])
        session.last_undo = {
            "seq": last.seq,
            "event": last.data,
            "reason": last.undo_reason,
            "at": last.undone_at.isoformat(),
        }
        session.seq -= 1
        session.head = (
            ScoringEvent.objects.filter(session=session, seq=session.seq, undone_at__isnull=True)
            .values_list("client_id", flat=True)
            .first()
            or ""
        )
        session.recent = _recent(session)
        session.status = ScoringSession.Status.LIVE
        session.home_confirmed_by = None
        session.away_confirmed_by = None
        # a shoot-out score belongs to the full time it was given at
        session.shootout_home = session.shootout_away = session.shootout_by = None
        session.shootout_side = ""
        session_engine.forget(session.id)
        _changed(
            session,
            [
                "seq", "head", "recent", "status", "home_confirmed_by", "away_confirmed_by", "last_undo",
                "shootout_home", "shootout_away", "shootout_side", "shootout_by",
            ],
        )  # fmt: skip
    return session, True


def session_confirm(
    *,
    session_id: int,
    user: User,
    home_penalties: int | None = None,
    away_penalties: int | None = None,
) -> ScoringSession:
    """A club confirms the final whistle's result on its own device ("finish").

    The first confirmation submits the result with the log; when both clubs took part in the
    scoring, the other club's confirmation then counts the result (the results workflow's
    opponent confirmation, audited), with no separate step on the match page.

    A level knockout tie (I-38, I-42): every confirmation gives the shoot-out score. When both
    clubs scored, the first club's score is stored with who gave it and shown to the other club;
    the other club's confirmation must give the same score (409 naming both, nothing stored), and
    until then the first club may correct its own by confirming again (docs/scorer.md)."""
    with transaction.atomic():
        session = _lock(session_id)
        fixture = session.fixture
        side = writer_side(user, fixture, staff_ok=False)
        if session.status == ScoringSession.Status.SUBMITTED and getattr(session, f"{side}_confirmed_by_id"):
            return session
        if session.status != ScoringSession.Status.FULL_TIME:
            raise Conflict(f"The session is {session.get_status_display().lower()}: confirm at full time.")
        match = match_of(session)
        derived = session_engine.result(match)
        session_engine.keep(session.id, cache_key(session), match)
        score = _confirmed_score(session, derived, home_penalties, away_penalties)
        other = "away" if side == "home" else "home"
        both = participants(session) == {"home", "away"}
        first = getattr(session, f"{other}_confirmed_by") if both else None
        if first is not None:
            _same_shootout(session, score)
        fields = _confirmation(session, side, user, score, replaces=first is None)
        if both and first is None:
            if fields:
                _changed(session, fields)  # waiting for the other club
            return session
        cards = results.cards_from_derived(derived)
        _submit(session, submitter=first or user, confirmer=user if both else None, score=score, cards=cards)
        _changed(session, [*fields, "submission", "status", "dice_record"])
    return session


def _confirmed_score(
    session: ScoringSession,
    derived: Mapping[str, Any],
    home_penalties: int | None,
    away_penalties: int | None,
) -> Score:
    """The result a club confirms: the score the log gives and, for a tie still level, the
    shoot-out the club gives (400 naming the missing field; checked as a submission would be)."""
    fixture = session.fixture
    score = Score(
        int(derived["score"]["home"]),
        int(derived["score"]["away"]),
        extra_time=bool(derived.get("extra_time")),
        home_penalties=home_penalties,
        away_penalties=away_penalties,
    )
    needed = shootout_needed(fixture, score.home_goals, score.away_goals)
    given = {"home_penalties": home_penalties, "away_penalties": away_penalties}
    missing = [name for name, value in given.items() if value is None]
    if needed and missing:
        raise ApplicationError(
            f"{fixture}: the tie is level after {'extra time' if score.extra_time else '90 minutes'}: "
            f"give the penalty shoot-out score ({' and '.join(missing)}) when you confirm.",
            details={name: ["The tie is level: give the penalty shoot-out score."] for name in missing},
        )
    if needed or len(missing) < 2:
        results.result_score_check(fixture=fixture, score=score)
    return score


def _same_shootout(session: ScoringSession, score: Score) -> None:
    """The second club's confirmation must give the shoot-out score the first club gave: a
    confirmation never overwrites the other club's word."""
    stored = (session.shootout_home, session.shootout_away)
    given = (score.home_penalties, score.away_penalties)
    if session.shootout_home is None or stored == given:
        return
    home, away, by = (_team(session, side) for side in ("home", "away", session.shootout_side))
    raise Conflict(
        f"{by} confirmed the penalty shoot-out as {home} {stored[0]}–{stored[1]} {away}; you gave "
        f"{home} {given[0]}–{given[1]} {away}. Both clubs must confirm the same score: confirm "
        f"{stored[0]}–{stored[1]}, or {by} confirms again with the score you agree on.",
        code="shootout_mismatch",
        details={
            "shootout": {
                "confirmed": {"home_penalties": stored[0], "away_penalties": stored[1]},
                "confirmed_by": session.shootout_side,
                "given": {"home_penalties": given[0], "away_penalties": given[1]},
            }
        },
    )


def _confirmation(
    session: ScoringSession, side: str, user: User, score: Score, *, replaces: bool
) -> list[str]:
    """Record the club's confirmation and the shoot-out score it gives; the fields changed.
    ``replaces``: the other club has not confirmed yet, so a club confirming again with another
    shoot-out score corrects its own (and its confirmation is now that member's)."""
    fields = []
    given = (score.home_penalties, score.away_penalties)
    stored = (session.shootout_home, session.shootout_away)
    correction = replaces and given != stored and getattr(session, f"{side}_confirmed_by_id") is not None
    if getattr(session, f"{side}_confirmed_by_id") is None or correction:
        setattr(session, f"{side}_confirmed_by", user)
        fields.append(f"{side}_confirmed_by")
    if score.home_penalties is not None and (replaces or session.shootout_home is None) and given != stored:
        session.shootout_home, session.shootout_away = given
        session.shootout_side = side
        session.shootout_by = user
        fields += ["shootout_home", "shootout_away", "shootout_side", "shootout_by"]
    return fields


def _submit(
    session: ScoringSession, *, submitter: User, confirmer: User | None, score: Score, cards: list[Any]
) -> None:
    """Submit the session's result with its log (by the first club to confirm) and, when both
    clubs scored, count it with the other club's confirmation."""
    fixture = session.fixture
    if dice.unanswered(session.dice_record, app_dice=session.app_dice):
        _dice_alone(session)
    submission = results.result_submit(
        fixture_id=fixture.id,
        user=submitter,
        score=score,
        cards=cards,
        turn_log=scored_log(session),
        hold_key=hold_key(session.id),
    ).submission
    # The engine judged every event as it was entered: validate now rather than in the
    # background, so the other club's confirmation can count the result at once. The claim
    # token is the session's; the task enqueued on commit finds the submission validated
    # and claims nothing.
    submission_validate(submission_id=submission.id, task_id=f"scoring-session-{session.id}")
    submission.refresh_from_db()
    session.submission = submission
    if submission.validation_status != submission.Validation.VALID:
        raise Conflict(
            "The scored log was refused: "
            + "; ".join(str(e.get("reason")) for e in submission.validation_errors),
            details={"errors": submission.validation_errors},
        )
    if confirmer is not None:
        results.result_confirm(fixture_id=fixture.id, user=confirmer, note=_confirm_note(session))
        submission.refresh_from_db()
    session.status = ScoringSession.Status.SUBMITTED


def _dice_alone(session: ScoringSession) -> None:
    """App dice on one club's word at submission: on record that its choice stands alone."""
    chosen = dice.standing(session.dice_record).chosen or {}
    side = str(chosen.get("side", ""))
    other = "away" if side == "home" else "home"
    alone = dice.entry("alone", True, side, None, seq=session.seq, at=timezone.now())
    alone["others_scored"] = other in participants(session)
    session.dice_record = [*session.dice_record, alone]


def _confirm_note(session: ScoringSession) -> str:
    """The audit note of the other club's confirmation: where it was given and, for a shoot-out,
    the score and who gave it."""
    names = {side: _team(session, side) for side in ("home", "away")}
    mode = dice.summary(session.dice_record, app_dice=session.app_dice, names=names)
    note = f"both clubs confirmed the live-scored match (scoring session {session.id})"
    note += f"; {mode[0].lower()}{mode[1:]}"
    if session.shootout_home is None:
        return note
    other = "away" if session.shootout_side == "home" else "home"
    by = session.shootout_by.get_username() if session.shootout_by is not None else "?"
    return (
        f"{note}; penalty shoot-out {_team(session, 'home')} {session.shootout_home}–"
        f"{session.shootout_away} {_team(session, 'away')} given by {_team(session, session.shootout_side)} "
        f"({by}), the same score confirmed by {_team(session, other)}"
    )


def _team(session: ScoringSession, side: str) -> str:
    """The name of the fixture's team on ``side`` (both are known once a session runs)."""
    return str(getattr(session.fixture, f"{side}_team").name)


def session_abandon(*, session_id: int, user: User, reason: str) -> ScoringSession:
    """Stop scoring; the session and its events stay as a record, the fixture is free again."""
    if not reason.strip():
        raise ApplicationError("Say why the session is abandoned.")
    with transaction.atomic():
        session = _lock(session_id)
        writer_side(user, session.fixture)
        if session.status not in ScoringSession.ACTIVE_STATUSES:
            raise Conflict(f"The session is {session.get_status_display().lower()} and cannot be abandoned.")
        session.status = ScoringSession.Status.ABANDONED
        session.abandoned_by = user
        session.abandon_reason = reason.strip()
        session_engine.forget(session.id)
        _changed(session, ["status", "abandoned_by", "abandon_reason"])
    return session

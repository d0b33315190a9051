"""The clubs' side of the results workflow: a club submits (the turn log queued for validation), the
opponent confirms or disputes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Sum
from django.utils import timezone

from kernel.errors import ApplicationError, Conflict, PermissionDenied
from matches.holds import hold_of
from matches.log_fixture import check_log_fixture
from matches.models import MatchLog, Result, ResultAudit, ResultSubmission
from matches.services.recording import apply_skill_changes, write_result
from matches.services.shared import (
    FUBA_3_LOG_FORMAT,
    CardInput,
    audit,
    cards_as_json,
    cards_from_json,
    check_score,
    checked_result,
    lock_fixture,
    open_submission,
    snapshot,
    submission_snapshot,
)
from matches.turn_logs import turn_log_size_check

# Imported here (not lazily) so a worker that loads the services registers the task as well.
from tournaments.bracket import Score
from tournaments.game_systems import rules_of
from tournaments.models import Fixture, Team
from tournaments.selectors import user_club_team_ids


class LogQuotaExceeded(ApplicationError):
    status_code = 429
    code = "storage_quota_exceeded"


def _reporting_sides(fixture: Fixture, user: User, hold_key: str) -> set[int]:
    """The user's teams in the fixture, once the fixture is one that takes a club's report now."""
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before a result can be submitted.")
    sides = user_club_team_ids(user=user, fixture=fixture)
    if not sides:
        raise PermissionDenied(f"{fixture}: only a member of one of the two clubs can submit its result.")
    hold = hold_of(fixture.id)
    if hold is not None and hold.key != hold_key:
        raise Conflict(f"{fixture}: {hold.message}", details=dict(hold.details))
    if fixture.status in Fixture.COUNTED_STATUSES:
        raise Conflict(f"{fixture}: the result already counts ({fixture.get_status_display()}).")
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated after its deadline.")
    if fixture.status == Fixture.Status.DISPUTED:
        raise Conflict(f"{fixture}: the result is disputed; an administrator resolves it.")
    if fixture.status == Fixture.Status.VOID:
        raise Conflict(f"{fixture}: the organisers voided this match; it takes no result.")
    return sides


@dataclass
class Submitted:
    """What result_submit did: the submission, whether it was the same report sent again (the
    stored one is returned unchanged) and whether its log's validation was queued (None until the
    transaction commits; False: the task queue was down, the sweep queues it later)."""

    submission: ResultSubmission
    resent: bool = False
    validation_queued: bool | None = None


@transaction.atomic
def result_submit(
    *,
    fixture_id: int,
    user: User,
    score: Score,
    cards: Sequence[Mapping[str, Any] | CardInput] = (),
    turn_log: Mapping[str, Any] | None = None,
    log_format: str = FUBA_3_LOG_FORMAT,
    replace: bool = False,
    hold_key: str = "",
) -> Submitted:
    """A club in the fixture reports its result; the opponent then confirms or disputes it.

    While its report waits for the opponent, the club may replace it, but only by saying so
    (``replace``): a second report by mistake is refused. The replaced report stays in the history.
    While the match is scored live, only the session reports it (it passes its ``hold_key``):
    a report typed by hand is refused (matches.holds).
    """
    fixture = lock_fixture(fixture_id)
    sides = _reporting_sides(fixture, user, hold_key)
    score, parsed = checked_result(fixture, score, cards)
    if turn_log is not None and not isinstance(turn_log, Mapping):
        raise ApplicationError(f"{fixture}: the turn log must be a JSON object.")
    previous = open_submission(fixture)
    team_id = next(iter(sides)) if len(sides) == 1 else fixture.home_team_id
    if team_id is None:
        raise Conflict(f"{fixture}: the teams of this fixture are not known yet.")
    team = fixture.home_team if team_id == fixture.home_team_id else fixture.away_team
    if team is None:
        raise Conflict(f"{fixture}: the teams of this fixture are not known yet.")
    if (
        previous is not None
        and not replace
        and previous.submitted_by_id == user.pk
        and _same_report(previous, score, parsed, turn_log)
    ):
        # The same report again: a client resending after a timeout (its first request may have
        # been stored, then the answer lost). It gets the stored report, not a 409.
        return Submitted(previous, resent=True)
    log_bytes = 0
    if turn_log is not None:
        log_bytes = turn_log_size_check(turn_log)
        _check_log_quota(fixture, club_id=team.club_id, log_bytes=log_bytes)
    if previous is not None:
        _supersede(
            fixture, previous, team_id=team_id, by_both_sides=len(sides) > 1, user=user, replace=replace
        )
    _drop_replaced_logs(fixture, team_id=team_id)
    return _submission_store(
        fixture, user, team, score, parsed, turn_log=turn_log, log_bytes=log_bytes, log_format=log_format
    )


def _submission_store(
    fixture: Fixture,
    user: User,
    team: Team,
    score: Score,
    parsed: Sequence[CardInput],
    *,
    turn_log: Mapping[str, Any] | None,
    log_bytes: int,
    log_format: str,
) -> Submitted:
    """Store the report (its log checked against the fixture when the engine validates it), queue
    the validation after commit and mark the fixture submitted, with the audit trail."""
    needs_validation = turn_log is not None and rules_of(fixture.competition).engine_backed
    if needs_validation:
        # the log must be a record of this fixture, whatever its source
        check_log_fixture(fixture, turn_log)
    submission = ResultSubmission.objects.create(
        fixture=fixture,
        submitted_by=user,
        club_id=team.club_id,
        team_id=team.pk,
        log_bytes=log_bytes,
        home_goals=score.home_goals,
        away_goals=score.away_goals,
        extra_time=bool(score.extra_time),
        home_penalties=score.home_penalties,
        away_penalties=score.away_penalties,
        cards=cards_as_json(parsed),
        validation_status=(
            ResultSubmission.Validation.PENDING
            if needs_validation
            else ResultSubmission.Validation.NOT_REQUIRED
        ),
    )
    submitted = Submitted(submission)
    if needs_validation:
        _on_commit_enqueue_validation(submitted)
    if turn_log is not None:
        MatchLog.objects.create(
            fixture=fixture,
            submission=submission,
            format=str(turn_log.get("format") or log_format)[:40],
            data=dict(turn_log),
            is_simulated=False,
        )
    before = {"status": fixture.status}
    fixture.status = Fixture.Status.SUBMITTED
    fixture.save(update_fields=["status", "updated_at"])
    audit(fixture, ResultAudit.Action.SUBMIT, user, before, submission_snapshot(submission))
    return submitted


def _supersede(
    fixture: Fixture,
    previous: ResultSubmission,
    *,
    team_id: int,
    by_both_sides: bool,
    user: User,
    replace: bool,
) -> None:
    """The club's open report gives way to the new one, when the club asked for that (``replace``)."""
    if previous.team_id != team_id or (by_both_sides and previous.submitted_by_id != user.pk):
        raise Conflict(
            f"{fixture}: the other side already submitted {previous.home_goals}-{previous.away_goals}; "
            "confirm or dispute it."
        )
    if not replace:
        raise Conflict(
            f"{fixture}: your club already reported {previous.home_goals}-{previous.away_goals}, "
            "waiting for the opponent. Replace that report explicitly (replace: true; on the match "
            "page, “Replace my report”); the earlier one stays in the history.",
            details={"submission": previous.pk, "replace": ["required to replace your report"]},
        )
    previous.status = ResultSubmission.Status.SUPERSEDED
    previous.save(update_fields=["status", "updated_at"])


def _check_log_quota(fixture: Fixture, *, club_id: int | None, log_bytes: int) -> None:
    """A club stores at most CLUB_LOG_QUOTA_BYTES of turn logs per 24 hours."""
    if club_id is None:
        return  # a team without a club has no member who could submit
    since = timezone.now() - timedelta(hours=24)
    used = (
        ResultSubmission.objects.filter(club_id=club_id, created_at__gte=since).aggregate(
            total=Sum("log_bytes")
        )["total"]
        or 0
    )
    quota = settings.CLUB_LOG_QUOTA_BYTES
    if used + log_bytes > quota:
        raise LogQuotaExceeded(
            f"{fixture}: your club sent {used:,} bytes of turn logs in the last 24 hours; this log "
            f"({log_bytes:,} bytes) would pass the daily quota of {quota:,} bytes. Try again later, "
            "or submit the score without the log.",
            details={"field": "turn_log", "used_bytes": used, "bytes": log_bytes, "quota_bytes": quota},
        )


def _drop_replaced_logs(fixture: Fixture, *, team_id: int) -> None:
    """A new submission replaces the side's earlier ones: only the latest keeps its turn log.

    Their validation, if still to come, is moot (no log: ``not_required``); the scores, the
    verdicts already given and the audit trail stay.
    """
    replaced = ResultSubmission.objects.filter(
        fixture=fixture,
        team_id=team_id,
        status__in=[ResultSubmission.Status.SUPERSEDED, ResultSubmission.Status.REJECTED],
    )
    MatchLog.objects.filter(submission__in=replaced).delete()
    replaced.filter(
        validation_status__in=[ResultSubmission.Validation.PENDING, ResultSubmission.Validation.VALIDATING]
    ).update(validation_status=ResultSubmission.Validation.NOT_REQUIRED)


def _same_report(
    previous: ResultSubmission, score: Score, cards: Sequence[CardInput], turn_log: Mapping[str, Any] | None
) -> bool:
    """Whether a new report says exactly what the club's open one says: the score, and the turn
    log it sent (whose cards replace the typed ones once valid) or, without a log, the cards."""
    if (
        previous.home_goals,
        previous.away_goals,
        previous.extra_time,
        previous.home_penalties,
        previous.away_penalties,
    ) != (
        score.home_goals,
        score.away_goals,
        bool(score.extra_time),
        score.home_penalties,
        score.away_penalties,
    ):
        return False
    stored = MatchLog.objects.filter(submission=previous).values_list("data", flat=True).first()
    if turn_log is not None or stored is not None:
        return stored == (dict(turn_log) if turn_log is not None else None)
    return bool(previous.cards == cards_as_json(cards))


def _on_commit_enqueue_validation(submitted: Submitted) -> None:
    """Queue the log's validation after commit, whatever other commit hooks do.

    Registered before the fixture is saved, so it runs before the standings-cache hooks that the
    save adds, and robust, so a failure of its own is logged and the hooks behind it still run.
    enqueue_validation never raises either: a broker that is down leaves the submission pending
    for the sweep (docs/reliability.md).
    """

    def enqueue() -> None:
        from matches.validation_tasks import enqueue_validation

        submitted.validation_queued = enqueue_validation(submitted.submission.id)

    transaction.on_commit(enqueue, robust=True)


def result_score_check(*, fixture: Fixture, score: Score) -> None:
    """Refuse a score this fixture cannot take, as result_submit would, without submitting it: the
    live scorer checks the shoot-out score a club gives when it confirms (I-38, I-42), before the
    other club's confirmation submits the result."""
    check_score(fixture, score)


@transaction.atomic
def result_confirm(*, fixture_id: int, user: User, note: str = "") -> Result:
    """The opponent accepts the submitted result; from now on it counts. ``note`` goes to the audit
    trail (e.g. the confirmation was given in the live scorer)."""
    fixture = lock_fixture(fixture_id)
    if fixture.status == Fixture.Status.SIMULATING:
        # docs/forfeits.md: once a forfeit simulation holds the fixture, the clubs are told so.
        raise Conflict(f"{fixture}: the match is being simulated after its deadline or a forfeit.")
    submission = open_submission(fixture)
    if submission is None or fixture.status != Fixture.Status.SUBMITTED:
        raise Conflict(f"{fixture}: there is no submitted result to confirm.")
    sides = user_club_team_ids(user=user, fixture=fixture)
    opponent = fixture.away_team_id if submission.team_id == fixture.home_team_id else fixture.home_team_id
    if opponent not in sides or submission.submitted_by_id == user.pk:
        raise PermissionDenied(f"{fixture}: only the opponent of the submitting club can confirm the result.")
    if submission.validation_status in (
        ResultSubmission.Validation.PENDING,
        ResultSubmission.Validation.VALIDATING,
    ):
        raise Conflict(f"{fixture}: the turn log is still being validated; try again shortly.")
    if submission.validation_status == ResultSubmission.Validation.INVALID:
        raise Conflict(f"{fixture}: the turn log was rejected by the rules engine; submit again.")
    before = snapshot(fixture)
    submission.status = ResultSubmission.Status.ACCEPTED
    submission.save(update_fields=["status", "updated_at"])
    result = write_result(
        fixture,
        score=Score(
            submission.home_goals,
            submission.away_goals,
            submission.extra_time,
            submission.home_penalties,
            submission.away_penalties,
        ),
        cards=cards_from_json(submission.cards),
        source=Result.Source.CLUBS,
        status=Fixture.Status.CONFIRMED,
        actor=user,
        submission=submission,
    )
    apply_skill_changes(fixture, submission.derived_result)
    audit(fixture, ResultAudit.Action.CONFIRM, user, before, snapshot(fixture), note=note)
    return result


@transaction.atomic
def result_dispute(
    *, fixture_id: int, user: User, reason: str, cards: Sequence[int] = ()
) -> ResultSubmission:
    """The opponent rejects the submitted result; an administrator will resolve it.

    ``cards`` names the reported card lines (indexes into the submission's cards) that are wrong.
    """
    fixture = lock_fixture(fixture_id)
    submission = open_submission(fixture)
    if submission is None or fixture.status != Fixture.Status.SUBMITTED:
        raise Conflict(f"{fixture}: there is no submitted result to dispute.")
    sides = user_club_team_ids(user=user, fixture=fixture)
    opponent = fixture.away_team_id if submission.team_id == fixture.home_team_id else fixture.home_team_id
    if opponent not in sides or submission.submitted_by_id == user.pk:
        raise PermissionDenied(f"{fixture}: only the opponent of the submitting club can dispute the result.")
    if not reason.strip():
        raise ApplicationError(f"{fixture}: say why the result is disputed.")
    lines = sorted(set(cards))
    for line in lines:
        if isinstance(line, bool) or not isinstance(line, int) or not 0 <= line < len(submission.cards):
            raise ApplicationError(
                f"{fixture}: card line {line!r} does not exist; the submission reports "
                f"{len(submission.cards)} card(s), numbered from 0.",
                details={"cards": [f"no card line {line!r}"]},
            )
    before = submission_snapshot(submission)
    submission.status = ResultSubmission.Status.DISPUTED
    submission.dispute_reason = reason.strip()
    submission.disputed_cards = lines
    submission.disputed_by = user
    submission.save(update_fields=["status", "dispute_reason", "disputed_cards", "disputed_by", "updated_at"])
    fixture.status = Fixture.Status.DISPUTED
    fixture.save(update_fields=["status", "updated_at"])
    audit(fixture, ResultAudit.Action.DISPUTE, user, before, submission_snapshot(submission), note=reason)
    return submission

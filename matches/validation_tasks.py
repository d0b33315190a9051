"""Celery tasks: validate a submitted FUBA 3 turn log with the rules engine; sweep lost ones.

No submission is left unvalidated (docs/reliability.md):

- matches.services.result_submit queues the task with a robust ``transaction.on_commit`` hook
  registered before any other hook of the submission (a failing standings-cache hook cannot
  stop it); when the broker is down the submission stays ``pending`` and the API says so (202);
- the task claims the submission with a conditional UPDATE (pending → validating) that stores
  its Celery task id, as the forfeit claims do: a duplicate task (another id) finds the claim held
  and does nothing; the same task redelivered after its worker died (acks_late) finds its own id
  and carries on; a claim older than VALIDATION_CLAIM_TIMEOUT (longer than the hard time limit,
  so its holder cannot still be running) is taken over by whichever task comes next;
- the verdict is stored only while the claim is still the task's own, so of two runs exactly one
  records it;
- the beat job ``validations_sweep`` queues again every submission still ``pending`` after
  VALIDATION_REQUEUE_AFTER and every stale ``validating`` claim.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import OperationalError
from django.db.models import F, Q
from django.utils import timezone

from kernel.broker import publish
from matches import engine_door
from matches.models import ResultSubmission
from tournaments.models import Fixture
from tournaments.selectors import fixture_players_short
from tournaments.skills import log_skill_errors

logger = logging.getLogger(__name__)


def claim_timeout() -> timedelta:
    return timedelta(seconds=settings.VALIDATION_CLAIM_TIMEOUT)


def enqueue_validation(submission_id: int) -> bool:
    """Queue the validation task; False (logged, counted in /healthz) when the broker refuses or
    does not answer in time (kernel.broker): the sweep queues it later."""
    return publish(submission_log_validate, (submission_id,))


def lineup_errors(log: Any, players_short: dict[str, int]) -> list[dict[str, Any]]:
    """FUBA: a team serving a suspension starts one player short — the log's header must say so."""
    teams = log.get("teams") if isinstance(log, dict) else None
    if not isinstance(teams, dict):
        return []
    errors = []
    for side, expected in players_short.items():
        header = teams.get(side)
        declared = header.get("players_short", 0) if isinstance(header, dict) else 0
        if declared != min(expected, 1):
            errors.append(
                {
                    "turn": None,
                    "stage": None,
                    "rule": "suspension",
                    "path": f"$.teams.{side}.players_short",
                    "reason": (
                        f"the {side} team serves a suspension in this fixture and starts one player short "
                        f"(players_short 1), the log says {declared}"
                        if expected
                        else f"the {side} team serves no suspension here, "
                        f"the log says players_short {declared}"
                    ),
                }
            )
    return errors


def roster_errors(fixture: Fixture, log: Any) -> list[dict[str, Any]]:
    """The log's skills must come from the team's roster and respect the competition's limit."""
    teams = log.get("teams") if isinstance(log, dict) else None
    if not isinstance(teams, dict):
        return []
    errors: list[dict[str, Any]] = []
    for side, team in (("home", fixture.home_team), ("away", fixture.away_team)):
        header = teams.get(side)
        codes = header.get("skills") if isinstance(header, dict) else None
        if team is not None and isinstance(codes, list):
            errors += log_skill_errors(fixture=fixture, team=team, side=side, codes=[str(c) for c in codes])
    return errors


def run_rules_engine(log: Any) -> tuple[bool, list[dict[str, Any]], dict[str, Any] | None]:
    """Call the rules engine; returns (valid, errors, derived result with a [home, away] 'final_score')."""
    report = engine_door.validate_log(log)
    errors = [engine_door.error_summary(e) for e in report.errors]
    if report.result is None:
        return report.valid, errors, None
    derived = report.result.to_dict()
    derived["final_score"] = list(report.result.score)
    return report.valid, errors, derived


def _claim(*, submission_id: int, task_id: str, now: datetime) -> bool:
    own = Q(validation_task_id=task_id) if task_id else Q(pk__in=[])
    stale = Q(validation_claimed_at__isnull=True) | Q(validation_claimed_at__lt=now - claim_timeout())
    return bool(
        ResultSubmission.objects.filter(id=submission_id)
        .filter(
            Q(validation_status=ResultSubmission.Validation.PENDING)
            | (Q(validation_status=ResultSubmission.Validation.VALIDATING) & (own | stale))
        )
        .update(
            validation_status=ResultSubmission.Validation.VALIDATING,
            validation_task_id=task_id,
            validation_claimed_at=now,
            validation_attempts=F("validation_attempts") + 1,
            updated_at=now,
        )
    )


def submission_validate(*, submission_id: int, task_id: str = "") -> str:
    """Validate one submission's log. Safe to call any number of times for the same submission."""
    from matches.services.validation import submission_validation_record

    if not _claim(submission_id=submission_id, task_id=task_id, now=timezone.now()):
        return "skipped"
    submission = ResultSubmission.objects.select_related(
        "fixture",
        "fixture__competition",
        "fixture__home_team__coach",
        "fixture__away_team__coach",
        "match_log",
    ).get(id=submission_id)
    log = submission.turn_log
    if log is None:
        return "no log"  # replaced in the meantime: its log went with it (docs/reliability.md)
    fixture = submission.fixture
    short = {
        "home": fixture_players_short(fixture=fixture, team=fixture.home_team),  # type: ignore[arg-type]
        "away": fixture_players_short(fixture=fixture, team=fixture.away_team),  # type: ignore[arg-type]
    }
    try:
        valid, errors, derived = run_rules_engine(log)
        errors += lineup_errors(log, short)
        errors += roster_errors(fixture, log)
        valid = valid and not errors
    except Exception as exc:
        logger.exception("rules engine failed on submission %s", submission_id)
        valid, errors, derived = (
            False,
            [{"turn": None, "stage": None, "rule": "engine", "reason": str(exc)}],
            None,
        )
    recorded = submission_validation_record(
        submission_id=submission_id, engine_valid=valid, errors=errors, derived=derived, task_id=task_id
    )
    if recorded.validation_task_id != task_id or recorded.validation_status not in (
        ResultSubmission.Validation.VALID,
        ResultSubmission.Validation.INVALID,
    ):
        return "not recorded"  # the claim was taken over, or the submission replaced meanwhile
    return recorded.validation_status


@shared_task(
    bind=True,
    name="matches.submission_log_validate",
    ignore_result=True,
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
)
def submission_log_validate(self, submission_id: int) -> str:  # type: ignore[no-untyped-def]
    # The task id is the claim token: a redelivered message keeps it, a duplicate has its own.
    return submission_validate(submission_id=submission_id, task_id=self.request.id or "")


def validations_sweep(*, now: datetime | None = None) -> list[int]:
    """The beat job: queue again what waits too long for its validation (docs/reliability.md)."""
    now = now or timezone.now()
    requeue_after = timedelta(seconds=settings.VALIDATION_REQUEUE_AFTER)
    due = (
        ResultSubmission.objects.filter(
            Q(validation_status=ResultSubmission.Validation.PENDING, updated_at__lt=now - requeue_after)
            | Q(
                validation_status=ResultSubmission.Validation.VALIDATING,
                validation_claimed_at__lt=now - claim_timeout(),
            )
            | Q(
                validation_status=ResultSubmission.Validation.VALIDATING,
                validation_claimed_at__isnull=True,
                updated_at__lt=now - claim_timeout(),
            )
        )
        .order_by("id")
        .values_list("id", flat=True)
    )
    queued = []
    for submission_id in due:
        if not enqueue_validation(submission_id):
            break  # the broker is still down: the next sweep tries again
        # Touched so that the next sweep waits a whole interval again (one message per interval).
        ResultSubmission.objects.filter(
            id=submission_id, validation_status=ResultSubmission.Validation.PENDING
        ).update(updated_at=now)
        queued.append(submission_id)
    if queued:
        logger.info("validation sweep queued submissions %s", queued)
    return queued


@shared_task(name="matches.validations_sweep", acks_late=True, ignore_result=True)
def validations_sweep_task() -> int:
    return len(validations_sweep())

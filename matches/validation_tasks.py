"""Celery tasks: validate a submitted FUBA 3 turn log; sweep lost ones.

The checks and the claim are the service matches.services.log_checks (the live scorer calls it
too); these tasks only run it.

No submission is left unvalidated (docs/reliability.md):

- matches.services.result_submit queues the task with a robust ``transaction.on_commit`` hook
  registered before any other hook of the submission (a failing standings-cache hook cannot
  stop it); when the broker is down the submission stays ``pending`` and the API says so (202);
- the task claims the submission (through the service) with a conditional UPDATE (pending →
  validating) that stores its Celery task id, as the forfeit claims do: a duplicate task (another
  id) finds the claim held and does nothing; the same task redelivered after its worker died
  (acks_late) finds its own id and carries on; a claim older than VALIDATION_CLAIM_TIMEOUT
  (longer than the hard time limit, so its holder cannot still be running) is taken over by
  whichever task comes next;
- the verdict is stored only while the claim is still the task's own, so of two runs exactly one
  records it;
- the beat job ``validations_sweep`` queues again every submission still ``pending`` after
  VALIDATION_REQUEUE_AFTER and every stale ``validating`` claim.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.conf import settings
from django.db import OperationalError
from django.db.models import Q
from django.utils import timezone

from kernel.broker import publish
from matches.models import ResultSubmission
from matches.services.log_checks import submission_validate, validation_claim_timeout

logger = logging.getLogger(__name__)


def enqueue_validation(submission_id: int) -> bool:
    """Queue the validation task; False (logged, counted in /healthz) when the broker refuses or
    does not answer in time (kernel.broker): the sweep queues it later."""
    return publish(submission_log_validate, (submission_id,))


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
                validation_claimed_at__lt=now - validation_claim_timeout(),
            )
            | Q(
                validation_status=ResultSubmission.Validation.VALIDATING,
                validation_claimed_at__isnull=True,
                updated_at__lt=now - validation_claim_timeout(),
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

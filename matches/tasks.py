"""Celery tasks of the matches app. Tasks take IDs and delegate to services."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from matches import forfeits


@shared_task(
    bind=True,
    name="matches.forfeit_process",
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=3,
)
def forfeit_process(self, fixture_id: int) -> str:  # type: ignore[no-untyped-def]
    # The task id is the claim token: a redelivered message keeps it, a duplicate has its own.
    return forfeits.forfeit_process(fixture_id=fixture_id, task_id=self.request.id or "")


@shared_task(name="matches.forfeits_sweep", acks_late=True)
def forfeits_sweep() -> int:
    return len(forfeits.forfeits_sweep())

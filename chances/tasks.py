"""Celery tasks of the chances: ids in, the services do the work (each step idempotent)."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache

from chances import services

DEBOUNCE_KEY = "chances:debounce:{competition_id}"


@shared_task(name="chances.pair_estimate", ignore_result=True)
def pair_estimate(job_id: int, home_key: str, away_key: str) -> bool:
    services.pair_estimate(home_key=home_key, away_key=away_key)
    return services.job_estimates_check(job_id=job_id)


@shared_task(name="chances.chunk_run", ignore_result=True)
def chunk_run(job_id: int, index: int) -> str:
    return services.chunk_run(job_id=job_id, index=index)


@shared_task(name="chances.competition_recompute", ignore_result=True)
def competition_recompute(competition_id: int) -> int | None:
    # Results counted from now on queue a new recomputation: this one reads the state as it is.
    cache.delete(DEBOUNCE_KEY.format(competition_id=competition_id))
    job = services.competition_recompute(competition_id=competition_id)
    return job.id if job is not None else None

"""Service-level tasks: a heartbeat that proves a worker (and beat) really runs."""

from __future__ import annotations

from celery import shared_task
from django.core.cache import cache
from django.utils import timezone

HEARTBEAT_KEY = "celery:heartbeat:{token}"
BEAT_KEY = "celery:heartbeat:beat"


@shared_task(name="fubaleague.heartbeat", ignore_result=True)
def heartbeat(tag: str = "beat") -> str:
    """Record when a worker last executed a task; beat schedules this every minute."""
    stamp = timezone.now().isoformat()
    key = BEAT_KEY if tag == "beat" else HEARTBEAT_KEY.format(token=tag)
    cache.set(key, stamp, timeout=24 * 3600)
    return stamp

"""Celery application: tasks are autodiscovered from each app's tasks.py (and the ones included)."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.schedules import crontab
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fubaleague.settings")

# matches.validation_tasks is not a tasks.py: named here so that every worker registers its tasks.
app = Celery("fubaleague", include=["fubaleague.tasks", "matches.validation_tasks"])
app.config_from_object("django.conf:settings", namespace="CELERY")
# A consumer that survives a broker outage while it holds unacknowledged tasks (fubaleague/worker.py).
app.conf.worker_consumer = "fubaleague.worker:Consumer"
app.steps["consumer"].add("fubaleague.worker:Heartbeat")
app.autodiscover_tasks()


@worker_process_init.connect
def _build_the_cache(**_: Any) -> None:
    # Django builds the cache backend (kernel.cache and its redis-py client: ~0.3 s of imports)
    # on first use. Built as a pool process starts, not inside its first task: the chances' merge,
    # the serial end of a job, bumps the standings' versions and would pay it there.
    from django.core.cache import caches

    caches["default"]


# Beat stores schedules in the database (django-celery-beat); entries declared here are
# synced into it at start, and admins can add or pause others in the Django admin.
app.conf.beat_schedule = {
    "heartbeat-every-minute": {"task": "fubaleague.heartbeat", "schedule": 60.0},
    # Fixtures past their deadline without a counted result are simulated (or awarded).
    "forfeits-sweep": {"task": "matches.forfeits_sweep", "schedule": 300.0},
    # Submitted turn logs whose validation was never queued (broker down) or whose claim went
    # stale (worker killed, message lost) are queued again (docs/reliability.md).
    "validations-sweep": {"task": "matches.validations_sweep", "schedule": 60.0},
    # Notifications (docs/notifications.md): events and deliveries a lost message left behind,
    # the reporting deadlines (48 h, 24 h, passed) and the daily digest.
    "notifications-sweep": {"task": "notifications.sweep", "schedule": 60.0},
    "notifications-deadlines": {"task": "notifications.deadlines", "schedule": 300.0},
    "notifications-digest": {"task": "notifications.digest", "schedule": crontab(hour=7, minute=0)},
}

"""After a counted result: one debounced recomputation of the competition's chances.

The first result saved in a window adds a cache key and queues the recomputation to run when
the window ends; results saved meanwhile find the key and queue nothing. The task removes the
key before it reads the competition, so a result counted while it runs queues the next one.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache
from django.db import transaction
from django.db.models.signals import post_delete, post_save

from chances import conf
from chances.models import ChancesJob
from chances.tasks import DEBOUNCE_KEY, competition_recompute
from kernel.broker import publish
from matches.models import Result
from matches.standings.signals import register_feed


def _result_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    if not conf.auto_recompute():
        return
    competition_id = (
        instance.fixture.competition_id if getattr(instance, "fixture", None) is not None else None
    )
    if competition_id is None:
        return
    delay = conf.debounce_seconds()
    if cache.add(DEBOUNCE_KEY.format(competition_id=competition_id), 1, timeout=delay + 300):
        transaction.on_commit(lambda: publish(competition_recompute, (competition_id,), countdown=delay))


def _shown_competition(job: ChancesJob) -> int | None:
    """The competition whose standings page shows this job's figures: a finished job that is not a
    what-if (what-ifs are answered to whoever asked, not shown on the page)."""
    return job.competition_id if job.status == ChancesJob.Status.DONE and not job.what_if else None


def connect() -> None:
    register_feed(ChancesJob, _shown_competition)
    post_save.connect(_result_changed, sender=Result, dispatch_uid="chances.result_saved")
    post_delete.connect(_result_changed, sender=Result, dispatch_uid="chances.result_deleted")

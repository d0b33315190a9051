"""The one hook into the results workflow: a result saved or deleted queues the ratings task.

A receiver on matches.Result (rather than a call in matches.services) keeps the results workflow
unaware of ratings; the task runs after the commit, when the fixture's status is final, and
decides itself whether the result is rated. A coach renamed (tournaments.announcements.names_changed)
makes the ratings' kept pages stale: they show the coaches' names.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from kernel.broker import publish
from matches.models import Result
from ratings import services
from ratings.tasks import fixture_rating_apply
from tournaments import announcements


def _queue(fixture_id: int) -> None:
    # Bounded and never an error for the request that counted the result (kernel.broker).
    transaction.on_commit(lambda: publish(fixture_rating_apply, (fixture_id,)))


def _result_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    _queue(instance.fixture_id)


def _names_changed(sender: Any, coach_id: int | None = None, **kwargs: Any) -> None:
    if coach_id is not None:
        services.names_changed()


def connect() -> None:
    post_save.connect(_result_changed, sender=Result, dispatch_uid="ratings.result_saved")
    post_delete.connect(_result_changed, sender=Result, dispatch_uid="ratings.result_deleted")
    announcements.names_changed.connect(_names_changed, dispatch_uid="ratings.names_changed")

"""The one hook into the results workflow: a result saved or deleted queues the ratings task.

A receiver on matches.Result (rather than a call in matches.services) keeps the results workflow
unaware of ratings; the task runs after the commit, when the fixture's status is final, and
decides itself whether the result is rated.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models.signals import post_delete, post_save

from kernel.broker import publish
from matches.models import Result
from ratings.tasks import fixture_rating_apply


def _queue(fixture_id: int) -> None:
    # Bounded and never an error for the request that counted the result (kernel.broker).
    transaction.on_commit(lambda: publish(fixture_rating_apply, (fixture_id,)))


def _result_changed(sender: Any, instance: Any, **kwargs: Any) -> None:
    _queue(instance.fixture_id)


def connect() -> None:
    post_save.connect(_result_changed, sender=Result, dispatch_uid="ratings.result_saved")
    post_delete.connect(_result_changed, sender=Result, dispatch_uid="ratings.result_deleted")

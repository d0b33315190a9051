"""Celery tasks of the ratings: they take ids and delegate to the services."""

from __future__ import annotations

from celery import shared_task

from ratings import services


@shared_task(name="ratings.fixture_rating_apply", ignore_result=True)
def fixture_rating_apply(fixture_id: int) -> str:
    return services.fixture_rating_apply(fixture_id=fixture_id)

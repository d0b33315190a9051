"""The public pages' task (found by Celery's autodiscovery: fubaleague.web is an installed app)."""

from __future__ import annotations

from celery import shared_task

from fubaleague.web import refresh


@shared_task(name="fubaleague.pages_refresh", ignore_result=True)
def pages_refresh(slug: str, parts: list[str]) -> None:
    """The public pages' fragments a committed change made stale, rendered and kept (refresh.py)."""
    refresh.refresh(slug, parts)

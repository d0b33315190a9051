"""The competitions' live versions as this process last read them (the live centre's document,
scoring.centre.held_version), trusted for HELD_SECONDS.

A thousand readers poll the live centre every 1.5 s: one query a poll was most of what a poll
cost (issue 35), and the document is public, kept a second by a cache in front anyway
(live_views.SHARED_SECONDS). Here, below the services, so that a write of this process forgets
at once what it moved (a tap, a session started or ended, a fixture's status); another process's
write shows within HELD_SECONDS, a counted result within HELD_SECONDS plus the shared cache's
second: 2 s.
"""

from __future__ import annotations

import time

from django.db import transaction

HELD_SECONDS = 1.0
_MAX = 256
_held: dict[str, tuple[float, tuple[int, str]]] = {}


def get(slug: str) -> tuple[int, str] | None:
    """(competition id, live version) read at most HELD_SECONDS ago, or None."""
    held = _held.get(slug)
    if held is None or time.monotonic() - held[0] >= HELD_SECONDS:
        return None
    return held[1]


def put(slug: str, found: tuple[int, str], read_at: float) -> None:
    """Hold ``found``, read from the database at ``read_at`` (time.monotonic(), taken before the
    query: a write that this process forgets while the query runs is not hidden by it)."""
    if len(_held) >= _MAX:
        _held.clear()
    if read_at >= _forgotten_at:
        _held[slug] = (read_at, found)


_forgotten_at = 0.0


def moved() -> None:
    """A write of this request moved a live version: forgotten now, for this request's next read,
    and again at the commit, for another thread's read meanwhile."""
    forget()
    transaction.on_commit(forget)


def forget(*args: object, **kwargs: object) -> None:
    """Forget every held version (a signal's receiver too: any arguments)."""
    global _forgotten_at
    _forgotten_at = time.monotonic()
    _held.clear()

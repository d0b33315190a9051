"""The live scorer's storage quota per club: sessions started in 24 hours, events posted per UTC day.

Without it a club's account could start and abandon sessions (about 3 KB each) or post and undo
events (undone ones stay on record) as fast as the API's rate limit allows, gigabytes a day.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from kernel.errors import ApplicationError
from kernel.throttling import window_count
from scoring.models import ScoringSession
from tournaments.models import Fixture


class ScorerQuotaExceeded(ApplicationError):
    status_code = 429
    code = "scorer_quota_exceeded"


def check_sessions(fixture: Fixture, *, club_id: int | None) -> None:
    """A club starts at most SCORER_SESSIONS_PER_DAY sessions in 24 hours (start-and-abandon
    loops stored about 3 KB each, without bound)."""
    if club_id is None:
        return
    since = timezone.now() - timedelta(hours=24)
    started = ScoringSession.objects.filter(created_at__gte=since, started_by__fuba_clubs__id=club_id)
    limit = settings.SCORER_SESSIONS_PER_DAY
    if started.count() >= limit:
        first = started.order_by("created_at").values_list("created_at", flat=True).first()
        wait = int(((first or since) + timedelta(hours=24) - timezone.now()).total_seconds()) + 1
        raise ScorerQuotaExceeded(
            f"{fixture}: your club started {limit} scoring sessions in the last 24 hours, the daily "
            f"quota; try again in about {max(1, round(wait / 3600))} hour(s), or report the score by hand.",
            details={"quota": "sessions", "limit": limit, "retry_after_seconds": max(wait, 1)},
        )


# The club behind a side of a fixture, per process: a post knows the side, not the club, and the
# teams of a fixture do not change club while it is scored.
_clubs: dict[tuple[int, str], int | None] = {}


def _club_of(fixture_id: int, side: str) -> int | None:
    key = (fixture_id, side)
    if key not in _clubs:
        if len(_clubs) > 4096:
            _clubs.clear()
        column = "home_team__club_id" if side == "home" else "away_team__club_id"
        _clubs[key] = Fixture.objects.filter(id=fixture_id).values_list(column, flat=True).first()
    return _clubs[key]


def check_events(fixture_id: int, side: str, *, count: int = 1) -> None:
    """A club posts at most SCORER_EVENTS_PER_DAY events per UTC day: the events of its taps
    (repeats not counted) and of its side branches; staff not limited. One counter increment
    (by ``count``) in the cache per post, as the API's rate limits, and like them it lets posts
    through while Redis is down."""
    club_id = _club_of(fixture_id, side) if side else None
    if club_id is None:
        return
    day = int(time.time() // 86400)
    posted = window_count(f"scorer-quota:events:{club_id}:{day}", 86400, count)
    limit = settings.SCORER_EVENTS_PER_DAY
    if posted > limit:
        wait = int(86400 - time.time() % 86400) + 1
        raise ScorerQuotaExceeded(
            f"Your club posted {limit:,} scoring events today (UTC), the daily quota; the scorer "
            f"takes events again in about {max(1, round(wait / 3600))} hour(s).",
            details={"quota": "events", "limit": limit, "retry_after_seconds": wait},
        )

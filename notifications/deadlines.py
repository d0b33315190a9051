"""The reporting deadlines: 48 hours before, 24 hours before and once passed, each told once per
fixture and deadline (a moved deadline is told again). Run by the beat (notifications.deadlines)."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from notifications import kinds, outbox
from tournaments.models import Fixture

# A fixture whose deadline passed longer ago than this is not told any more (a first start of the
# beat on an old database must not mail every past deadline).
PASSED_WINDOW = timedelta(hours=12)

_WINDOWS = (
    (kinds.DEADLINE_48H, timedelta(hours=48), timedelta(hours=24)),
    (kinds.DEADLINE_24H, timedelta(hours=24), timedelta(0)),
)


def scan() -> dict[str, int]:
    now = timezone.now()
    told = {kind: 0 for kind in (kinds.DEADLINE_48H, kinds.DEADLINE_24H, kinds.DEADLINE_PASSED)}
    open_fixtures = Fixture.objects.filter(
        status__in=Fixture.OPEN_STATUSES,
        deadline__isnull=False,
        home_team__isnull=False,
        away_team__isnull=False,
    ).select_related("competition", "home_team", "away_team")
    for kind, ahead, after in _WINDOWS:
        for fixture in open_fixtures.filter(deadline__gt=now + after, deadline__lte=now + ahead):
            told[kind] += _tell(kind, fixture)
    for fixture in open_fixtures.filter(deadline__lte=now, deadline__gt=now - PASSED_WINDOW):
        told[kinds.DEADLINE_PASSED] += _tell(kinds.DEADLINE_PASSED, fixture)
    return told


def _tell(kind: str, fixture: Fixture) -> int:
    assert fixture.deadline is not None
    with transaction.atomic():
        event = outbox.fixture_event(kind, fixture, key=f"{kind}:{fixture.pk}:{fixture.deadline.isoformat()}")
    return 1 if event is not None else 0

"""`manage.py load_demo` (run by `make run`) builds the demo World Cup once and is safe to run twice."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings
from django.utils import timezone

from chances.models import ChancesJob
from league.demo import ROUND_OF_16_DAY, demo_start
from tournaments.models import Competition, Fixture, Team

pytestmark = pytest.mark.django_db


def test_load_demo_refuses_without_debug() -> None:
    with pytest.raises(CommandError, match="DEBUG=1"):
        call_command("load_demo", stdout=io.StringIO())
    assert not Competition.objects.exists()


@override_settings(DEBUG=True)
def test_load_demo_twice() -> None:
    out = io.StringIO()
    call_command("load_demo", stdout=out)
    text = out.getvalue()
    assert "login 'admin' password" in text
    competition = Competition.objects.get(slug="fuba-world-cup-demo")
    assert Team.objects.filter(competition=competition).count() == 32
    statuses = set(Fixture.objects.filter(competition=competition).values_list("status", flat=True))
    assert {"confirmed", "simulated", "disputed", "submitted", "scheduled"} <= statuses
    fixtures = Fixture.objects.count()

    # Dated from today: the groups and the played round-of-16 ties are behind, nothing is overdue,
    # the open ties are due in the coming days, and the chances are computed (or queued).
    now = timezone.now()
    demo_fixtures = Fixture.objects.filter(competition=competition)
    assert not [f for f in demo_fixtures if f.is_overdue]
    played = demo_fixtures.exclude(status__in=["scheduled", "submitted", "disputed"])
    assert played.exists() and all(f.kickoff < now for f in played)
    open_known = demo_fixtures.filter(status="scheduled", home_team__isnull=False, away_team__isnull=False)
    assert open_known.exists()
    assert all(now < f.deadline < now + timedelta(days=8) for f in open_known)
    assert ChancesJob.objects.filter(competition=competition).exists()
    assert "Chances of" in text

    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "already loaded" in out.getvalue() and "login 'admin'" in out.getvalue()
    assert Competition.objects.count() == 1 and Fixture.objects.count() == fixtures


def test_the_demo_is_dated_from_the_day_it_is_loaded() -> None:
    today = datetime(2027, 3, 9, 8, 30, tzinfo=UTC)
    start = demo_start(today)
    assert start == datetime(2027, 2, 22, 16, 0, tzinfo=UTC)
    # The round of 16 kicked off yesterday afternoon; its deadline (3 days) is still to come.
    assert start + timedelta(days=ROUND_OF_16_DAY) == datetime(2027, 3, 8, 16, 0, tzinfo=UTC)

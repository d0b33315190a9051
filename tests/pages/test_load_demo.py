"""`manage.py load_demo` (run by `make run`) builds the demo World Cup once and is safe to run twice."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

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

    out = io.StringIO()
    call_command("load_demo", stdout=out)
    assert "already loaded" in out.getvalue() and "login 'admin'" in out.getvalue()
    assert Competition.objects.count() == 1 and Fixture.objects.count() == fixtures

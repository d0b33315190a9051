"""The league announces its changes (tournaments.announcements) and the outbox listens: the league
imports nothing of the notifications, yet each change still writes its event in its transaction."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import transaction

from notifications import kinds
from notifications.models import Event
from tests.factories import CompetitionFactory, TeamFactory
from tournaments import announcements
from tournaments.services.scheduling import fixture_generate, fixture_schedule
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


def test_the_outbox_listens_to_every_announcement() -> None:
    for name, signal in announcements.SIGNALS.items():
        assert signal.has_listeners(), f"nothing writes the outbox on {name}"


def test_a_kickoff_set_writes_its_event_and_rolls_back_with_the_change() -> None:
    competition = CompetitionFactory(slug="announce-cup")
    teams = [TeamFactory(competition=competition, name=name) for name in ("H", "A")]
    stage = stage_create(competition=competition, name="League", kind="round_robin", teams=teams)
    (fixture, *_) = fixture_generate(stage=stage)
    kickoff = datetime(2026, 5, 1, 18, tzinfo=UTC)

    class Undo(Exception):
        pass

    with pytest.raises(Undo), transaction.atomic():
        fixture_schedule(fixture_id=fixture.pk, kickoff=kickoff, deadline=kickoff + timedelta(days=1))
        assert Event.objects.filter(kind=kinds.FIXTURE_SCHEDULED, fixture_id=fixture.pk).exists()
        raise Undo
    assert not Event.objects.filter(kind=kinds.FIXTURE_SCHEDULED, fixture_id=fixture.pk).exists()

    fixture_schedule(fixture_id=fixture.pk, kickoff=kickoff, deadline=kickoff + timedelta(days=1))
    event = Event.objects.get(kind=kinds.FIXTURE_SCHEDULED, fixture_id=fixture.pk)
    assert event.data["kickoff"] == kickoff.isoformat() and event.data["title"] == "H v A"

"""The live scorer's storage per club and day: sessions started and events posted, then 429."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from scoring import services
from scoring.models import ScoringEvent, ScoringSession
from scoring.selectors import session_get, session_state
from tests.factories import AdminFactory
from tests.scoring.helpers import make_fixture, next_event, tap_body

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_a_club_starts_so_many_sessions_a_day(settings) -> None:
    settings.SCORER_SESSIONS_PER_DAY = 2
    s = make_fixture()
    client = api(s.home_user)
    for n in range(2):
        started = client.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json")
        assert started.status_code == 201, started.content
        # Resuming the running session is no new session.
        assert (
            client.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json").status_code
            == 201
        )
        session = started.json()["session"]
        client.post(f"/api/v1/scoring-sessions/{session}/abandon", {"reason": f"loop {n}"}, format="json")
    refused = client.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json")
    assert refused.status_code == 429, refused.content
    error = refused.json()["error"]
    assert error["code"] == "scorer_quota_exceeded" and error["details"]["quota"] == "sessions"
    assert "2 scoring sessions in the last 24 hours" in error["message"]
    assert int(refused["Retry-After"]) > 0
    assert ScoringSession.objects.count() == 2
    # The other club has its own quota, and staff who may change fixtures are not limited.
    assert (
        api(s.away_user)
        .post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json")
        .status_code
        == 201
    )
    staff = AdminFactory()
    staff.user_permissions.add(Permission.objects.get(codename="change_fixture"))
    session = ScoringSession.objects.get(status="live")
    services.session_abandon(session_id=session.id, user=staff, reason="staff take over")
    assert (
        api(staff).post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json").status_code
        == 201
    )


def test_a_club_posts_so_many_events_a_day(settings) -> None:
    settings.SCORER_EVENTS_PER_DAY = 5
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    client = api(s.home_user)
    statuses = []
    for n in range(7):
        state = session_state(session_get(session_id=session.id))
        body = tap_body(state, {"client_id": f"q{n}", **next_event(state)})
        response = client.post(f"/api/v1/scoring-sessions/{session.id}/events", body, format="json")
        statuses.append(response.status_code)
        if n == 0:
            # A resend of a stored event changes nothing and counts nothing.
            again = client.post(f"/api/v1/scoring-sessions/{session.id}/events", body, format="json")
            assert again.status_code == 200 and again.json()["created"] is False
    assert statuses == [201] * 5 + [429] * 2
    assert response.json()["error"]["details"]["quota"] == "events"
    assert ScoringEvent.objects.filter(session=session).count() == 5

"""App dice: chosen for the whole session before its first event, on record with who chose it;
the server then rolls every roll and refuses dice typed in (the other club's answer:
tests/scoring/test_dice_agreement.py)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import ScoringEvent, ScoringSession
from tests.scoring.helpers import make_fixture, tap_body

pytestmark = pytest.mark.django_db


def _client(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_app_dice_chosen_at_the_start_is_on_record_and_rolls_on_the_server() -> None:
    s = make_fixture()
    home = _client(s.home_user)
    r = home.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id, "app_dice": True}, format="json")
    assert r.status_code == 201 and r.json()["app_dice"] is True
    sid = r.json()["session"]
    session = ScoringSession.objects.get(id=sid)
    assert session.app_dice_by == s.home_user and session.app_dice_at is not None

    typed = {"client_id": "typed-1", "event": {"roll": "kick_off", "by": "both", "dice": [5, 2]}}
    refused = home.post(f"/api/v1/scoring-sessions/{sid}/events", tap_body(r.json(), typed), format="json")
    assert refused.status_code == 422
    assert "app dice" in refused.json()["error"]["message"]
    assert refused.json()["error"]["details"]["index"] == 0
    assert not ScoringEvent.objects.filter(session_id=sid).exists()

    rolled = home.post(
        f"/api/v1/scoring-sessions/{sid}/events",
        tap_body(r.json(), {"client_id": "app-1", "roll_for_me": True}),
        format="json",
    )
    assert rolled.status_code == 201
    assert ScoringEvent.objects.get(session_id=sid).rolled_by_app


def test_the_dice_are_chosen_before_the_first_event_by_a_club_only() -> None:
    s = make_fixture()
    home, away = _client(s.home_user), _client(s.away_user)
    sid = home.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json").json()["session"]
    assert (
        _client(s.other_user)
        .post(f"/api/v1/scoring-sessions/{sid}/dice", {"app_dice": True}, format="json")
        .status_code
        == 403
    )

    chosen = away.post(f"/api/v1/scoring-sessions/{sid}/dice", {"app_dice": True}, format="json")
    assert chosen.status_code == 200 and chosen.json()["app_dice"] is True
    assert ScoringSession.objects.get(id=sid).app_dice_by == s.away_user

    typed = tap_body(
        {"head": "", "seq": 0},
        {"client_id": "t-1", "event": {"roll": "kick_off", "by": "both", "dice": [5, 2]}},
    )
    assert (
        home.post(f"/api/v1/scoring-sessions/{sid}/dice", {"app_dice": False}, format="json").status_code
        == 200
    )
    assert home.post(f"/api/v1/scoring-sessions/{sid}/events", typed, format="json").status_code == 201

    # after the first event one club's word is only a request (tests/scoring/test_dice_agreement.py)
    late = home.post(f"/api/v1/scoring-sessions/{sid}/dice", {"app_dice": True}, format="json")
    assert late.status_code == 200 and late.json()["dice"]["request"]["side"] == "home"
    assert ScoringSession.objects.get(id=sid).app_dice is False

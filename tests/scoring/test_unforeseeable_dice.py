"""Dice nobody can foresee (issue 31): no answer carries anything that determines a future roll;
the server rolls "roll for me" when it is due with its one generator (seeded in tests only); a
phone's app dice rolled offline are checked and recorded as that club's phone's."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring import services, session_engine
from scoring.models import ScoringEvent, ScoringSession
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import make_fixture, play, tap, tap_body, undo

pytestmark = pytest.mark.django_db


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _app_dice_session() -> tuple[Any, ScoringSession, dict[str, Any]]:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user, app_dice=True)
    services.session_dice(session_id=session.id, user=s.away_user, app_dice=True)
    return s, session, {"home": s.home_user, "away": s.away_user}


def _to_a_roll(session_id: int, users: dict[str, Any], *, at_least: int) -> dict[str, Any]:
    state = play(session_id, users, until=at_least)
    while state["pending"]["kind"] != "roll":
        state = play(session_id, users, until=state["seq"] + 1)
    return state


def test_no_answer_to_anyone_carries_a_seed_of_the_app_dice(django_capture_on_commit_callbacks) -> None:
    s, session, users = _app_dice_session()
    home = _api(s.home_user)
    with django_capture_on_commit_callbacks(execute=True):
        state = _to_a_roll(session.id, users, at_least=4)
        posted = home.post(
            f"/api/v1/scoring-sessions/{session.id}/events",
            tap_body(state, {"client_id": "r1", "roll_for_me": True}),
            format="json",
        )
    assert posted.status_code == 201
    answers = {
        "tap": posted.content,
        "state (club)": home.get(f"/api/v1/scoring-sessions/{session.id}").content,
        "state (anyone)": APIClient().get(f"/api/v1/scoring-sessions/{session.id}").content,
        "log": APIClient().get(f"/api/v1/scoring-sessions/{session.id}/log").content,
        "live.json": Client().get(f"/score/{session.id}/live.json").content,
        "story.json": Client().get(f"/score/{session.id}/story.json").content,
        "dice word": home.post(
            f"/api/v1/scoring-sessions/{session.id}/dice", {"app_dice": True}, format="json"
        ).content,
    }
    for where, body in answers.items():
        assert b"seed" not in body.lower(), where
        json.loads(body)  # each is a JSON document (not an error page)
    assert json.loads(answers["state (club)"])["app_dice"] is True
    assert not hasattr(ScoringSession(), "dice_seed")


def test_roll_for_me_is_drawn_from_the_servers_generator_when_it_is_due(server_dice: random.Random) -> None:
    """The dice come from the server's one generator at the moment of the roll, so nothing sent
    before it (the state, the log) determines them: the same match rolled from two generators
    gives two different rolls, and an undone roll rolled again is a new roll."""
    s, session, users = _app_dice_session()
    state = _to_a_roll(session.id, users, at_least=3)
    p = state["pending"]
    server_dice.seed(1)
    expected = random.Random(1)
    first = tap(session.id, s.home_user, {"roll_for_me": True}).stored[0]
    assert first["event"]["dice"] == [expected.randint(1, p["sides"]) for _ in range(p["dice"])]
    assert first["rolled_by_app"] and not first["rolled_offline"]
    assert first["event"]["note"] == "rolled by the app"
    rolls = {tuple(first["event"]["dice"])}
    for seed in range(2, 12):
        undo(session.id, s.home_user, reason="again")
        server_dice.seed(seed)
        rolls.add(tuple(tap(session.id, s.home_user, {"roll_for_me": True}).stored[0]["event"]["dice"]))
    assert len(rolls) > 1, "the same state rolled from other generators gave the same dice every time"


def test_app_dice_rolled_offline_are_checked_and_recorded_as_the_posting_clubs_phone() -> None:
    s, session, users = _app_dice_session()
    state = _to_a_roll(session.id, users, at_least=3)
    p = state["pending"]
    away = _api(s.away_user)
    url = f"/api/v1/scoring-sessions/{session.id}/events"
    illegal = {"roll": p["name"], "by": p["actor"], "dice": [p["sides"] + 1] * p["dice"]}
    r = away.post(
        url, tap_body(state, {"client_id": "o0", "event": illegal, "rolled_offline": True}), format="json"
    )
    assert r.status_code == 422 and r.json()["error"]["details"]["index"] == 0
    typed = {"roll": p["name"], "by": p["actor"], "dice": [1] * p["dice"]}
    r = away.post(url, tap_body(state, {"client_id": "o1", "event": typed}), format="json")
    assert r.status_code == 422 and r.json()["error"]["details"]["rule"] == "app dice"
    r = away.post(
        url, tap_body(state, {"client_id": "o2", "event": typed, "rolled_offline": True}), format="json"
    )
    assert r.status_code == 201, r.json()
    (stored,) = r.json()["stored"]
    assert stored["rolled_offline"] and stored["rolled_by_app"] and stored["side"] == "away"
    team = session.fixture.away_team.name
    assert stored["event"]["note"] == f"rolled offline by the app on {team}'s phone"
    row = ScoringEvent.objects.get(session=session, client_id="o2")
    assert row.rolled_offline and row.side == "away" and row.entered_by == s.away_user
    log = APIClient().get(f"/api/v1/scoring-sessions/{session.id}/log").json()
    assert log["events"][-1]["rolled_offline"] is True
    # the log still replays: the note is not part of the event
    events = services.scored_log(session_get(session_id=session.id))["events"]
    assert session_engine.rebuild(session.header, events).pending() is not None
    assert session_state(session_get(session_id=session.id))["seq"] == state["seq"] + 1

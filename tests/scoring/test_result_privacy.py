"""Nothing unconfirmed is public, whatever the session does later (issue 31, item 7): from full time
until the fixture's result counts, a session's state, log, feed and live document are the two
clubs' and staff's only, abandoned or taken back to play; everyone else gets its status and teams."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.services import result_confirm, result_submit
from scoring import services
from tests.factories import AdminFactory, UserFactory
from tests.scoring.helpers import level_knockout_at_full_time, undo
from tournaments.bracket import Score

pytestmark = pytest.mark.django_db


def _answers(session_id: int, user: Any) -> dict[str, Any]:
    api, page = APIClient(), Client()
    if user is not None:
        api.force_authenticate(user)
        page.force_login(user)
    return {
        "state": api.get(f"/api/v1/scoring-sessions/{session_id}"),
        "log": api.get(f"/api/v1/scoring-sessions/{session_id}/log"),
        "live.json": page.get(f"/score/{session_id}/live.json"),
        "story.json": page.get(f"/score/{session_id}/story.json"),
    }


def _private_to_others(session: Any, users: dict[str, Any]) -> None:
    for who in (None, UserFactory()):
        for where, answer in _answers(session.id, who).items():
            assert answer.status_code == 403, (who, where, answer.content[:200])
            error = answer.json()["error"]
            assert error["code"] == "result_unconfirmed", where
            # the status and the teams, nothing of the score or the log
            assert set(error["details"]) == {"session", "fixture", "status", "teams"}, where
            assert error["details"]["teams"]["home"]["name"] == session.fixture.home_team.name
    for who in (users["home"], users["away"], AdminFactory()):
        assert all(a.status_code == 200 for a in _answers(session.id, who).values()), who


def test_an_abandoned_full_time_session_stays_private_until_the_result_counts() -> None:
    session, users = level_knockout_at_full_time()
    _private_to_others(session, users)
    abandoned = services.session_abandon(
        session_id=session.id, user=users["home"], reason="we report by hand"
    )
    assert abandoned.status == "abandoned"
    _private_to_others(abandoned, users)
    answer = _answers(session.id, None)["live.json"]
    assert answer.json()["error"]["details"]["status"] == "abandoned"
    # the result reported by hand counts: the session is everyone's to read again
    fixture = session.fixture
    result_submit(
        fixture_id=fixture.id,
        user=users["home"],
        score=Score(1, 1, extra_time=True, home_penalties=4, away_penalties=3),
    )
    assert _answers(session.id, None)["state"].status_code == 403
    result_confirm(fixture_id=fixture.id, user=users["away"])
    assert all(a.status_code == 200 for a in _answers(session.id, None).values())


def test_a_session_taken_back_from_full_time_stays_private() -> None:
    session, users = level_knockout_at_full_time()
    back = undo(session.id, users["home"], reason="wrong die")
    assert back.status == "live"
    _private_to_others(back, users)

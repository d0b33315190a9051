"""A goal of a match scored live is told to its followers (issue 33, item 1): one notice a goal,
with the score and the minute, none for a resent tap, none once the match has reached full time
(the result is the clubs' until it counts, docs/scorer.md)."""

from __future__ import annotations

from typing import Any

import pytest

from matches.simulation import fixture_simulate
from notifications import kinds
from notifications.models import Event
from scoring import services
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import make_fixture, tap

pytestmark = pytest.mark.django_db


def _scored_match() -> tuple[Any, Any, list[dict[str, Any]]]:
    """A fixture, its live session (typed dice) and the events of a simulated match with goals."""
    s = make_fixture()
    log = next(
        m.log
        for m in (fixture_simulate(fixture=s.fixture, seed=seed) for seed in range(20))
        if sum(m.score) >= 2
    )
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    users = {"home": s.home_user, "away": s.away_user}
    return s, (session, users), log["events"]


def _user(users: dict[str, Any], event: dict[str, Any]) -> Any:
    return users["away" if event.get("by") == "away" else "home"]


def test_each_goal_of_a_live_match_is_one_notice_with_its_score() -> None:
    s, (session, users), events = _scored_match()
    scores_seen: list[str] = []
    state = session_state(session_get(session_id=session.id))
    for event in events:
        if state["pending"] is None:
            break  # full time: the session takes no more events
        before = list(state["state"]["score"])
        state = session_state(tap(session.id, _user(users, event), {"event": event}).session)
        after = list(state["state"]["score"])
        if after != before and state["pending"] is not None:
            scores_seen.append(f"{after[0]}-{after[1]}")
    assert state["pending"] is None, "the whole simulated match was posted"
    assert scores_seen, "the simulated match has goals"
    notices = list(Event.objects.filter(kind=kinds.LIVE_GOAL, fixture_id=s.fixture.id).order_by("id"))
    assert [n.data["score"] for n in notices] == scores_seen
    assert all("' GOAL for " in n.data["text"] for n in notices)


def test_a_resent_tap_tells_its_goal_once() -> None:
    s, (session, users), events = _scored_match()
    state = session_state(session_get(session_id=session.id))
    for i, event in enumerate(events):
        before = list(state["state"]["score"])
        head, seq = state["head"], state["seq"]
        entry = {"client_id": f"e{i}", "event": event}
        state = session_state(tap(session.id, _user(users, event), entry, tap_id=f"t{i}").session)
        if list(state["state"]["score"]) != before:
            again = tap(session.id, _user(users, event), entry, tap_id=f"t{i}", after=head, after_seq=seq)
            assert not again.created
            assert Event.objects.filter(kind=kinds.LIVE_GOAL, fixture_id=s.fixture.id).count() == 1
            return
    pytest.fail("the simulated match has a goal")

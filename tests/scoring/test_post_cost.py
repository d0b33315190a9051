"""What one scorer post costs the database (issue 35: a scorer post that costs little).

A tap on the stored head, late in a match, through the API with a token as the phone's bench
client signs in: the token, one read (the session row, the poster's clubs, whether the tap is
stored; the log too for a process that holds no copy of the match) and one compare-and-set
write, whether this process holds the match as stored, a copy a few events behind (another worker
took the last posts) or none at all (a new worker). The test's own transaction adds a savepoint
and its release around the write, which a request has not."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from matchplay import scorer_view
from scoring import selectors, services, session_engine
from scoring.models import ScoringEvent
from scoring.selectors import session_get
from tests.scoring.helpers import make_fixture, next_event, play, tap_body

pytestmark = pytest.mark.django_db

LATE = 300  # events: about turn 28 of a match of some 40 turns
# token, read, write, and the test transaction's savepoint and release around the write
POST_QUERIES = 5


def _late_session(until: int = LATE) -> tuple[int, dict[str, APIClient], dict[str, Any]]:
    s = make_fixture(skills=1)
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    users = {"home": s.home_user, "away": s.away_user}
    state = play(session.id, users, until=until)
    clients = {}
    for side, user in users.items():
        clients[side] = APIClient()
        clients[side].credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return session.id, clients, state


def _post(session_id: int, clients: dict[str, APIClient], state: dict[str, Any]) -> dict[str, Any]:
    side = "away" if state["pending"]["actor"] == "away" else "home"
    response = clients[side].post(
        f"/api/v1/scoring-sessions/{session_id}/events", tap_body(state, next_event(state)), format="json"
    )
    assert response.status_code == 201, response.content
    return response.json()["state"]


def _copy_behind(session_id: int, behind: int) -> None:
    """This process's copy of the match as another worker left it, ``behind`` events ago."""
    session = session_get(session_id=session_id)
    rows = list(
        ScoringEvent.objects.filter(session=session, undone_at__isnull=True, seq__lte=session.seq - behind)
        .order_by("seq")
        .values_list("client_id", "data")
    )
    match = session_engine.rebuild(session.header, [data for _, data in rows])
    session_engine.keep(session_id, (len(rows), rows[-1][0]), match)


def test_a_post_late_in_a_match_is_the_token_one_read_and_one_write(
    django_assert_max_num_queries: Any,
) -> None:
    session_id, clients, state = _late_session()
    for _ in range(3):  # this process holds the match as stored
        with django_assert_max_num_queries(POST_QUERIES):
            state = _post(session_id, clients, state)
    for behind in (3, 11):  # a copy some events behind: the session row's recent events bring it up
        _copy_behind(session_id, behind)
        with django_assert_max_num_queries(POST_QUERIES):
            state = _post(session_id, clients, state)
    # a new worker, holding no copy: the read brings the log with the session row
    session_engine.forget(session_id)
    with django_assert_max_num_queries(POST_QUERIES):
        state = _post(session_id, clients, state)
    session = session_get(session_id=session_id)
    rebuilt = session_engine.rebuild(session.header, selectors.scored_log(session)["events"])
    assert state["state"] == scorer_view.state(rebuilt) and state["seq"] == len(rebuilt.events)
    # a copy older than the recent events: the missing events are read
    _copy_behind(session_id, 40)
    with django_assert_max_num_queries(POST_QUERIES + 1):
        state = _post(session_id, clients, state)
    assert state["seq"] == LATE + 7


def test_a_light_answer_says_what_the_tap_changed_as_the_full_state_does() -> None:
    """A phone whose own engine draws the match asks the light answer: the session state's fields
    a tap can change, the same as the full state gives them, up to full time and its result."""
    session_id, clients, state = _late_session(until=400)  # the match ends some 30 events later
    url = f"/api/v1/scoring-sessions/{session_id}"
    posts = 0
    while state["pending"] is not None:
        posts += 1
        side = "away" if state["pending"]["actor"] == "away" else "home"
        body = {**tap_body(state, next_event(state)), "answer": "light"}
        response = clients[side].post(f"{url}/events", body, format="json")
        assert response.status_code == 201, response.content
        light = response.json()["state"]
        state = clients["home"].get(url).json()
        assert tuple(light) == selectors.LIGHT_FIELDS
        assert light == {name: state[name] for name in selectors.LIGHT_FIELDS}
        assert response.json()["head"] == light["head"] == state["head"]
    home, away = state["state"]["score"]
    assert posts > 10 and light["status"] == "full_time"
    assert light["result"]["score"] == {"home": home, "away": away}
    # a repeat of the last tap is answered as stored, light as well
    again = clients[side].post(f"{url}/events", body, format="json")
    assert again.status_code == 200 and again.json()["state"] == light

"""A level knockout match is never ended at 90 minutes (I-38): the scorer offers only "yes" at
the extra-time question, refuses "no", and the session can be finished after extra time."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from matchplay.engine_door import Dice, Tie, new_match, tie_from_dict, tie_level
from scoring import selectors, services, session_engine
from scoring.models import ScoringSession
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import knockout_final, play_on, tap
from tournaments.bracket import Score, needs_decider

pytestmark = pytest.mark.django_db
_ids = itertools.count(1)


def _events_to_a_level_extra_time_question(header: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of a seeded match up to the extra-time question with the score level."""
    for seed in range(50):
        m = new_match(header)
        events = play_on(m, Dice(seed=seed))
        if m.pending() is not None and session_engine.score(m)[0] == session_engine.score(m)[1]:
            return events
    raise AssertionError("no seed gave a level score")


def _post(session_id: int, user: Any, seq: int, event: dict[str, Any] | None) -> ScoringSession:
    current = ScoringSession.objects.get(id=session_id)
    assert current.seq == seq - 1
    item = {"event": event} if event is not None else {"roll_for_me": True}
    return tap(session_id, user, {"client_id": f"x{next(_ids)}", **item}).session


def test_a_level_knockout_match_plays_extra_time_and_can_be_finished() -> None:
    fixture, users = knockout_final()
    session = services.session_start(fixture_id=fixture.id, user=users["home"])
    assert session.header["extra_time"] is True
    events = _events_to_a_level_extra_time_question(session.header)
    for seq, event in enumerate(events, start=1):
        session = _post(session.id, users[event["by"] if event["by"] != "both" else "home"], seq, event)
    state = session_state(session_get(session_id=session.id))
    pending = state["pending"]
    assert pending["name"] == "extra_time" and pending["only_answer"] is True
    assert [o["value"] for o in pending["options"]] == ["yes"] and pending["default"] is None
    seq = state["seq"] + 1
    with pytest.raises(session_engine.IllegalEvent, match="level after 90 minutes") as info:
        _post(session.id, users["home"], seq, {"decide": "extra_time", "by": "home", "choice": "no"})
    assert info.value.details["rule"] == "I-38"
    assert session_get(session_id=session.id).seq == seq - 1  # nothing stored
    _post(session.id, users["home"], seq, {"decide": "extra_time", "by": "home", "choice": "yes"})
    # extra time to the end, then both clubs confirm (with a shoot-out when still level)
    state = session_state(session_get(session_id=session.id))
    while state["pending"] is not None:
        p = state["pending"]
        event = None
        if p["kind"] == "decision":
            choice = p["default"] if p.get("default") is not None else p["options"][0]["value"]
            event = {"decide": p["name"], "by": p["actor"], "choice": choice}
        state = session_state(
            _post(session.id, users["away" if p["actor"] == "away" else "home"], state["seq"] + 1, event)
        )
    assert state["status"] == "full_time" and state["result"]["extra_time"] is True
    score = state["result"]["score"]
    pens = {"home_penalties": 5, "away_penalties": 4} if score["home"] == score["away"] else {}
    for side in ("home", "away"):
        services.session_confirm(session_id=session.id, user=users[side], **pens)
    fixture.refresh_from_db()
    assert session_get(session_id=session.id).status == ScoringSession.Status.SUBMITTED
    assert fixture.result.extra_time is True


def test_a_decided_tie_answers_no() -> None:
    fixture, _users = knockout_final()
    assert selectors.extra_time_answer(fixture, 2, 1) == "no"
    assert selectors.extra_time_answer(fixture, 1, 1) == "yes"
    tie = selectors.fixture_tie(fixture)
    assert tie == Tie() and tie is not None and tie_from_dict(tie.to_dict()) == tie


def test_the_engines_tie_is_the_leagues_tie_rule() -> None:
    """The engine's rule for a level tie (rules_engine.tie) and the league's for deciding one
    (tournaments.bracket) say the same for every score of a one-match tie and of a second leg."""
    scores = range(4)
    for away_goals, h, a in itertools.product((False, True), scores, scores):
        last = Score(h, a)
        assert tie_level(Tie(), h, a) == needs_decider(away_goals_rule=away_goals, first=None, last=last)
        for fh, fa in itertools.product(scores, scores):
            # the first leg as stored (its home team is this match's away team) and as the engine has it
            league = needs_decider(away_goals_rule=away_goals, first=Score(fh, fa), last=last)
            assert tie_level(Tie(2, (fa, fh), away_goals), h, a) == league
    assert not tie_level(Tie(legs=2), 1, 1)  # a first leg never goes to extra time

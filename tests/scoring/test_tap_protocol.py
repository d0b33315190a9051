"""One tap, one record (issue 31): a tap is stored whole on top of the stored event it names, or
not at all; the same events twice are one event; a chain that does not extend the stored head is
refused whole with what the store holds since (docs/scorer-internals.md, "One tap, one post")."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from matchplay.engine_door import Dice
from scoring import selectors, services, session_engine, taps
from scoring.models import ScoringEvent, ScoringSession
from scoring.selectors import session_get
from tests.scoring.helpers import make_fixture, play, tap

pytestmark = pytest.mark.django_db

URL = "/api/v1/scoring-sessions/{}/events"


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _ahead(session_id: int, n: int, *, seed: int = 7) -> list[dict[str, Any]]:
    """The next ``n`` events after the stored ones (seeded dice typed in; the default or first
    option at every decision), as fuba-log/1 events."""
    match = session_engine.rebuild(
        session_get(session_id=session_id).header,
        selectors.scored_log(session_get(session_id=session_id))["events"],
    )
    dice, out = Dice(seed=seed), []
    for _ in range(n):
        p = match.pending()
        if p.kind == "roll":
            event = {"roll": p.name, "by": p.actor, "dice": list(dice.roll_for(p).dice)}
        else:
            event = {
                "decide": p.name,
                "by": p.actor,
                "choice": p.default if p.default is not None else p.options[0],
            }
        session_engine.apply_tap(match, [{"event": event}])[0]["event"]
        out.append(event)
    return out


def _started(until: int = 6) -> tuple[Any, ScoringSession, dict[str, Any]]:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    play(session.id, {"home": s.home_user, "away": s.away_user}, until=until)
    return s, session_get(session_id=session.id), {"home": s.home_user, "away": s.away_user}


def _at_a_decision(session_id: int, users: dict[str, Any]) -> ScoringSession:
    """Play on until the match waits for a decision."""
    while True:
        current = session_get(session_id=session_id)
        if selectors.session_state(current)["pending"]["kind"] == "decision":
            return current
        play(session_id, users, until=current.seq + 1)


def _at_a_roll(session_id: int, users: dict[str, Any]) -> ScoringSession:
    while True:
        current = session_get(session_id=session_id)
        if selectors.session_state(current)["pending"]["kind"] == "roll":
            return current
        play(session_id, users, until=current.seq + 1)


def _body(tap_id: str, after: str, after_seq: int, *entries: dict[str, Any]) -> dict[str, Any]:
    return {"tap_id": tap_id, "after": after, "after_seq": after_seq, "events": list(entries)}


def test_a_tap_of_three_events_is_stored_whole_in_order_with_its_tap_id() -> None:
    s, session, _ = _started()
    a, b, c = _ahead(session.id, 3)
    r = _api(s.home_user).post(
        URL.format(session.id),
        _body(
            "t-1",
            session.head,
            session.seq,
            {"client_id": "a", "event": a},
            {"client_id": "b", "event": b},
            {"client_id": "c", "event": c},
        ),
        format="json",
    )
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["created"] is True and body["head"] == "c" and body["seq"] == session.seq + 3
    assert [e["client_id"] for e in body["stored"]] == ["a", "b", "c"]
    assert [e["seq"] for e in body["stored"]] == [session.seq + 1, session.seq + 2, session.seq + 3]
    assert body["state"]["seq"] == session.seq + 3 and body["state"]["head"] == "c"
    rows = ScoringEvent.objects.filter(session=session, tap_id="t-1").order_by("seq")
    assert [(e.client_id, e.side) for e in rows] == [("a", "home"), ("b", "home"), ("c", "home")]


def test_an_illegal_third_event_stores_nothing_of_the_tap() -> None:
    s, session, _ = _started()
    a, b, c = _ahead(session.id, 3)
    c = {**c, "dice": [9] * len(c["dice"])} if "roll" in c else {**c, "choice": "no such answer"}
    r = _api(s.home_user).post(
        URL.format(session.id),
        _body(
            "t-1",
            session.head,
            session.seq,
            {"client_id": "a", "event": a},
            {"client_id": "b", "event": b},
            {"client_id": "c", "event": c},
        ),
        format="json",
    )
    assert r.status_code == 422, r.json()
    details = r.json()["error"]["details"]
    assert details["index"] == 2 and details["client_id"] == "c"
    assert {"turn", "stage", "rule", "reason"} <= set(details) and details["reason"]
    assert r.json()["error"]["message"].startswith("events[2] (c):")
    after = session_get(session_id=session.id)
    assert (after.seq, after.head, after.version) == (session.seq, session.head, session.version)
    assert not ScoringEvent.objects.filter(session=session, client_id__in=["a", "b", "c"]).exists()
    # the engine copy the refused tap changed was dropped: the legal part goes in as before
    assert tap(
        session.id, s.home_user, {"client_id": "a", "event": a}, {"client_id": "b", "event": b}
    ).created


def test_a_stale_chain_is_refused_whole_with_what_is_stored_since() -> None:
    s, session, users = _started()
    session = _at_a_roll(session.id, users)
    p = selectors.session_state(session)["pending"]
    theirs = {"roll": p["name"], "by": p["actor"], "dice": [1] * p["dice"]}
    mine = {"roll": p["name"], "by": p["actor"], "dice": [2] * p["dice"]}
    tap(session.id, s.away_user, {"client_id": "theirs", "event": theirs})
    r = _api(s.home_user).post(
        URL.format(session.id),
        _body("t-mine", session.head, session.seq, {"client_id": "mine", "event": mine}),
        format="json",
    )
    assert r.status_code == 409, r.json()
    error = r.json()["error"]
    assert error["code"] == "stale_head"
    details = error["details"]
    assert details["head"] == "theirs" and details["seq"] == session.seq + 1
    assert details["after_seq"] == session.seq
    (since,) = details["stored_since"]
    assert since["client_id"] == "theirs" and since["side"] == "away" and since["seq"] == session.seq + 1
    assert since["minute"] == selectors.session_state(session)["state"]["minute"]
    assert since["text"]
    assert details["state"]["head"] == "theirs"
    assert not ScoringEvent.objects.filter(client_id="mine").exists()


def test_a_client_that_keeps_sending_after_a_409_cannot_splice_its_taps_onto_the_other_stretch() -> None:
    """Its next taps name its own refused event, or an older stored one, as ``after``: both are
    refused whole, and the store holds only the other phone's stretch."""
    s, session, users = _started()
    session = _at_a_roll(session.id, users)
    p = selectors.session_state(session)["pending"]
    tap(
        session.id,
        s.away_user,
        {"client_id": "theirs", "event": {"roll": p["name"], "by": p["actor"], "dice": [1] * p["dice"]}},
    )
    mine = {"roll": p["name"], "by": p["actor"], "dice": [2] * p["dice"]}
    with pytest.raises(selectors.StaleHead):
        tap(
            session.id,
            s.home_user,
            {"client_id": "mine-1", "event": mine},
            after=session.head,
            after_seq=session.seq,
        )
    # built on its own refused tap
    nxt = _ahead(session.id, 1)
    with pytest.raises(selectors.StaleHead) as refused:
        tap(
            session.id,
            s.home_user,
            {"client_id": "mine-2", "event": nxt[0]},
            after="mine-1",
            after_seq=session.seq + 1,
        )
    assert refused.value.details["after_seq"] is None
    assert [e["client_id"] for e in refused.value.details["stored_since"]] == ["theirs"]
    # built on an older stored event, with the right sequence number
    older = ScoringEvent.objects.get(session=session, seq=session.seq - 1)
    with pytest.raises(selectors.StaleHead):
        tap(
            session.id,
            s.home_user,
            {"client_id": "mine-3", "event": nxt[0]},
            after=older.client_id,
            after_seq=session.seq + 1,
        )
    assert not ScoringEvent.objects.filter(client_id__startswith="mine").exists()
    assert session_get(session_id=session.id).head == "theirs"


def test_two_phones_posting_the_same_automatic_entry_store_it_once_and_neither_gets_a_409() -> None:
    s, session, users = _started()
    session = _at_a_decision(session.id, users)
    (entry,) = _ahead(session.id, 1)
    first = _api(s.home_user).post(
        URL.format(session.id),
        _body("home-t", session.head, session.seq, {"client_id": "h1", "event": entry}),
        format="json",
    )
    second = _api(s.away_user).post(
        URL.format(session.id),
        _body("away-t", session.head, session.seq, {"client_id": "a1", "event": entry}),
        format="json",
    )
    assert first.status_code == 201 and second.status_code == 200, second.json()
    assert second.json()["created"] is False
    assert second.json()["stored"] == first.json()["stored"] and second.json()["head"] == "h1"
    assert ScoringEvent.objects.filter(session=session).count() == session.seq + 1
    assert session_get(session_id=session.id).version == first.json()["state"]["version"]


def test_a_resend_after_a_lost_answer_is_answered_as_stored_whatever_the_head_now_is() -> None:
    s, session, users = _started()
    a, b = _ahead(session.id, 2)
    body = _body(
        "lost", session.head, session.seq, {"client_id": "l1", "event": a}, {"client_id": "l2", "event": b}
    )
    client = _api(s.home_user)
    first = client.post(URL.format(session.id), body, format="json")
    assert first.status_code == 201
    play(session.id, users, until=session.seq + 5)  # the other phone went on meanwhile
    again = client.post(URL.format(session.id), body, format="json")
    assert again.status_code == 200 and again.json()["created"] is False
    assert again.json()["stored"] == first.json()["stored"]
    assert again.json()["seq"] == session.seq + 5
    assert ScoringEvent.objects.filter(session=session, tap_id="lost").count() == 2


def test_a_repeated_roll_for_me_is_one_roll_with_the_servers_dice() -> None:
    s, session, users = _started()
    while True:  # a decision whose usual answer is followed by a roll
        session = _at_a_decision(session.id, users)
        match = session_engine.rebuild(session.header, selectors.scored_log(session)["events"])
        (answer,) = _ahead(session.id, 1)
        session_engine.apply_tap(match, [{"event": answer}])[0]["event"]
        if match.pending().kind == "roll":
            break
        play(session.id, users, until=session.seq + 1)
    entries = [{"event": answer}, {"roll_for_me": True}]
    first = tap(
        session.id,
        s.home_user,
        *({"client_id": f"h{i}", **e} for i, e in enumerate(entries)),
        after=session.head,
        after_seq=session.seq,
    )
    second = tap(
        session.id,
        s.away_user,
        *({"client_id": f"a{i}", **e} for i, e in enumerate(entries)),
        after=session.head,
        after_seq=session.seq,
    )
    assert first.created and not second.created
    assert second.stored == first.stored and first.stored[1]["rolled_by_app"]
    assert ScoringEvent.objects.filter(session=session, seq=session.seq + 2).count() == 1


def test_a_longer_tap_repeating_the_stored_events_has_the_rest_applied_on_top() -> None:
    s, session, _ = _started()
    a, b = _ahead(session.id, 2)
    tap(session.id, s.away_user, {"client_id": "other-a", "event": a})
    mine = ({"client_id": "mine-a", "event": a}, {"client_id": "mine-b", "event": b})
    longer = tap(session.id, s.home_user, *mine, tap_id="longer", after=session.head, after_seq=session.seq)
    assert longer.created is True
    assert [e["client_id"] for e in longer.stored] == ["other-a", "mine-b"]
    assert longer.session.head == "mine-b" and longer.session.seq == session.seq + 2
    # its resend (the answer was lost) is answered with the whole tap as stored
    again = tap(session.id, s.home_user, *mine, tap_id="longer", after=session.head, after_seq=session.seq)
    assert again.created is False and again.stored == longer.stored


def test_an_undo_names_the_head_it_takes_back_and_its_resend_changes_nothing() -> None:
    s, session, _ = _started()
    older = ScoringEvent.objects.get(session=session, seq=session.seq - 1)
    with pytest.raises(selectors.StaleHead):
        services.event_undo(
            session_id=session.id, user=s.home_user, after=older.client_id, after_seq=older.seq
        )
    undone, done = services.event_undo(
        session_id=session.id, user=s.home_user, after=session.head, after_seq=session.seq, reason="wrong die"
    )
    assert done and undone.seq == session.seq - 1 and undone.head == older.client_id
    again, done = services.event_undo(
        session_id=session.id, user=s.home_user, after=session.head, after_seq=session.seq, reason="wrong die"
    )
    assert not done and (again.seq, again.version) == (undone.seq, undone.version)
    assert ScoringEvent.objects.filter(session=session, undone_at__isnull=False).count() == 1


def test_an_old_body_without_after_is_a_400_asking_to_reload_the_page() -> None:
    s, session, _ = _started(until=0)
    old = {"client_id": "c1", "expected_seq": 1, "roll_for_me": True}
    r = _api(s.home_user).post(URL.format(session.id), old, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "invalid"
    assert "Reload the page" in r.json()["error"]["message"]
    undo = _api(s.home_user).post(
        f"/api/v1/scoring-sessions/{session.id}/undo", {"expected_seq": 0}, format="json"
    )
    assert undo.status_code == 400 and "Reload the page" in undo.json()["error"]["message"]
    assert not ScoringEvent.objects.filter(session=session).exists()


def test_a_tap_on_the_head_is_one_read_and_one_write() -> None:
    s, session, _ = _started()
    tap(session.id, s.home_user, *({"event": e} for e in _ahead(session.id, 1)))  # the engine copy warm
    session = session_get(session_id=session.id)
    events = [{"client_id": f"q{i}", "event": e} for i, e in enumerate(_ahead(session.id, 3))]
    with CaptureQueriesContext(connection) as queries:
        answer = taps.tap_post(
            session_id=session.id,
            user=s.home_user,
            tap_id="q",
            after=session.head,
            after_seq=session.seq,
            events=events,
        )
    assert answer.created and answer.session.seq == session.seq + 3
    # (the test's own transaction adds a savepoint around the write, which a request has not)
    statements = [q["sql"] for q in queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 2, [q[:80] for q in statements]

"""A post holds no lock while the engine judges it: it stores the event only if the session is
still at the version it read (compare and set). These tests make a post lose that race on purpose
and check what the client gets and that nothing wrong is stored or cached."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from matchplay import scorer_view
from scoring import selectors, services, session_engine, taps
from scoring.models import ScoringEvent
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import entry, make_fixture, next_event, play, tap, undo

pytestmark = pytest.mark.django_db


def _stale_first_read(monkeypatch: pytest.MonkeyPatch, stale: tuple[Any, ...]) -> list[int]:
    """The next post reads ``stale`` first (as if another device wrote right after its read),
    then the row as it is. Returns the list of reads made."""
    real = taps._read
    reads: list[int] = []

    def read(
        session_id: int, user: Any, tap_id: str, client_ids: list[str], with_log: bool = False
    ) -> tuple[Any, ...]:
        reads.append(session_id)
        return stale if len(reads) == 1 else real(session_id, user, tap_id, client_ids, with_log)

    monkeypatch.setattr(taps, "_read", read)
    return reads


@pytest.mark.parametrize("vendor", ["postgresql", "other"])
def test_a_tap_that_lost_the_race_is_a_409_and_stores_nothing(
    monkeypatch: pytest.MonkeyPatch, vendor: str
) -> None:
    if vendor == "other":
        # The embedded default's path (an ORM update and insert in a transaction), here on PostgreSQL.
        monkeypatch.setattr(connection, "vendor", "sqlite")
    s = make_fixture()
    users = {"home": s.home_user, "away": s.away_user}
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    state = play(session.id, users, until=5)
    while state["pending"]["kind"] != "roll":
        state = play(session.id, users, until=state["seq"] + 1)
    n, head = state["seq"], session_get(session_id=session.id).head
    stale = taps._read(session.id, s.home_user, "t-mine", ["mine"])
    # The other device's roll goes in first, with other dice, so the two taps differ.
    p = state["pending"]
    theirs = {"client_id": "theirs", "event": {"roll": p["name"], "by": p["actor"], "dice": [1] * p["dice"]}}
    mine = {"client_id": "mine", "event": {"roll": p["name"], "by": p["actor"], "dice": [2] * p["dice"]}}
    assert theirs["event"] != mine["event"]
    other = tap(session.id, s.away_user, theirs).session
    reads = _stale_first_read(monkeypatch, stale)
    with pytest.raises(selectors.StaleHead) as refused:
        tap(session.id, s.home_user, mine, after=head, after_seq=n)
    assert len(reads) == 2, "the lost write read the session again"
    assert refused.value.details["seq"] == n + 1 and refused.value.details["head"] == "theirs"
    assert [e["client_id"] for e in refused.value.details["stored_since"]] == ["theirs"]
    stored = list(ScoringEvent.objects.filter(session=session).values_list("client_id", flat=True))
    assert stored[-1] == "theirs"
    assert not ScoringEvent.objects.filter(client_id="mine").exists()
    current = session_get(session_id=session.id)
    assert (current.seq, current.head, current.version) == (n + 1, "theirs", other.version)
    # The process's engine copy is the stored one, not the one the lost write applied its event to.
    fresh = session_engine.rebuild(current.header, selectors.scored_log(current)["events"])
    assert session_state(current)["state"] == scorer_view.state(fresh)


def test_a_resend_that_lost_the_race_to_its_original_is_answered_as_stored(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = make_fixture()
    users = {"home": s.home_user, "away": s.away_user}
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    state = play(session.id, users, until=3)
    head = session_get(session_id=session.id).head
    stale = taps._read(session.id, s.home_user, "tap-4", ["e-4"])
    first = tap(session.id, s.home_user, entry(next_event(state), "e-4"), tap_id="tap-4")
    _stale_first_read(monkeypatch, stale)
    answered = tap(
        session.id, s.home_user, entry(next_event(state), "e-4"), tap_id="tap-4", after=head, after_seq=3
    )
    assert answered.created is False and answered.session.seq == 4
    assert answered.stored == first.stored
    assert ScoringEvent.objects.filter(session=session, client_id="e-4").count() == 1


def test_the_state_of_a_row_read_before_an_undo_is_built_from_the_session_as_it_is_now() -> None:
    """A reader holding the row of seq 4 while an undo and another event 4 went in must not
    build the state from the new events under the old row's numbers."""
    s = make_fixture()
    users = {"home": s.home_user, "away": s.away_user}
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    play(session.id, users, until=4)
    before = session_get(session_id=session.id)
    undo(session.id, s.home_user, reason="wrong die")
    state = session_state(session_get(session_id=session.id))
    tap(session.id, s.home_user, entry(next_event(state), "again-4"))
    session_engine.forget(session.id)  # as in a process that never saw the session
    with pytest.raises(selectors.SessionChanged):
        selectors.match_of(before)
    shown = session_state(before)
    assert shown["seq"] == 4 and shown["events"][0]["seq"] == 4
    assert shown["version"] == session_get(session_id=session.id).version

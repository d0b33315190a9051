"""A post holds no lock while the engine judges it: it stores the event only if the session is
still at the version it read (compare and set). These tests make a post lose that race on purpose
and check what the client gets and that nothing wrong is stored or cached."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from matches import scorer_view
from scoring import selectors, services, session_engine
from scoring.models import ScoringEvent
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import make_fixture, next_event, play

pytestmark = pytest.mark.django_db


def _stale_first_read(monkeypatch: pytest.MonkeyPatch, stale: tuple[Any, ...]) -> list[int]:
    """The next post reads ``stale`` first (as if another device wrote right after its read),
    then the row as it is. Returns the list of reads made."""
    real = services._read_for_post
    reads: list[int] = []

    def read(session_id: int, user: Any, client_id: str) -> tuple[Any, ...]:
        reads.append(session_id)
        return stale if len(reads) == 1 else real(session_id, user, client_id)

    monkeypatch.setattr(services, "_read_for_post", read)
    return reads


@pytest.mark.parametrize("vendor", ["postgresql", "other"])
def test_a_post_that_lost_the_race_is_a_409_and_stores_nothing(
    monkeypatch: pytest.MonkeyPatch, vendor: str
) -> None:
    if vendor == "other":
        # The embedded default's path (an ORM update and insert in a transaction), here on PostgreSQL.
        monkeypatch.setattr(connection, "vendor", "sqlite")
    s = make_fixture()
    users = {"home": s.home_user, "away": s.away_user}
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    state = play(session.id, users, until=5)
    stale = services._read_for_post(session.id, s.home_user, "mine")
    # The other device's event 6 goes in first.
    other = services.event_post(
        session_id=session.id, user=s.away_user, client_id="theirs", expected_seq=6, **next_event(state)
    )[0]
    reads = _stale_first_read(monkeypatch, stale)
    with pytest.raises(services.StaleSequence) as refused:
        services.event_post(
            session_id=session.id, user=s.home_user, client_id="mine", expected_seq=6, **next_event(state)
        )
    assert len(reads) == 2, "the lost write read the session again"
    assert refused.value.details["seq"] == 6
    stored = list(ScoringEvent.objects.filter(session=session).values_list("client_id", flat=True))
    assert stored[-1] == "theirs"
    assert not ScoringEvent.objects.filter(client_id="mine").exists()
    current = session_get(session_id=session.id)
    assert (current.seq, current.head, current.version) == (6, "theirs", other.version)
    # The process's engine copy is the stored one, not the one the lost write applied its event to.
    fresh = session_engine.rebuild(current.header, selectors.scored_log(current)["events"])
    assert session_state(current)["state"] == scorer_view.state(fresh)


def test_a_resend_that_lost_the_race_to_its_original_is_answered_as_a_resend(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    s = make_fixture()
    users = {"home": s.home_user, "away": s.away_user}
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    state = play(session.id, users, until=3)
    stale = services._read_for_post(session.id, s.home_user, "tap-4")
    services.event_post(
        session_id=session.id, user=s.home_user, client_id="tap-4", expected_seq=4, **next_event(state)
    )
    _stale_first_read(monkeypatch, stale)
    answered, created = services.event_post(
        session_id=session.id, user=s.home_user, client_id="tap-4", expected_seq=4, **next_event(state)
    )
    assert created is False and answered.seq == 4
    assert ScoringEvent.objects.filter(session=session, client_id="tap-4").count() == 1


def test_the_state_of_a_row_read_before_an_undo_is_built_from_the_session_as_it_is_now() -> None:
    """A reader holding the row of seq 4 while an undo and another event 4 went in must not
    build the state from the new events under the old row's numbers."""
    s = make_fixture()
    users = {"home": s.home_user, "away": s.away_user}
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    play(session.id, users, until=4)
    before = session_get(session_id=session.id)
    services.event_undo(session_id=session.id, user=s.home_user, expected_seq=4, reason="wrong die")
    state = session_state(session_get(session_id=session.id))
    services.event_post(
        session_id=session.id, user=s.home_user, client_id="again-4", expected_seq=4, **next_event(state)
    )
    session_engine.forget(session.id)  # as in a process that never saw the session
    with pytest.raises(services.SessionChanged):
        services.match_of(before)
    shown = session_state(before)
    assert shown["seq"] == 4 and shown["events"][0]["seq"] == 4
    assert shown["version"] == session_get(session_id=session.id).version

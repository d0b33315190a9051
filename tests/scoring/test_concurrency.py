"""Two devices posting different taps on the same head: one tap is stored, the other gets a 409."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from kernel.errors import Conflict
from scoring import services, taps
from scoring.models import ScoringEvent
from tests.scoring.helpers import make_fixture


@pytest.mark.django_db(transaction=True)
def test_two_devices_on_the_same_head_give_one_event_and_one_409() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("row locks are tested on PostgreSQL")
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def device(user: object, client_id: str, dice: list[int]) -> None:
        try:
            barrier.wait()
            taps.tap_post(
                session_id=session.id,
                user=user,
                tap_id=f"t-{client_id}",
                after="",
                after_seq=0,
                events=[{"client_id": client_id, "event": {"roll": "kick_off", "by": "both", "dice": dice}}],
            )
            outcomes.append("stored")
        except Conflict as exc:
            outcomes.append(exc.status_code)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=device, args=(s.home_user, "home-1", [6, 1])),
        threading.Thread(target=device, args=(s.away_user, "away-1", [1, 6])),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, outcomes)) == ["409", "stored"]
    assert ScoringEvent.objects.filter(session=session).count() == 1
    session.refresh_from_db()
    assert session.seq == 1


@pytest.mark.django_db(transaction=True)
def test_two_devices_posting_the_same_entry_at_once_store_it_once_and_neither_is_refused() -> None:
    """Both phones post the page's automatic entry in the same instant: whichever write loses the
    race reads again, finds its event stored and is answered as stored (no 409)."""
    if connection.vendor != "postgresql":
        pytest.skip("row locks are tested on PostgreSQL")
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    barrier = threading.Barrier(2)
    outcomes: list[object] = []

    def device(user: object, name: str) -> None:
        try:
            barrier.wait()
            answer = taps.tap_post(
                session_id=session.id,
                user=user,
                tap_id=f"t-{name}",
                after="",
                after_seq=0,
                events=[{"client_id": name, "event": {"roll": "kick_off", "by": "both", "dice": [4, 2]}}],
            )
            outcomes.append("stored" if answer.created else "repeat")
        except Conflict as exc:
            outcomes.append(exc.status_code)
        finally:
            connection.close()

    threads = [
        threading.Thread(target=device, args=(u, n)) for u, n in ((s.home_user, "h"), (s.away_user, "a"))
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(map(str, outcomes)) == ["repeat", "stored"]
    assert ScoringEvent.objects.filter(session=session).count() == 1

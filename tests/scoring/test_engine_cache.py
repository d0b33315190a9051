"""Each server process keeps the engine state of recent sessions; a copy a few events behind
(another worker took the last posts) is brought up to date with only the missing events, and a
copy whose events were undone since is never used."""

from __future__ import annotations

import pytest

from matchplay import scorer_view
from scoring import selectors, services, session_engine
from scoring.models import ScoringEvent
from scoring.selectors import session_get
from tests.scoring.helpers import entry, make_fixture, next_event, play, tap, undo

pytestmark = pytest.mark.django_db


def fresh(session_id: int) -> tuple[object, object, int]:
    """What a process that never saw the session computes."""
    session = session_get(session_id=session_id)
    match = session_engine.rebuild(session.header, selectors.scored_log(session)["events"])
    return scorer_view.state(match), scorer_view.pending_dict(match), len(match.log)


def used(session_id: int) -> tuple[object, object, int]:
    match = selectors.match_of(session_get(session_id=session_id))
    return scorer_view.state(match), scorer_view.pending_dict(match), len(match.log)


def copy_at(session_id: int, seq: int) -> tuple[session_engine.CacheKey, session_engine.Match]:
    """The state after the first ``seq`` live events, as another process would have kept it."""
    session = session_get(session_id=session_id)
    rows = list(
        ScoringEvent.objects.filter(session=session, undone_at__isnull=True, seq__lte=seq)
        .order_by("seq")
        .values_list("client_id", "data")
    )
    match = session_engine.rebuild(session.header, [data for _, data in rows])
    return (seq, rows[-1][0] if rows else ""), match


def test_a_copy_some_events_behind_catches_up_to_the_same_state() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    users = {"home": s.home_user, "away": s.away_user}
    play(session.id, users, until=20)
    # 0 and 5: read from the events table; 12 and 19: from the session's recent events
    for behind in (0, 5, 12, 19):
        key, match = copy_at(session.id, behind)
        session_engine.keep(session.id, key, match)
        assert used(session.id) == fresh(session.id)
        # the caught-up copy is the one handed out (not a rebuild from scratch)
        key, match = copy_at(session.id, behind)
        session_engine.keep(session.id, key, match)
        assert selectors.match_of(session_get(session_id=session.id)) is match


def test_a_copy_whose_events_were_undone_is_not_used() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    users = {"home": s.home_user, "away": s.away_user}
    play(session.id, users, until=10)
    stale_key, stale = copy_at(session.id, 9)
    for _ in (10, 9):
        undo(session.id, s.home_user, reason="wrong")
    # other taps at 9, 10 and 11: the copy at 9 names an event that is no longer live
    play(session.id, users, until=11)
    session_engine.keep(session.id, stale_key, stale)
    match = selectors.match_of(session_get(session_id=session.id))
    assert match is not stale
    session_engine.keep(session.id, selectors.cache_key(session_get(session_id=session.id)), match)
    assert used(session.id) == fresh(session.id)


def test_a_post_on_a_process_with_an_old_copy_is_judged_on_the_current_state() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    users = {"home": s.home_user, "away": s.away_user}
    state = play(session.id, users, until=6)
    key, match = copy_at(session.id, 2)
    session_engine.keep(session.id, key, match)
    actor = state["pending"]["actor"]
    posted = tap(
        session.id, users["away" if actor == "away" else "home"], entry(next_event(state), "after-old-copy")
    )
    assert posted.created and posted.session.seq == 7
    assert used(session.id) == fresh(session.id)

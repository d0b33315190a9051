"""Two phones offline on the same stretch: the first to sync wins, the other phone's taps are kept
on record as a side branch (never applied) and it is told plainly; the log a phone replays."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.branches import branch_message
from scoring.models import ScoringSideBranch
from tests.factories import AdminFactory
from tests.scoring.helpers import make_fixture, next_event, play, tap_body

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _session(s) -> int:
    return (
        api(s.home_user)
        .post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json")
        .json()["session"]
    )


def test_the_log_holds_every_live_event_in_order_for_everyone(django_capture_on_commit_callbacks) -> None:
    s = make_fixture()
    sid = _session(s)
    with django_capture_on_commit_callbacks(execute=True):
        state = play(sid, {"home": s.home_user, "away": s.away_user}, until=12)
    log = APIClient().get(f"/api/v1/scoring-sessions/{sid}/log").json()
    assert log["seq"] == state["seq"] == 12
    assert [e["seq"] for e in log["events"]] == list(range(1, 13))
    assert log["header"]["teams"]["home"]["name"] == state["teams"]["home"]["name"]
    assert all(e["client_id"] and "by" in e["event"] for e in log["events"])
    assert APIClient().get("/api/v1/scoring-sessions/999999/log").status_code == 404


def test_a_side_branch_is_kept_explained_and_never_applied(django_capture_on_commit_callbacks) -> None:
    s = make_fixture()
    sid = _session(s)
    with django_capture_on_commit_callbacks(execute=True):
        state = play(sid, {"home": s.home_user, "away": s.away_user}, until=10)
    stored = APIClient().get(f"/api/v1/scoring-sessions/{sid}/log").json()["events"]
    taps = [{"client_id": f"away-{i}", "event": e["event"]} for i, e in enumerate(stored[6:9])]
    body = {"branch_id": "b-1", "from_seq": 7, "from_minute": "3", "events": taps}
    r = api(s.away_user).post(f"/api/v1/scoring-sessions/{sid}/side-branches", body, format="json")
    assert r.status_code == 201, r.json()
    answer = r.json()
    minute = state["state"]["minute"]
    assert answer["side_branch"]["message"].startswith(
        f"Your 3 taps from 3' were not used: the other phone had already recorded 3'–{minute}'."
    )
    assert answer["state"]["seq"] == 10
    branch = ScoringSideBranch.objects.get()
    assert branch.side == "away" and branch.from_seq == 7 and branch.session_seq == 10
    assert [t["client_id"] for t in branch.events] == ["away-0", "away-1", "away-2"]
    # a resend changes nothing; the session never took the taps
    again = api(s.away_user).post(f"/api/v1/scoring-sessions/{sid}/side-branches", body, format="json")
    assert again.status_code == 200 and again.json()["side_branch"]["created"] is False
    assert ScoringSideBranch.objects.count() == 1
    assert APIClient().get(f"/api/v1/scoring-sessions/{sid}").json()["seq"] == 10


@pytest.mark.parametrize(
    ("change", "status", "needle"),
    [
        ({"from_seq": 11}, 400, "from_seq"),
        ({"events": []}, 400, "events"),
        ({"events": [{"client_id": "x", "event": {"roll": 5}}]}, 422, "events[0].event"),
        (
            {"events": [{"event": {"roll": "situation", "by": "home", "dice": [1, 2]}}]},
            400,
            "events[0].client_id",
        ),
    ],
)
def test_a_bad_side_branch_is_refused_naming_the_field(change, status, needle) -> None:
    s = make_fixture()
    sid = _session(s)
    play(sid, {"home": s.home_user, "away": s.away_user}, until=10)
    body = {
        "branch_id": "b-2",
        "from_seq": 5,
        "events": [{"client_id": "a", "event": {"decide": "x", "by": "home"}}],
    }
    r = api(s.away_user).post(
        f"/api/v1/scoring-sessions/{sid}/side-branches", {**body, **change}, format="json"
    )
    assert r.status_code == status, r.json()
    assert needle in r.json()["error"]["message"]
    assert not ScoringSideBranch.objects.exists()


def test_only_the_clubs_record_side_branches() -> None:
    s = make_fixture()
    sid = _session(s)
    play(sid, {"home": s.home_user, "away": s.away_user}, until=3)
    body = {
        "branch_id": "b",
        "from_seq": 1,
        "events": [{"client_id": "a", "event": {"decide": "x", "by": "home"}}],
    }
    r = api(s.other_user).post(f"/api/v1/scoring-sessions/{sid}/side-branches", body, format="json")
    assert r.status_code == 403
    assert APIClient().post(
        f"/api/v1/scoring-sessions/{sid}/side-branches", body, format="json"
    ).status_code in (
        401,
        403,
    )


def _branch(sid: int, user: Any, branch_id: str, taps: int = 3) -> Any:
    stored = APIClient().get(f"/api/v1/scoring-sessions/{sid}/log").json()["events"]
    events = [{"client_id": f"{branch_id}-{i}", "event": e["event"]} for i, e in enumerate(stored[:taps])]
    body = {"branch_id": branch_id, "from_seq": 1, "from_minute": "1", "events": events}
    return api(user).post(f"/api/v1/scoring-sessions/{sid}/side-branches", body, format="json")


def test_a_session_keeps_a_bounded_number_of_side_branches(settings) -> None:
    settings.SCORER_SIDE_BRANCHES_PER_SESSION = 2
    s = make_fixture()
    sid = _session(s)
    play(sid, {"home": s.home_user, "away": s.away_user}, until=5)
    assert _branch(sid, s.away_user, "b1").status_code == 201
    assert _branch(sid, s.home_user, "b2").status_code == 201
    full = _branch(sid, s.away_user, "b3")
    assert full.status_code == 429, full.json()
    error = full.json()["error"]
    assert error["code"] == "side_branches_full" and error["details"] == {
        "quota": "side_branches",
        "limit": 2,
    }
    assert _branch(sid, s.away_user, "b1").status_code == 200  # a resend is still answered
    assert ScoringSideBranch.objects.count() == 2


def test_side_branch_taps_count_toward_the_clubs_scorer_quota(settings) -> None:
    settings.SCORER_EVENTS_PER_DAY = 50
    s = make_fixture()
    sid = _session(s)
    play(sid, {"home": s.home_user, "away": s.home_user}, until=20)  # the home club posts them all
    assert _branch(sid, s.away_user, "big", taps=20).status_code == 201
    assert _branch(sid, s.away_user, "big-2", taps=20).status_code == 201
    over = _branch(sid, s.away_user, "big-3", taps=20)
    assert over.status_code == 429 and over.json()["error"]["details"]["quota"] == "events"
    assert ScoringSideBranch.objects.count() == 2
    # the away club's quota is spent: its taps are refused too; the home club's are not
    state = APIClient().get(f"/api/v1/scoring-sessions/{sid}").json()
    refused = api(s.away_user).post(
        f"/api/v1/scoring-sessions/{sid}/events",
        tap_body(state, {"client_id": "q-away", **next_event(state)}),
        format="json",
    )
    assert refused.status_code == 429
    taken = api(s.home_user).post(
        f"/api/v1/scoring-sessions/{sid}/events",
        tap_body(state, {"client_id": "q-home", **next_event(state)}),
        format="json",
    )
    assert taken.status_code == 201


def test_the_two_clubs_and_staff_read_the_side_branches_through_the_api_and_the_match_page() -> None:
    s = make_fixture()
    sid = _session(s)
    play(sid, {"home": s.home_user, "away": s.away_user}, until=5)
    assert _branch(sid, s.away_user, "b1").status_code == 201
    url = f"/api/v1/scoring-sessions/{sid}/side-branches"
    for user in (s.home_user, s.away_user, AdminFactory()):
        listed = api(user).get(url)
        assert listed.status_code == 200, listed.json()
        (branch,) = listed.json()["side_branches"]
        assert branch["branch_id"] == "b1" and branch["taps"] == 3 and branch["side"] == "away"
        assert branch["team"] == s.fixture.away_team.name and branch["recorded_by"] == s.away_user.username
        assert branch["from_minute"] == "1" and branch["message"].startswith("Your 3 taps from 1'")
        assert [e["client_id"] for e in branch["events"]] == ["b1-0", "b1-1", "b1-2"]
        assert all(e["text"] for e in branch["events"])
    assert api(s.other_user).get(url).status_code == 403
    assert APIClient().get(url).status_code in (401, 403)
    page = f"/c/{s.fixture.competition.slug}/matches/{s.fixture.pk}/"
    for user, shown in ((s.home_user, True), (s.away_user, True), (s.other_user, False), (None, False)):
        client = Client()
        if user is not None:
            client.force_login(user)
        html = client.get(page).content.decode()
        assert ('data-testid="side-branches"' in html) is shown, user
        if shown:
            assert f"<strong>{s.fixture.away_team.name}</strong>'s phone" in html
            assert "3 taps from 1'" in html


def test_one_tap_not_used_is_said_in_the_singular() -> None:
    one = branch_message(taps=1, from_minute="25", to_minute="25")
    assert one.startswith("Your 1 tap from 25' was not used: the other phone had already recorded 25'–25'.")
    assert branch_message(taps=2, from_minute="", to_minute="9").startswith("Your 2 taps were not used")

"""Two phones offline on the same stretch: the first to sync wins, the other phone's taps are kept
on record as a side branch (never applied) and it is told plainly; the log a phone replays."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scoring.models import ScoringSideBranch
from tests.scoring.helpers import make_fixture, play

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

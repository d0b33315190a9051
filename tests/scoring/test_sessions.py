"""Scoring sessions: idempotent, ordered writes; undo; full time through the results workflow."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission, User
from rest_framework.test import APIClient

from kernel.errors import PermissionDenied
from matches.models import ResultAudit, ResultSubmission
from rules_engine.api import validate_log
from scoring import services
from scoring.models import ScoringEvent, ScoringSession
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import make_fixture, next_event, play, tap, tap_body, undo
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_the_header_comes_from_the_fixture() -> None:
    s = make_fixture(advanced_rules=["A1", "A11"], skills=2)
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    teams = session.header["teams"]
    assert teams["home"]["name"] == s.fixture.home_team.name
    assert teams["away"]["name"] == s.fixture.away_team.name
    assert session.header["advanced_rules"] == ["A1", "A11"]
    assert len(teams["home"]["skills"]) == 2 and len(teams["away"]["skills"]) == 2
    # a second start (another device) resumes the same session
    assert services.session_start(fixture_id=s.fixture.id, user=s.away_user).id == session.id


def test_only_the_two_clubs_write_and_everyone_reads() -> None:
    s = make_fixture()
    with pytest.raises(PermissionDenied):
        services.session_start(fixture_id=s.fixture.id, user=s.other_user)
    r = api(s.home_user).post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json")
    assert r.status_code == 201, r.json()
    sid = r.json()["session"]
    r = api(s.other_user).post(
        f"/api/v1/scoring-sessions/{sid}/events",
        {"tap_id": "t1", "after": "", "after_seq": 0, "events": [{"client_id": "x1", "roll_for_me": True}]},
        format="json",
    )
    assert r.status_code == 403 and r.json()["error"]["code"] == "permission_denied"
    public = APIClient().get(f"/api/v1/scoring-sessions/{sid}")
    assert public.status_code == 200
    assert public.json()["question"].startswith("Both teams: roll for kick-off")
    assert ScoringEvent.objects.count() == 0


def test_staff_score_only_with_the_permission_to_change_fixtures() -> None:
    """is_staff alone is not enough, as for the API's other staff actions."""
    s = make_fixture()
    staff = User.objects.create_user("scoring-staff", is_staff=True)
    with pytest.raises(PermissionDenied):
        services.session_start(fixture_id=s.fixture.id, user=staff)
    staff.user_permissions.add(Permission.objects.get(codename="change_fixture"))
    staff = User.objects.get(pk=staff.pk)  # the permission cache is per instance
    session = services.session_start(fixture_id=s.fixture.id, user=staff)
    assert session.fixture_id == s.fixture.id


def test_a_resent_tap_changes_nothing() -> None:
    s = make_fixture()
    client = api(s.home_user)
    sid = client.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json").json()["session"]
    body = {
        "tap_id": "tap-1",
        "after": "",
        "after_seq": 0,
        "events": [{"client_id": "e-1", "event": {"roll": "kick_off", "by": "both", "dice": [5, 2]}}],
    }
    first = client.post(f"/api/v1/scoring-sessions/{sid}/events", body, format="json")
    assert first.status_code == 201 and first.json()["seq"] == 1 and first.json()["created"] is True
    again = client.post(f"/api/v1/scoring-sessions/{sid}/events", body, format="json")
    assert again.status_code == 200 and again.json()["created"] is False
    assert again.json()["seq"] == 1
    assert again.json()["state"]["version"] == first.json()["state"]["version"]
    assert again.json()["stored"] == first.json()["stored"]
    assert ScoringEvent.objects.filter(session_id=sid).count() == 1


def test_a_post_that_does_not_extend_the_head_is_409_with_the_current_state() -> None:
    s = make_fixture()
    client = api(s.home_user)
    sid = client.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json").json()["session"]
    ok = {
        "tap_id": "t-a",
        "after": "",
        "after_seq": 0,
        "events": [{"client_id": "a", "event": {"roll": "kick_off", "by": "both", "dice": [5, 2]}}],
    }
    assert client.post(f"/api/v1/scoring-sessions/{sid}/events", ok, format="json").status_code == 201
    stale = {
        "tap_id": "t-b",
        "after": "",
        "after_seq": 0,
        "events": [{"client_id": "b", "roll_for_me": True}],
    }
    r = api(s.away_user).post(f"/api/v1/scoring-sessions/{sid}/events", stale, format="json")
    assert r.status_code == 409
    error = r.json()["error"]
    assert error["code"] == "stale_head"
    assert error["details"]["state"]["seq"] == 1 and error["details"]["head"] == "a"
    assert error["details"]["state"]["pending"]["name"] == "kick_off_team"


def test_an_illegal_event_is_422_and_changes_nothing() -> None:
    s = make_fixture()
    client = api(s.home_user)
    sid = client.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json").json()["session"]
    before = client.get(f"/api/v1/scoring-sessions/{sid}").json()
    bad = {"client_id": "a", "event": {"roll": "kick_off", "by": "both", "dice": [7, 2]}}
    r = client.post(f"/api/v1/scoring-sessions/{sid}/events", tap_body(before, bad), format="json")
    assert r.status_code == 422, r.json()
    details = r.json()["error"]["details"]
    assert details["rule"] == "3.2" and details["stage"] == "preparation" and details["turn"] == 0
    assert "between 1 and 6" in details["reason"]
    wrong = {"client_id": "b", "event": {"decide": "target_area", "by": "home", "choice": "CENTRE"}}
    r = client.post(f"/api/v1/scoring-sessions/{sid}/events", tap_body(before, wrong), format="json")
    assert r.status_code == 422
    assert client.get(f"/api/v1/scoring-sessions/{sid}").json() == before
    assert ScoringEvent.objects.filter(session_id=sid).count() == 0


def test_undo_restores_the_exact_previous_state() -> None:
    s = make_fixture(advanced_rules=["A1", "A3", "A4"])
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    users = {"home": s.home_user, "away": s.away_user}
    state = play(session.id, users, until=40)
    before = {k: v for k, v in state.items() if k != "version"}
    after = session_state(tap(session.id, s.home_user, next_event(state)).session)
    assert (after["seq"] == 41 and after["state"] != state["state"]) or after["pending"] != state["pending"]
    undo(session.id, s.away_user, reason="wrong die")
    undone = session_state(session_get(session_id=session.id))
    assert undone["last_undo"]["reason"] == "wrong die"
    assert {k: v for k, v in undone.items() if k not in ("version", "last_undo")} == {
        k: v for k, v in before.items() if k != "last_undo"
    }
    # the undone event stays on record; the same number can be entered again
    assert ScoringEvent.objects.filter(session=session, undone_at__isnull=False).count() == 1
    assert tap(session.id, s.home_user, next_event(state)).session.seq == 41


def test_full_time_with_both_clubs_counts_after_both_confirmations() -> None:
    s = make_fixture(advanced_rules=["A1", "A11"], skills=1)
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    final = play(session.id, {"home": s.home_user, "away": s.away_user})
    assert final["status"] == "full_time" and final["pending"] is None
    assert final["participants"] == ["away", "home"]
    log = services.scored_log(session_get(session_id=session.id))
    report = validate_log(log)
    assert report.valid, report.errors[:3]
    assert any(e.get("note") == "rolled by the app" for e in log["events"])

    first = services.session_confirm(session_id=session.id, user=s.away_user)
    assert first.status == ScoringSession.Status.FULL_TIME and first.submission_id is None
    done = services.session_confirm(session_id=session.id, user=s.home_user)
    assert done.status == ScoringSession.Status.SUBMITTED
    fixture = Fixture.objects.get(id=s.fixture.id)
    assert fixture.status == Fixture.Status.CONFIRMED
    assert fixture.result.home_goals == report.result.to_dict()["score"]["home"]
    submission = ResultSubmission.objects.get(id=done.submission_id)
    assert submission.validation_status == ResultSubmission.Validation.VALID
    assert submission.submitted_by_id == s.away_user.pk
    actions = list(ResultAudit.objects.filter(fixture=fixture).values_list("action", "note"))
    assert [a for a, _ in actions][:1] == [ResultAudit.Action.SUBMIT] or ResultAudit.Action.SUBMIT in [
        a for a, _ in actions
    ]
    assert any(a == ResultAudit.Action.CONFIRM and "live-scored" in n for a, n in actions)


def test_full_time_with_one_club_needs_the_usual_confirmation() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    play(session.id, {"home": s.home_user, "away": s.home_user})
    done = services.session_confirm(session_id=session.id, user=s.home_user)
    assert done.status == ScoringSession.Status.SUBMITTED
    fixture = Fixture.objects.get(id=s.fixture.id)
    assert fixture.status == Fixture.Status.SUBMITTED


def test_abandon_is_recorded_and_frees_the_fixture() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    r = api(s.away_user).post(
        f"/api/v1/scoring-sessions/{session.id}/abandon", {"reason": "rain"}, format="json"
    )
    assert r.status_code == 200 and r.json()["status"] == "abandoned" and r.json()["abandon_reason"] == "rain"
    assert services.session_start(fixture_id=s.fixture.id, user=s.home_user).id != session.id

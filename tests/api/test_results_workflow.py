"""The results workflow through the API: a club acts only on its own fixtures, the opponent confirms."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from matches.models import ResultSubmission
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def fixture_c(cup) -> Fixture:
    # Group C is unplayed in the light cup.
    return (
        Fixture.objects.filter(group__name="C", round=1)
        .select_related("home_team", "away_team")
        .order_by("match_number")
        .first()
    )


def test_club_submits_and_opponent_confirms(cup, fixture_c) -> None:
    home = client_for(cup.users[fixture_c.home_team.name])
    away = client_for(cup.users[fixture_c.away_team.name])
    response = home.post(
        f"/api/v1/fixtures/{fixture_c.pk}/submit-result",
        {"home_goals": 2, "away_goals": 1, "cards": [{"team": "away", "kind": "yellow"}]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "open"
    response = away.post(f"/api/v1/fixtures/{fixture_c.pk}/confirm")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["status"] == "confirmed"
    assert body["result"]["home_goals"] == 2 and body["result"]["is_simulated"] is False
    # The cached standings follow at once.
    tables = APIClient().get(f"/api/v1/competitions/{cup.competition.slug}/standings").json()
    group_c = next(t for t in tables if t["group"] == "C")
    leader = group_c["rows"][0]
    assert leader["team"] == fixture_c.home_team.name and leader["points"] == 3


def test_a_club_may_not_act_on_another_clubs_fixture(cup, fixture_c) -> None:
    outsider = client_for(cup.users["Brazil"])
    response = outsider.post(
        f"/api/v1/fixtures/{fixture_c.pk}/submit-result", {"home_goals": 1, "away_goals": 0}, format="json"
    )
    assert response.status_code == 403
    assert response.json()["error"]["code"] == "permission_denied"


def test_submitter_cannot_confirm_own_result(cup, fixture_c) -> None:
    home = client_for(cup.users[fixture_c.home_team.name])
    home.post(
        f"/api/v1/fixtures/{fixture_c.pk}/submit-result", {"home_goals": 0, "away_goals": 0}, format="json"
    )
    response = home.post(f"/api/v1/fixtures/{fixture_c.pk}/confirm")
    assert response.status_code == 403
    assert "opponent" in response.json()["error"]["message"]


def test_dispute_then_staff_resolves(cup, fixture_c) -> None:
    home = client_for(cup.users[fixture_c.home_team.name])
    away = client_for(cup.users[fixture_c.away_team.name])
    home.post(
        f"/api/v1/fixtures/{fixture_c.pk}/submit-result", {"home_goals": 3, "away_goals": 0}, format="json"
    )
    response = away.post(f"/api/v1/fixtures/{fixture_c.pk}/dispute", {"reason": "It was 0-3"}, format="json")
    assert response.status_code == 200 and response.json()["status"] == "disputed"
    # A club cannot resolve; staff can.
    response = away.post(f"/api/v1/fixtures/{fixture_c.pk}/resolve", {"home_goals": 0, "away_goals": 3})
    assert response.status_code == 403
    staff = client_for(cup.admin)
    response = staff.post(
        f"/api/v1/fixtures/{fixture_c.pk}/resolve",
        {"home_goals": 0, "away_goals": 3, "note": "log checked"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    assert response.json()["result"]["source"] == "admin"
    audit = away.get(f"/api/v1/fixtures/{fixture_c.pk}/audit").json()
    assert [a["action"] for a in audit] == ["submit", "dispute", "resolve"]
    # The public sees what counted, without names (tests/matches/test_audit_visibility.py).
    audit = APIClient().get(f"/api/v1/fixtures/{fixture_c.pk}/audit").json()
    assert [(a["action"], a["actor"]) for a in audit] == [("resolve", None)]


def test_conflict_and_validation_errors_have_the_error_shape(cup, fixture_c) -> None:
    home = client_for(cup.users[fixture_c.home_team.name])
    response = home.post(f"/api/v1/fixtures/{fixture_c.pk}/confirm")
    assert response.status_code == 409
    assert response.json()["error"]["code"] == "conflict"
    response = home.post(
        f"/api/v1/fixtures/{fixture_c.pk}/submit-result", {"home_goals": -1, "away_goals": "x"}, format="json"
    )
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["code"] == "validation_error"
    assert set(error["details"]) == {"home_goals", "away_goals"}
    assert error["message"].startswith("home_goals:")
    response = home.post(
        f"/api/v1/fixtures/{fixture_c.pk}/submit-result",
        {"home_goals": 1, "away_goals": 0, "cards": [{"team": "left", "kind": "yellow"}]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith("cards[0].team:")


def test_group_match_with_penalties_is_refused_by_the_service(cup, fixture_c) -> None:
    home = client_for(cup.users[fixture_c.home_team.name])
    response = home.post(
        f"/api/v1/fixtures/{fixture_c.pk}/submit-result",
        {"home_goals": 1, "away_goals": 1, "home_penalties": 4, "away_penalties": 3},
        format="json",
    )
    assert response.status_code == 400
    assert "knockout" in response.json()["error"]["message"]


def test_staff_override_needs_a_note(cup, fixture_c) -> None:
    staff = client_for(cup.admin)
    response = staff.post(f"/api/v1/fixtures/{fixture_c.pk}/override", {"home_goals": 1, "away_goals": 0})
    assert response.status_code == 400 and "note" in response.json()["error"]["message"]


def test_submissions_are_visible_to_the_clubs_involved_only(cup, fixture_c) -> None:
    home = client_for(cup.users[fixture_c.home_team.name])
    home.post(
        f"/api/v1/fixtures/{fixture_c.pk}/submit-result", {"home_goals": 1, "away_goals": 0}, format="json"
    )
    mine = home.get(f"/api/v1/submissions?fixture={fixture_c.pk}").json()
    assert mine["count"] == 1
    other = client_for(get_user_model().objects.create_user("nobody", password="a-long-password-1"))
    assert other.get(f"/api/v1/submissions?fixture={fixture_c.pk}").json()["count"] == 0


def test_staff_has_a_fixture_simulated_now(cup, fixture_c, django_capture_on_commit_callbacks) -> None:
    staff = client_for(cup.admin)
    with django_capture_on_commit_callbacks(execute=True):
        response = staff.post(f"/api/v1/fixtures/{fixture_c.pk}/forfeit", {}, format="json")
    assert response.status_code == 200, response.json()
    match = APIClient().get(f"/api/v1/matches/{fixture_c.pk}").json()
    assert match["status"] == "simulated"
    assert match["full_result"]["is_simulated"] is True
    # The public match page marks it, says why, and replays the simulated log.
    html = APIClient().get(f"/c/{cup.competition.slug}/matches/{fixture_c.pk}/").content.decode()
    assert "Simulated result." in html and "started by an administrator" in html
    assert 'id="replay-pitch"' in html
    replay = APIClient().get(f"/c/{cup.competition.slug}/matches/{fixture_c.pk}/replay.json").json()
    assert replay["error"] is None and replay["finished"] is True
    final = replay["frames"][-1]["score"]
    assert final == [match["full_result"]["home_goals"], match["full_result"]["away_goals"]]


def test_a_club_declares_a_forfeit_only_for_its_own_fixture(cup, fixture_c) -> None:
    outsider = client_for(cup.users["Brazil"])
    assert outsider.post(f"/api/v1/fixtures/{fixture_c.pk}/forfeit", {}, format="json").status_code == 403


def test_token_authentication_for_club_scripts(cup, fixture_c) -> None:
    from league.demo import CLUB_PASSWORD, club_username

    client = APIClient()
    response = client.post(
        "/api/v1/auth/token",
        {"username": club_username(fixture_c.home_team.name), "password": CLUB_PASSWORD},
        format="json",
    )
    assert response.status_code == 200, response.json()
    token = response.json()["token"]
    client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    response = client.post(
        f"/api/v1/fixtures/{fixture_c.pk}/submit-result", {"home_goals": 1, "away_goals": 1}, format="json"
    )
    assert response.status_code == 201
    bad = APIClient().post("/api/v1/auth/token", {"username": "x", "password": "y"}, format="json")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "validation_error"


def test_a_second_report_replaces_the_first_only_when_asked(cup, fixture_c) -> None:
    home = client_for(cup.users[fixture_c.home_team.name])
    url = f"/api/v1/fixtures/{fixture_c.pk}/submit-result"
    assert home.post(url, {"home_goals": 1, "away_goals": 0}, format="json").status_code == 201
    again = home.post(url, {"home_goals": 2, "away_goals": 0}, format="json")
    assert again.status_code == 409
    error = again.json()["error"]
    assert error["code"] == "conflict" and "replace" in error["details"]
    assert ResultSubmission.objects.filter(fixture=fixture_c).count() == 1, "nothing replaced silently"
    replaced = home.post(url, {"home_goals": 2, "away_goals": 0, "replace": True}, format="json")
    assert replaced.status_code == 201, replaced.content
    statuses = dict(ResultSubmission.objects.filter(fixture=fixture_c).values_list("home_goals", "status"))
    assert statuses == {1: "superseded", 2: "open"}, "the earlier report stays in the history"


def test_the_same_report_again_is_answered_with_the_stored_one(cup, fixture_c) -> None:
    """A client retrying after a timeout (its report stored, the answer lost) got a 409."""
    home = client_for(cup.users[fixture_c.home_team.name])
    url = f"/api/v1/fixtures/{fixture_c.pk}/submit-result"
    body = {"home_goals": 1, "away_goals": 0, "cards": [{"team": "home", "kind": "yellow"}]}
    first = home.post(url, body, format="json")
    assert first.status_code == 201, first.content
    again = home.post(url, body, format="json")
    assert again.status_code == 200, again.content
    assert again.json()["id"] == first.json()["id"]
    assert ResultSubmission.objects.filter(fixture=fixture_c).count() == 1
    other_cards = {**body, "cards": []}
    assert home.post(url, other_cards, format="json").status_code == 409, "a different report is no resend"

"""Turn-log validation errors in the API list turn, stage, rule and reason."""

from __future__ import annotations

import copy

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from rules_engine.api import play_random

pytestmark = pytest.mark.django_db

HEADER = {
    "advanced_rules": [],
    "teams": {"home": {"name": "Home", "formation": "4-4-2"}, "away": {"name": "Away", "formation": "4-3-3"}},
}


@pytest.fixture(scope="module")
def valid_log() -> dict:
    return play_random(HEADER, seed=7).to_log()


def corrupted(log: dict) -> dict:
    """Change one die of a control-check roll in the middle of the match."""
    bad = copy.deepcopy(log)
    events = bad["events"]
    for i in range(len(events) // 2, len(events)):
        event = events[i]
        if "dice" in event and len(event["dice"]) == 1:
            event["dice"] = [7]  # not a die result at all
            return bad
    raise AssertionError("no single-die roll found")


@pytest.fixture
def client(db) -> APIClient:
    user = get_user_model().objects.create_user("scorer", password="a-long-password-3")
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_valid_log_returns_the_derived_result(client: APIClient, valid_log: dict) -> None:
    response = client.post("/api/v1/turn-logs/validate", {"turn_log": valid_log}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["valid"] is True
    assert set(response.json()["result"]["score"]) == {"home", "away"}


def test_invalid_log_lists_turn_stage_rule_reason(client: APIClient, valid_log: dict) -> None:
    response = client.post("/api/v1/turn-logs/validate", {"turn_log": corrupted(valid_log)}, format="json")
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_turn_log"
    first = error["details"]["errors"][0]
    assert {"turn", "stage", "rule", "reason", "path"} <= set(first)
    assert first["turn"] is not None and first["rule"] and first["path"].startswith("$.events[")
    assert "turn" in error["message"]


def test_malformed_log_names_the_json_path(client: APIClient) -> None:
    response = client.post(
        "/api/v1/turn-logs/validate", {"turn_log": {"format": "fuba-log/1", "teams": 3}}, format="json"
    )
    assert response.status_code == 422
    paths = [e["path"] for e in response.json()["error"]["details"]["errors"]]
    assert "$.teams" in paths


def test_turn_log_must_be_an_object(client: APIClient) -> None:
    response = client.post("/api/v1/turn-logs/validate", {}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {"turn_log": ["This field is required."]}


def test_anonymous_cannot_use_the_validator(valid_log: dict, db) -> None:
    response = APIClient().post("/api/v1/turn-logs/validate", {"turn_log": valid_log}, format="json")
    assert response.status_code in (401, 403)


def test_submitted_invalid_log_is_rejected_with_turn_stage_rule(
    cup, valid_log, django_capture_on_commit_callbacks
):
    from tournaments.models import Fixture

    fixture = (
        Fixture.objects.filter(group__name="D", round=1).select_related("home_team", "away_team").first()
    )
    home = APIClient()
    home.force_authenticate(cup.users[fixture.home_team.name])
    from matches.simulation import fixture_simulate

    # the log must be a record of this fixture: the engine plays one for it
    log = corrupted(fixture_simulate(fixture=fixture).log)
    with django_capture_on_commit_callbacks(execute=True):
        response = home.post(
            f"/api/v1/fixtures/{fixture.pk}/submit-result",
            {"home_goals": 1, "away_goals": 0, "turn_log": log},
            format="json",
        )
    assert response.status_code == 201, response.json()
    submission = home.get(f"/api/v1/submissions/{response.json()['id']}").json()
    assert submission["validation_status"] == "invalid"
    assert submission["status"] == "rejected"
    first = submission["validation_errors"][0]
    assert first["turn"] is not None and first["rule"] and first["reason"]


def test_validation_has_its_own_rate_limit(client: APIClient) -> None:
    from league.api.result_views import TurnLogValidationThrottle

    limit = int(TurnLogValidationThrottle().get_rate().split("/")[0])
    statuses = [
        client.post("/api/v1/turn-logs/validate", {"turn_log": {}}, format="json").status_code
        for _ in range(limit + 1)
    ]
    assert statuses[:limit] == [422] * limit
    response = client.post("/api/v1/turn-logs/validate", {"turn_log": {}}, format="json")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert response.json()["error"]["details"]["retry_after_seconds"] >= 1

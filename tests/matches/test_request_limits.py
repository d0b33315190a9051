"""Request size and storage, 14.6): 413 with the error body above the limits on every
endpoint, replaced submissions keep no log, a daily storage quota per club."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.models import MatchLog, ResultSubmission
from matches.simulation import fixture_simulate
from matches.turn_logs import turn_log_size
from tests.factories import CompetitionFactory, team_with_member
from tournaments.models import Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db

MIB = 1024 * 1024


@pytest.fixture
def club_fixtures() -> dict[str, Any]:
    competition = CompetitionFactory()
    teams = [team_with_member(competition, name) for name in ("Home", "Away", "Third")]
    stage = stage_create(
        competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[t for t, _ in teams]
    )
    fixtures = fixture_generate(stage=stage)
    home, user = teams[0]
    own = [f for f in fixtures if home.id in (f.home_team_id, f.away_team_id)]
    client = APIClient()
    client.force_authenticate(user)
    # a log of the first fixture: a log of other teams is refused at once)
    log = fixture_simulate(fixture=own[0]).log
    return {"fixtures": own, "client": client, "user": user, "log": log}


def _submit(client: APIClient, fixture_id: int, log: Any, *, replace: bool = False) -> Any:
    body: dict[str, Any] = {"home_goals": 1, "away_goals": 0, "replace": replace}
    if log is not None:
        body["turn_log"] = log
    return client.post(f"/api/v1/fixtures/{fixture_id}/submit-result", body, format="json")


@pytest.mark.parametrize(
    ("path", "api"),
    [
        ("/api/v1/turn-logs/validate", True),
        ("/api/v1/fixtures/1/submit-result", True),
        ("/api/v1/auth/token", True),
        ("/login/", False),
        ("/admin/login/", False),
    ],
)
def test_a_body_over_the_limit_is_413_not_500(path: str, api: bool, caplog: pytest.LogCaptureFixture) -> None:
    """The finding: bodies over 2.5 MiB answered 500 (RequestDataTooBig, a traceback at ERROR)."""
    body = json.dumps({"turn_log": {"events": ["x" * 3 * MIB]}})
    client = APIClient() if api else Client()
    with caplog.at_level(logging.WARNING):
        response = client.generic("POST", path, body, content_type="application/json")
    assert response.status_code == 413
    if api:
        error = response.json()["error"]
        assert error["code"] == "payload_too_large"
        assert error["details"]["max_bytes"] == 1024 * 1024
        assert "maximum is 1,048,576 bytes" in error["message"]
    else:
        assert b"maximum is 1,048,576 bytes" in response.content
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_turn_log_over_its_own_limit_is_413_naming_the_field(club_fixtures, settings) -> None:
    log = club_fixtures["log"]
    settings.TURN_LOG_MAX_BYTES = turn_log_size(log) - 1
    client = club_fixtures["client"]
    for response in (
        client.post("/api/v1/turn-logs/validate", {"turn_log": log}, format="json"),
        _submit(client, club_fixtures["fixtures"][0].id, log),
    ):
        assert response.status_code == 413, response.content
        error = response.json()["error"]
        assert error["code"] == "payload_too_large" and error["details"]["field"] == "turn_log"
    assert not ResultSubmission.objects.exists(), "nothing half-written"


def test_replaced_submissions_keep_no_log(club_fixtures, django_capture_on_commit_callbacks) -> None:
    """The finding: replaced submissions kept their logs (150 × 2.3 MB, +353 MB)."""
    client, fixture, log = club_fixtures["client"], club_fixtures["fixtures"][0], club_fixtures["log"]
    with django_capture_on_commit_callbacks(execute=False):  # validation stays to come
        first = _submit(client, fixture.id, log).json()["id"]
        second = _submit(client, fixture.id, log, replace=True).json()["id"]
        third = _submit(client, fixture.id, log, replace=True).json()["id"]
    assert list(MatchLog.objects.filter(fixture=fixture).values_list("submission_id", flat=True)) == [third]
    replaced = ResultSubmission.objects.filter(id__in=[first, second])
    assert {s.status for s in replaced} == {ResultSubmission.Status.SUPERSEDED}
    assert {s.validation_status for s in replaced} == {ResultSubmission.Validation.NOT_REQUIRED}
    assert {s.log_bytes for s in replaced} == {turn_log_size(log)}, "what was sent still counts"


def test_a_club_has_a_daily_storage_quota(club_fixtures, settings) -> None:
    log = club_fixtures["log"]
    size = turn_log_size(log)
    settings.CLUB_LOG_QUOTA_BYTES = 2 * size + size // 2
    client, fixture = club_fixtures["client"], club_fixtures["fixtures"][0]
    assert _submit(client, fixture.id, log).status_code == 201
    assert _submit(client, fixture.id, log, replace=True).status_code == 201  # a replacement counts too
    response = _submit(client, fixture.id, log, replace=True)
    assert response.status_code == 429
    error = response.json()["error"]
    assert error["code"] == "storage_quota_exceeded"
    assert "daily quota" in error["message"] and error["details"]["used_bytes"] == 2 * size
    assert _submit(client, fixture.id, log=None, replace=True).status_code == 201, (
        "a score without a log still goes"
    )

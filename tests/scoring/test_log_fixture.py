"""A turn log must belong to its fixture: API, upload and scorer name each difference."""

from __future__ import annotations

import copy

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from matches.log_fixture import fixture_header, log_fixture_differences
from matches.models import ResultSubmission
from tests.scoring.helpers import make_fixture
from tournaments.models import Suspension

pytestmark = pytest.mark.django_db


def _example() -> dict:
    from rules_engine.autoplay import example_log

    return example_log(2026)


def test_the_docs_example_is_not_a_log_of_an_unrelated_fixture() -> None:
    s = make_fixture(advanced_rules=[])
    errors = log_fixture_differences(s.fixture, _example())
    paths = {e["path"] for e in errors}
    assert {
        "$.advanced_rules",
        "$.teams.home.name",
        "$.teams.away.name",
        "$.teams.home.formation",
        "$.teams.away.formation",
        "$.teams.home.roles",
        "$.teams.home.skills",
        "$.teams.away.skills",
    } <= paths
    text = " ".join(e["reason"] for e in errors)
    assert s.fixture.home_team.name in text and "A11" in text


def test_each_difference_is_named() -> None:
    s = make_fixture(advanced_rules=["A1", "A11"], skills=2)
    log = {**fixture_header(s.fixture), "events": []}
    assert log_fixture_differences(s.fixture, log) == []
    bad = copy.deepcopy(log)
    bad["advanced_rules"] = ["A1"]
    bad["teams"]["home"]["formation"] = "3-4-3"
    bad["teams"]["away"]["skills"] = ["diver", "runner"]
    bad["teams"]["away"]["players_short"] = 1
    errors = {e["path"]: e["reason"] for e in log_fixture_differences(s.fixture, bad)}
    assert "A11" in errors["$.advanced_rules"]
    assert "3-4-3" in errors["$.teams.home.formation"]
    assert "diver" in errors["$.teams.away.skills"]
    assert "serves no suspension" in errors["$.teams.away.players_short"]


def test_a_suspended_team_starts_one_short() -> None:
    s = make_fixture()
    Suspension.objects.create(
        competition=s.fixture.competition,
        team=s.fixture.home_team,
        reason=Suspension.Reason.RED_CARD,
        source_fixture=s.fixture,
        served_in=s.fixture,
    )
    header = fixture_header(s.fixture)
    assert header["teams"]["home"]["players_short"] == 1
    log = {**header, "events": []}
    log["teams"]["home"].pop("players_short")
    (error,) = log_fixture_differences(s.fixture, log)
    assert error["path"] == "$.teams.home.players_short" and "one player short" in error["reason"]


def test_the_api_rejects_a_log_of_another_match_naming_each_difference() -> None:
    s = make_fixture(advanced_rules=[])
    client = APIClient()
    client.force_authenticate(s.home_user)
    r = client.post(
        f"/api/v1/fixtures/{s.fixture.id}/submit-result",
        {"home_goals": 1, "away_goals": 1, "turn_log": _example()},
        format="json",
    )
    assert r.status_code == 422, r.json()
    error = r.json()["error"]
    assert error["code"] == "log_not_for_fixture"
    paths = {e["path"] for e in error["details"]["errors"]}
    assert "$.teams.home.name" in paths and "$.advanced_rules" in paths
    assert "formation" in error["message"] and s.fixture.home_team.name in error["message"]
    assert not ResultSubmission.objects.filter(fixture=s.fixture).exists()


def test_the_upload_rejects_a_log_of_another_match(client) -> None:
    import json

    s = make_fixture(advanced_rules=[])
    client.force_login(s.home_user)
    url = f"/c/{s.fixture.competition.slug}/matches/{s.fixture.id}/submit"
    upload = SimpleUploadedFile("log.json", json.dumps(_example()).encode(), content_type="application/json")
    r = client.post(url, {"home_goals": 1, "away_goals": 1, "turn_log": upload}, follow=True)
    text = r.content.decode()
    assert "not a log of this fixture" in text and "$.teams.home.name" in text
    assert not ResultSubmission.objects.filter(fixture=s.fixture).exists()

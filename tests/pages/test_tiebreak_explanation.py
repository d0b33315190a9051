"""The standings page and API say which tie-breaker decided a place, and only where one did."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from matches import services as results
from tournaments.bracket import Score
from tournaments.models import Fixture
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(db):
    staff = get_user_model().objects.create_user("ref", password="a-long-password-9", is_staff=True)
    competition = competition_create(name="Tiny League", slug="tiny")
    names = ["Ajax", "Benfica", "Celtic"]
    teams = {n: team_create(competition=competition, name=n) for n in names}
    stage = stage_create(
        competition=competition, name="Season", kind="round_robin", teams=list(teams.values())
    )
    fixture_generate(stage=stage)
    # Ajax and Benfica both beat Celtic (3-0 and 1-0) and draw each other: level on points,
    # Ajax ahead on goal difference; Celtic last on points alone.
    scores = {("Ajax", "Celtic"): (3, 0), ("Benfica", "Celtic"): (1, 0), ("Ajax", "Benfica"): (1, 1)}
    for f in Fixture.objects.filter(stage=stage).select_related("home_team", "away_team"):
        key = (f.home_team.name, f.away_team.name)
        home, away = scores[key] if key in scores else scores[key[::-1]][::-1]
        results.result_override(fixture_id=f.pk, user=staff, score=Score(home, away), note="test")
    return competition


def test_page_explains_goal_difference(client: Client, league) -> None:
    html = client.get("/c/tiny/standings/").content.decode()
    assert "Level on points with Ajax; placed below on goal difference (3 v 1)." in html
    assert html.count('class="tiebreak"') == 1  # Celtic's place was decided by points: no note


def test_api_gives_criterion_and_sentence(league) -> None:
    rows = Client().get("/api/v1/competitions/tiny/standings").json()[0]["rows"]
    assert [r["team"] for r in rows] == ["Ajax", "Benfica", "Celtic"]
    assert rows[1]["decided_by"] == "goal_difference"
    assert rows[1]["explanation"].startswith("Level on points with Ajax")
    assert rows[2]["decided_by"] == "points" and rows[2]["explanation"] == ""

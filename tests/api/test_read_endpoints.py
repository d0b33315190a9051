"""Read endpoints: filters, standings (cached, no query when warm), matches with logs."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def test_fixture_filters(cup) -> None:
    client = APIClient()
    slug = cup.competition.slug
    all_ = client.get(f"/api/v1/fixtures?competition={slug}").json()
    assert all_["count"] == Fixture.objects.filter(competition=cup.competition).count()
    team = cup.teams["Brazil"]
    mine = client.get(f"/api/v1/fixtures?competition={slug}&team={team.pk}").json()["results"]
    assert mine and all(team.pk in (f["home_team"]["id"], (f["away_team"] or {}).get("id")) for f in mine)
    sims = client.get(f"/api/v1/fixtures?competition={slug}&status=simulated").json()["results"]
    assert sims and all(f["result"]["is_simulated"] for f in sims)
    round2 = client.get(f"/api/v1/fixtures?competition={slug}&round=2&stage={cup.groups_stage.pk}").json()
    assert round2["count"] == 16
    first = Fixture.objects.filter(stage=cup.groups_stage).order_by("kickoff").first()
    day = client.get(f"/api/v1/fixtures?competition={slug}&date={first.kickoff.date().isoformat()}").json()
    assert day["count"] == 16
    bad = client.get("/api/v1/fixtures?date=yesterday")
    assert bad.status_code == 400 and bad.json()["error"]["details"]["date"]


def test_standings_endpoint_is_cached(cup) -> None:
    client = APIClient()
    url = f"/api/v1/competitions/{cup.competition.slug}/standings"
    tables = client.get(url).json()
    assert len(tables) == 8 and tables[0]["group"] == "A"
    assert tables[0]["tiebreak_order"][0] == "points"
    assert {"position", "team", "points", "decided_by", "explanation"} <= set(tables[0]["rows"][0])
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    assert len(queries) == 0
    assert client.get("/api/v1/competitions/nope/standings").status_code == 404


def test_matches_endpoint_lists_public_logs(cup) -> None:
    client = APIClient()
    match = client.get(f"/api/v1/matches/{cup.simulated[0]}").json()
    assert match["full_result"]["is_simulated"] is True
    assert match["logs"] and match["logs"][0]["is_simulated"] is True
    log = client.get(f"/api/v1/match-logs/{match['logs'][0]['id']}").json()
    assert log["data"]["format"] == "fuba-log/1"


def test_teams_skills_suspensions_coaches(cup) -> None:
    client = APIClient()
    teams = client.get(f"/api/v1/teams?competition={cup.competition.slug}").json()
    assert teams["count"] == 32 and teams["results"][0]["coach"]["name"]
    assert client.get("/api/v1/skills?position_group=goalkeeper").json()["count"] >= 1
    assert client.get(f"/api/v1/suspensions?competition={cup.competition.slug}").status_code == 200
    assert client.get("/api/v1/coaches?name=sato").json()["count"] == 1


def test_staff_generates_fixtures(db) -> None:
    from django.contrib.auth import get_user_model

    from tournaments.services.clubs import team_create
    from tournaments.services.competitions import competition_create
    from tournaments.services.stages import stage_create

    competition = competition_create(name="League", slug="league")
    teams = [team_create(competition=competition, name=f"Club {i}") for i in range(6)]
    stage = stage_create(competition=competition, name="Season", kind="round_robin", legs=2, teams=teams)
    staff = get_user_model().objects.create_user(
        "boss", password="a-long-password-2", is_staff=True, is_superuser=True
    )
    client = APIClient()
    client.force_authenticate(staff)
    response = client.post(f"/api/v1/stages/{stage.pk}/generate-fixtures", {}, format="json")
    assert response.status_code == 201 and len(response.json()) == 30
    again = client.post(f"/api/v1/stages/{stage.pk}/generate-fixtures", {}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "conflict"

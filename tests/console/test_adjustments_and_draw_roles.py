"""Issue 32 items 2 and 4: point deductions with a reason in the console and the API, by the
competition's organisers (not only staff), shown in the standings; every record of a set-up act
(a point adjustment, a draw) names the person and their role."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.models import PointAdjustment
from matches.standings.selectors import standings_table
from tests.factories import UserFactory
from tournaments.models import Competition, Draw, Team
from tournaments.services.roles import role_grant
from tournaments.shapes import SHAPE_PRESETS, competition_create_from_shape

pytestmark = pytest.mark.django_db


@pytest.fixture
def people() -> dict[str, Any]:
    return {n: UserFactory(username=n, email=f"{n}@example.org") for n in ("olga", "colin", "desmond")}


@pytest.fixture
def cup(people) -> Competition:
    teams = [{"name": f"T{i}", "country": f"C{i}"} for i in range(8)]
    cup = competition_create_from_shape(
        name="Deduction Cup",
        slug="deduction-cup",
        shape=SHAPE_PRESETS["cup_8"][1],
        teams=teams,
        creator=people["olga"],
    )
    role_grant(competition=cup, user=people["colin"], kind="co_organiser", by=people["olga"])
    role_grant(competition=cup, user=people["desmond"], kind="results_desk", by=people["olga"])
    return cup


def _client(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_an_organiser_deducts_points_with_a_reason_shown_in_the_standings(cup, people) -> None:
    olga = _client(people["olga"])
    assert olga.post(f"/console/c/{cup.slug}/draw/", {"seed": 5}).status_code == 302
    team = Team.objects.get(competition=cup, name="T3")
    url = f"/console/c/{cup.slug}/rules/"
    body = {"save_adjustment": "1", "team": team.pk, "points": -3, "reason": "Fielded a banned player"}
    assert olga.post(url, body).status_code == 302
    listed = olga.get(url).content.decode()
    assert "T3 -3: Fielded a banned player · olga (organiser)" in listed
    stage = cup.stages.get(kind="groups")
    row = next(r for r in standings_table(stage=stage, group=team.groups.get()) if r.team == team.pk)
    assert (row.points, row.adjustment) == (-3, -3)
    public = Client().get(f"/c/{cup.slug}/").content.decode()
    assert 'data-testid="adjustment">-3' in public
    refused = olga.post(url, body | {"reason": " "})
    assert refused.status_code == 200 and PointAdjustment.objects.count() == 1


def test_points_are_adjusted_through_the_api_by_organisers_not_the_results_desk(cup, people) -> None:
    team = Team.objects.get(competition=cup, name="T1")
    body = {"team_id": team.pk, "points": -1, "reason": "Late team sheet"}
    made = _api(people["colin"]).post("/api/v1/point-adjustments", body, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["created_by_role"] == "co-organiser"
    assert _api(people["desmond"]).post("/api/v1/point-adjustments", body, format="json").status_code == 403
    assert _client(people["desmond"]).get(f"/console/c/{cup.slug}/rules/").status_code == 403
    assert PointAdjustment.objects.count() == 1


def test_a_draw_names_who_drew_and_their_role(cup, people) -> None:
    colin = _client(people["colin"])
    assert colin.post(f"/console/c/{cup.slug}/draw/", {"seed": 7}).status_code == 302
    draw = Draw.objects.get(stage__competition=cup)
    assert (draw.drawn_by.username, draw.drawn_by_role) == ("colin", "co-organiser")
    assert "Drawn by colin (co-organiser)" in colin.get(f"/console/c/{cup.slug}/draw/").content.decode()
    api = _api(people["olga"]).get(f"/api/v1/stages/{draw.stage_id}/draws").json()
    assert (api[0]["drawn_by"], api[0]["drawn_by_role"]) == ("colin", "co-organiser")

"""Point adjustments: staff deduct points with a reason; the table shows the column and explains it."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from matches.models import PointAdjustment

pytestmark = pytest.mark.django_db


def _group(tables: list[dict], name: str) -> dict:
    return next(t for t in tables if t["group"] == name)


def test_a_point_deduction_in_the_table(cup, client) -> None:
    slug = cup.competition.slug
    before = _group(APIClient().get(f"/api/v1/competitions/{slug}/standings").json(), "A")["rows"]
    leader = before[0]
    club = APIClient()
    club.force_authenticate(cup.users[leader["team"]])
    body = {"team_id": leader["team_id"], "points": -6, "reason": "fielded an ineligible player"}
    assert club.post("/api/v1/point-adjustments", body, format="json").status_code == 403
    staff = APIClient()
    staff.force_authenticate(cup.admin)
    zero = staff.post("/api/v1/point-adjustments", {**body, "points": 0}, format="json")
    assert zero.status_code == 400 and zero.json()["error"]["code"] == "validation_error"
    created = staff.post("/api/v1/point-adjustments", body, format="json")
    assert created.status_code == 201, created.content
    assert PointAdjustment.objects.get().created_by == cup.admin

    after = _group(APIClient().get(f"/api/v1/competitions/{slug}/standings").json(), "A")["rows"]
    row = next(r for r in after if r["team_id"] == leader["team_id"])
    assert row["points"] == leader["points"] - 6 and row["adjustment"] == -6
    assert after[0]["team_id"] != leader["team_id"], "the deduction costs the lead"
    assert "adjustment of -6" in row["explanation"]
    listed = APIClient().get("/api/v1/point-adjustments", {"team": leader["team_id"]}).json()["results"]
    assert listed[0]["reason"] == "fielded an ineligible player"

    page = client.get(reverse("tournaments:standings", args=[slug])).content.decode()
    assert 'title="Points deducted or added by the organisers">Adj' in page
    assert 'data-testid="adjustment">-6<' in page


def test_compute_table_adds_adjustments_to_the_points_once() -> None:
    from tournaments.standings.table import compute_table
    from tournaments.standings.tally import MatchRecord

    matches = [MatchRecord(home=1, away=2, home_goals=1, away_goals=0)]
    plain = compute_table(teams=[1, 2], matches=matches, criteria=["points", "goal_difference"])
    assert [r.team for r in plain] == [1, 2]
    table = compute_table(
        teams=[1, 2], matches=matches, criteria=["points", "goal_difference"], adjustments={1: -4, 3: 9}
    )
    assert [(r.team, r.points, r.adjustment) for r in table] == [(2, 0, 0), (1, -1, -4)]

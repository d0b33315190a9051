"""Corrections with cascade: staff correct or clear a counted result; what depended on it follows."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from matches.models import Result, ResultAudit
from matches.standings.services import standings_compute
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def staff_client(cup) -> APIClient:
    client = APIClient()
    client.force_authenticate(cup.admin)
    return client


def _group_a(cup) -> tuple[list[int], Fixture, Fixture]:
    """Group A's order, the runner-up v bottom fixture, and the round-of-16 tie the runner-up played."""
    first = Fixture.objects.filter(group__name="A").select_related("stage", "group").first()
    order = [row.team for row in standings_compute(stage=first.stage, group=first.group)]
    runner_up, bottom = order[1], order[3]
    fixture = Fixture.objects.get(
        group__name="A", home_team_id__in=[runner_up, bottom], away_team_id__in=[runner_up, bottom]
    )
    tie = Fixture.objects.get(away_source__type="group", away_source__group="A", away_source__rank=2)
    assert tie.status == Fixture.Status.CONFIRMED and tie.away_team_id == runner_up
    return order, fixture, tie


def _bottom_wins_5_0(fixture: Fixture, bottom: int) -> dict[str, object]:
    home_wins = fixture.home_team_id == bottom
    return {"home_goals": 5 if home_wins else 0, "away_goals": 0 if home_wins else 5}


def test_correction_that_changes_who_qualified_is_refused_then_reopens(cup) -> None:
    order, fixture, tie = _group_a(cup)
    staff = staff_client(cup)
    body = {**_bottom_wins_5_0(fixture, order[3]), "note": "score sheet said 0-5"}
    refused = staff.post(f"/api/v1/fixtures/{fixture.pk}/override", body, format="json")
    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "conflict"
    assert [f["id"] for f in error["details"]["fixtures"]] == [tie.pk]
    assert str(tie) in error["message"]
    assert Fixture.objects.get(pk=tie.pk).status == Fixture.Status.CONFIRMED, "nothing half-written"
    assert (
        Result.objects.get(fixture=fixture).home_goals,
        Result.objects.get(fixture=fixture).away_goals,
    ) == (
        fixture.result.home_goals,
        fixture.result.away_goals,
    )

    accepted = staff.post(f"/api/v1/fixtures/{fixture.pk}/override", {**body, "reopen": True}, format="json")
    assert accepted.status_code == 200, accepted.content
    tie.refresh_from_db()
    assert tie.status == Fixture.Status.SCHEDULED and not Result.objects.filter(fixture=tie).exists()
    assert tie.away_team_id == order[3], "the new runner-up plays the tie"
    new_order = [r.team for r in standings_compute(stage=fixture.stage, group=fixture.group)]
    assert new_order[1] == order[3]
    trail = APIClient().get(f"/api/v1/fixtures/{tie.pk}/audit").json()
    assert trail[-1]["action"] == "reopen"
    entry = ResultAudit.objects.filter(fixture=fixture).latest("id")
    assert entry.action == "override" and entry.actor == cup.admin
    assert f"Match {tie.match_number}" in entry.note


def test_clear_a_result_through_the_api(cup) -> None:
    _order, fixture, tie = _group_a(cup)
    staff = staff_client(cup)
    assert staff.post(f"/api/v1/fixtures/{tie.pk}/clear", {}, format="json").status_code == 400
    cleared = staff.post(f"/api/v1/fixtures/{tie.pk}/clear", {"note": "played twice"}, format="json")
    assert cleared.status_code == 200, cleared.content
    assert cleared.json()["status"] == "scheduled" and cleared.json()["result"] is None
    again = staff.post(f"/api/v1/fixtures/{tie.pk}/clear", {"note": "x"}, format="json")
    assert again.status_code == 409
    club = APIClient()
    club.force_authenticate(cup.users[tie.home_team.name])
    assert club.post(f"/api/v1/fixtures/{fixture.pk}/clear", {"note": "x"}, format="json").status_code == 403
    # Clearing a group result leaves group A undecided: the other tie it fed is listed.
    other = Fixture.objects.get(home_source__type="group", home_source__group="A", home_source__rank=1)
    refused = staff.post(f"/api/v1/fixtures/{fixture.pk}/clear", {"note": "replay"}, format="json")
    assert refused.status_code == 409
    assert [f["id"] for f in refused.json()["error"]["details"]["fixtures"]] == [other.pk]


def test_admin_clears_and_corrects_through_actions(cup, client) -> None:
    order, fixture, tie = _group_a(cup)
    client.force_login(cup.admin)
    url = reverse("admin:tournaments_fixture_correct", args=[fixture.pk])
    page = client.get(url).content.decode()
    assert "reopen" in page
    response = client.post(url, {**_bottom_wins_5_0(fixture, order[3]), "cards": "", "note": "sheet"})
    assert response.status_code == 200 and str(tie) in response.content.decode(), "refused, listed"
    response = client.post(
        url, {**_bottom_wins_5_0(fixture, order[3]), "cards": "", "note": "sheet", "reopen": "on"}
    )
    assert response.status_code == 302
    assert Fixture.objects.get(pk=tie.pk).status == Fixture.Status.SCHEDULED
    clear_url = reverse("admin:tournaments_fixture_clear", args=[fixture.pk])
    response = client.post(clear_url, {"note": "replay", "reopen": "on"})
    assert response.status_code == 302
    assert Fixture.objects.get(pk=fixture.pk).status == Fixture.Status.SCHEDULED
    assert ResultAudit.objects.filter(fixture=fixture).latest("id").action == "clear"

"""Staff actions check the model permissions, like the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from rest_framework.test import APIClient

from matches.services import result_dispute, result_submit
from tests.factories import AdminFactory, CompetitionFactory, team_with_member
from tournaments.models import Stage
from tournaments.services import fixture_generate, stage_create

pytestmark = pytest.mark.django_db

PERMS = ["change_fixture", "change_competition", "view_competition", "change_stage", "add_fixture"]


@pytest.fixture
def cup() -> dict[str, Any]:
    competition = CompetitionFactory()
    teams = [team_with_member(competition, name) for name in ("H", "A")]
    stage = stage_create(
        competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[t for t, _ in teams]
    )
    (fixture,) = fixture_generate(stage=stage)
    users = {t.id: u for t, u in teams}
    result_submit(fixture_id=fixture.id, user=users[fixture.home_team_id], home_goals=1, away_goals=0)
    result_dispute(fixture_id=fixture.id, user=users[fixture.away_team_id], reason="no")
    empty = stage_create(
        competition=competition, name="Cup", kind=Stage.Kind.ROUND_ROBIN, teams=[t for t, _ in teams]
    )
    return {"competition": competition, "fixture": fixture, "empty_stage": empty}


def _actions(cup: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    fixture, slug = cup["fixture"].id, cup["competition"].slug
    score = {"home_goals": 2, "away_goals": 2, "note": "checked"}
    return [
        (f"/api/v1/fixtures/{fixture}/resolve", score),
        (f"/api/v1/fixtures/{fixture}/override", score),
        (f"/api/v1/competitions/{slug}/recompute-standings", {}),
        (f"/api/v1/stages/{cup['empty_stage'].id}/generate-fixtures", {}),
    ]


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def test_staff_without_model_permissions_is_refused_everywhere(cup) -> None:
    """The finding: a staff account without model permissions (403 in the admin) could override,
    resolve, recompute standings and generate fixtures through the API."""
    staff = AdminFactory()
    client = _client(staff)
    for path, body in _actions(cup):
        response = client.post(path, body, format="json")
        assert response.status_code == 403, (path, response.content)
        assert "permission" in response.json()["error"]["message"], path
    cup["fixture"].refresh_from_db()
    assert cup["fixture"].status == "disputed"

    page = Client()
    page.force_login(staff)
    url = f"/admin/tournaments/competition/{cup['competition'].id}/standings/"
    assert page.get(url).status_code == 403
    assert page.post(url).status_code == 403


@pytest.mark.parametrize("superuser", [False, True])
def test_staff_with_the_permissions_may(cup, superuser: bool) -> None:
    staff = AdminFactory(is_superuser=superuser)
    if not superuser:
        staff.user_permissions.add(*Permission.objects.filter(codename__in=PERMS))
    client = _client(staff)
    for path, body in _actions(cup):
        response = client.post(path, body, format="json")
        assert response.status_code in (200, 201), (path, response.content)
    page = Client()
    page.force_login(staff)
    assert page.get(f"/admin/tournaments/competition/{cup['competition'].id}/standings/").status_code == 200

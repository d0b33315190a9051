"""Staff actions check the model permissions, like the admin."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client
from rest_framework.test import APIClient

from matches.services import result_dispute, result_submit
from tests.factories import AdminFactory, CompetitionFactory, team_with_member
from tournaments.bracket import Score
from tournaments.models import Group, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

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
    result_submit(fixture_id=fixture.id, user=users[fixture.home_team_id], score=Score(1, 0))
    result_dispute(fixture_id=fixture.id, user=users[fixture.away_team_id], reason="no")
    empty = stage_create(
        competition=competition, name="Cup", kind=Stage.Kind.ROUND_ROBIN, teams=[t for t, _ in teams]
    )
    scored = stage_create(
        competition=competition, name="Scored", kind=Stage.Kind.ROUND_ROBIN, teams=[t for t, _ in teams]
    )
    (other,) = fixture_generate(stage=scored)
    return {
        "competition": competition,
        "fixture": fixture,
        "empty_stage": empty,
        "other_fixture": other,
        "club_user": users[other.home_team_id],
        "group": Group.objects.create(stage=empty, name="G"),
    }


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


# Every write of the API that anyone signed in may make (not a staff action).
OPEN_TO_USERS = {
    ("post", "/api/v1/auth/token"),
    ("post", "/api/v1/turn-logs/validate"),
    ("post", "/api/v1/competitions/{slug}/chances/what-if"),
    # Checks a set-up against the pending question and stores nothing.
    ("post", "/api/v1/scoring-sessions/{id}/setup-check"),
    # Anyone signed in may create a competition and becomes its organiser (settings.COMPETITION_CREATORS).
    ("post", "/api/v1/competitions"),
    ("post", "/api/v1/competitions/from-format"),
}


def _write_operations() -> list[tuple[str, str]]:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    return [
        (method, template)
        for template, operations in schema["paths"].items()
        for method in operations
        if method in ("post", "put", "patch", "delete")
    ]


def _bodies(cup: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """A body each operation would accept from someone allowed, by the template's last part."""
    fixture = cup["fixture"]
    team = fixture.home_team_id
    score = {"home_goals": 1, "away_goals": 0, "note": "checked"}
    return {
        "clubs": {"name": "New club", "country": "Finland"},
        "coaches": {"name": "New coach", "country": "Finland"},
        "competitions": {"name": "New cup", "slug": "new-cup"},
        "teams": {"name": "New team", "competition": cup["competition"].slug},
        "groups": {"name": "Z", "stage": cup["empty_stage"].id},
        "stages": {"name": "New stage", "kind": "round_robin", "competition": cup["competition"].slug},
        "award": {"team_id": team, "note": "no show"},
        "clear": {"note": "wrong"},
        "void": {"note": "wrong"},
        "override": score,
        "resolve": score,
        "forfeit": {"team_id": team},
        "submit-result": score,
        "dispute": {"reason": "wrong"},
        "point-adjustments": {"team_id": team, "points": -1, "reason": "late"},
        "roles": {"user": "someone", "kind": "results_desk"},
        "scoring-sessions": {"fixture": fixture.id},
        "abandon": {"reason": "rain"},
        "events": {
            "tap_id": "t1",
            "after": "",
            "after_seq": 0,
            "events": [{"client_id": "c1", "roll_for_me": True}],
        },
        "dice": {"app_dice": True},
        "side-branches": {"branch_id": "b1", "from_seq": 1, "events": []},
        "undo": {"after": "", "after_seq": 0},
        "from-format": {"name": "F", "slug": "f", "template": "league", "teams": ["A", "B"]},
        "discipline": {},
        "tiebreak": {},
    }


def test_every_staff_write_of_the_api_needs_a_model_permission(cup) -> None:
    """Walks the schema: a staff account without any permission (and in no club) is refused
    every write that is not open to any signed-in user, whatever checks it (the view or the
    service), and nothing changes."""
    from scoring.services import session_start

    session = session_start(fixture_id=cup["other_fixture"].id, user=cup["club_user"])
    ids = {
        "{id}": str(cup["fixture"].id),
        "{slug}": cup["competition"].slug,
        "{role_id}": "1",  # refused before the role is looked up
    }
    by_kind = {
        "clubs": cup["fixture"].home_team.club_id,
        "coaches": cup["fixture"].home_team.coach_id,
        "groups": None,
        "stages": cup["empty_stage"].id,
        "teams": cup["fixture"].home_team_id,
        "scoring-sessions": session.id,
    }
    bodies = _bodies(cup)
    client = _client(AdminFactory())
    refused, allowed = [], []
    for method, template in _write_operations():
        if (method, template) in OPEN_TO_USERS:
            continue
        parts = template.removeprefix("/api/v1/").split("/")
        path = template
        for key, value in ids.items():
            if parts[0] in by_kind and key == "{id}":
                value = str(by_kind[parts[0]] or cup["group"].id)
            path = path.replace(key, value)
        response = getattr(client, method)(
            path, bodies.get(parts[-1], bodies.get(parts[0], {})), format="json"
        )
        (refused if response.status_code == 403 else allowed).append(
            f"{method.upper()} {path}: {response.status_code} {response.content[:120]!r}"
        )
    assert not allowed, "\n".join(allowed)
    assert len(refused) > 30, refused
    cup["fixture"].refresh_from_db()
    assert cup["fixture"].status == "disputed"

"""The set-up API for staff (/api/v1): writes go through the services, errors name the field."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from rest_framework.test import APIClient

from tests.factories import AdminFactory, play, team_with_member
from tournaments.models import Club, Coach, Competition, Stage, Team
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    client = APIClient()
    client.force_authenticate(AdminFactory(is_superuser=True))
    return client


def test_staff_needs_the_model_permission_not_just_the_staff_flag(settings) -> None:
    settings.COMPETITION_CREATORS = "staff"  # otherwise anyone signed in may create one
    staff = AdminFactory()
    client = APIClient()
    client.force_authenticate(staff)
    body = {"name": "Cup", "slug": "cup"}
    response = client.post("/api/v1/competitions", body, format="json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "permission_denied"
    staff.user_permissions.add(Permission.objects.get(codename="add_competition"))
    staff = type(staff).objects.get(pk=staff.pk)  # permissions are cached on the user object
    client.force_authenticate(staff)
    assert client.post("/api/v1/competitions", body, format="json").status_code == 201
    # Adding is not changing: another staff member with the same permission may not change it; its
    # creator, its organiser, may.
    other = AdminFactory()
    other.user_permissions.add(Permission.objects.get(codename="add_competition"))
    client.force_authenticate(type(other).objects.get(pk=other.pk))
    assert client.patch("/api/v1/competitions/cup", {"name": "X"}, format="json").status_code == 403
    client.force_authenticate(staff)
    assert client.patch("/api/v1/competitions/cup", {"name": "X"}, format="json").status_code == 200
    assert APIClient().post("/api/v1/competitions", body, format="json").status_code in (401, 403)


@pytest.mark.parametrize(
    ("order", "path", "message"),
    [
        ("points", "tiebreak_order", "Expected a list"),
        (["goal_difference", "points"], "tiebreak_order", "must start with 'points'"),
        (["points", "height"], "tiebreak_order.1", "not a valid choice"),
    ],
)
def test_bad_tiebreak_order_is_a_400_naming_the_field(api, order, path, message) -> None:
    response = api.post(
        "/api/v1/competitions",
        {"name": "Cup", "slug": "cup", "tiebreak_preset": "custom", "tiebreak_order": order},
        format="json",
    )
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert message in error["message"]
    assert path.split(".")[0] in error["message"] or error["details"].get("field") == path.split(".")[0]
    assert not Competition.objects.exists()


def test_tiebreak_and_discipline_endpoints(api) -> None:
    competition = competition_create(name="Cup", slug="cup")
    url = "/api/v1/competitions/cup"
    response = api.post(
        f"{url}/tiebreak", {"tiebreak_preset": "custom", "tiebreak_order": ["wins"]}, format="json"
    )
    assert response.status_code == 400 and response.json()["error"]["details"] == {"field": "tiebreak_order"}
    response = api.post(
        f"{url}/tiebreak",
        {"tiebreak_preset": "custom", "tiebreak_order": ["points", "wins", "lots"]},
        format="json",
    )
    assert response.status_code == 200 and response.json()["tiebreak_order"] == ["points", "wins", "lots"]
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(2)]
    stage = stage_create(competition=competition, name="KO", kind="knockout", teams=teams)
    response = api.post(
        f"{url}/discipline",
        {"yellow_card_threshold": 3, "red_card_ban_matches": 2, "yellow_wipe_after_stage": stage.pk},
        format="json",
    )
    assert response.status_code == 200, response.json()
    competition.refresh_from_db()
    assert (competition.yellow_card_threshold, competition.yellow_wipe_after_stage_id) == (3, stage.pk)


def test_full_setup_through_the_api(api) -> None:
    response = api.post(
        "/api/v1/competitions",
        {"name": "Helsinki Cup", "slug": "hel", "advanced_rules": ["A2", "A11"], "skill_limit": 3},
        format="json",
    )
    assert response.status_code == 201, response.json()
    club = api.post("/api/v1/clubs", {"name": "Kallio FC", "country": "Finland"}, format="json").json()
    assert api.post("/api/v1/clubs", {"name": "Kallio FC"}, format="json").status_code == 409
    coach = api.post(
        "/api/v1/coaches", {"name": "Aino", "country": "Finland", "club": club["id"]}, format="json"
    ).json()
    response = api.post(
        "/api/v1/teams",
        {
            "competition": "hel",
            "name": "Kallio",
            "club": club["id"],
            "coach": coach["id"],
            "default_formation": "4-4-3",
        },
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {"field": "default_formation"}
    response = api.post(
        "/api/v1/teams",
        {
            "competition": "hel",
            "name": "Kallio",
            "club": club["id"],
            "coach": coach["id"],
            "default_formation": "3-5-2",
            "player_roles": {"attacking_midfielders": 1},
            "skills": ["Regista"],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    team = response.json()
    assert [s["name"] for s in team["skills"]] == ["Regista"]
    others = [
        api.post("/api/v1/teams", {"competition": "hel", "name": f"T{i}"}, format="json").json()["id"]
        for i in range(3)
    ]
    response = api.post(
        "/api/v1/stages",
        {"competition": "hel", "name": "League", "kind": "round_robin", "teams": [team["id"], *others]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    stage = response.json()
    assert api.patch(f"/api/v1/stages/{stage['id']}", {"legs": 2}, format="json").json()["legs"] == 2
    assert api.patch(f"/api/v1/teams/{team['id']}", {"seed": 1}, format="json").json()["seed"] == 1
    assert api.post(f"/api/v1/stages/{stage['id']}/generate-fixtures", {}, format="json").status_code == 201
    response = api.patch(f"/api/v1/stages/{stage['id']}", {"legs": 1}, format="json")
    assert response.status_code == 409 and response.json()["error"]["details"] == {"field": "legs"}
    assert api.delete(f"/api/v1/teams/{team['id']}").status_code == 409
    # Nothing played yet: the organiser may still throw the whole thing away.
    assert api.delete("/api/v1/competitions/hel").status_code == 204
    assert not Competition.objects.exists() and not Team.objects.exists()


def test_group_stage_with_groups_through_the_api(api) -> None:
    competition_create(name="Cup", slug="cup")
    other = competition_create(name="Other", slug="other")
    ids = [
        api.post("/api/v1/teams", {"competition": "cup", "name": f"T{i}"}, format="json").json()["id"]
        for i in range(4)
    ]
    stranger = team_create(competition=other, name="Stranger")
    stage = api.post(
        "/api/v1/stages",
        {"competition": "cup", "name": "Groups", "kind": "groups", "groups": {"A": [], "B": []}},
        format="json",
    ).json()
    group_a = stage["groups"][0]["id"]
    response = api.patch(f"/api/v1/groups/{group_a}", {"teams": [ids[0], stranger.pk]}, format="json")
    assert response.status_code == 400 and "not entered in" in response.json()["error"]["message"]
    assert api.patch(f"/api/v1/groups/{group_a}", {"teams": ids[:2]}, format="json").status_code == 200
    group_b = stage["groups"][1]["id"]
    response = api.patch(f"/api/v1/groups/{group_b}", {"teams": ids[1:3]}, format="json")
    assert response.status_code == 400 and "already in another group" in response.json()["error"]["message"]
    response = api.post(
        "/api/v1/groups", {"stage": stage["id"], "name": "C", "teams": ids[2:]}, format="json"
    )
    assert response.status_code == 201
    assert api.delete(f"/api/v1/groups/{group_b}").status_code == 204
    response = api.post(f"/api/v1/stages/{stage['id']}/generate-fixtures", {}, format="json")
    assert response.status_code == 201 and len(response.json()) == 2


def test_bulk_teams_from_csv_and_json_all_or_nothing(api) -> None:
    competition_create(name="Cup", slug="cup", advanced_rules=["A11"])
    csv_text = (
        "name,country,club,coach,seed,default_formation,skills\n"
        "Lions,England,Lions FC,Ann,1,4-4-2,Regista;Diver\n"
        "Bears,Finland,Bears FC,Bo,2,4-3-3,\n"
    )
    response = api.generic("POST", "/api/v1/competitions/cup/teams", csv_text, content_type="text/csv")
    assert response.status_code == 201, response.json()
    assert [t["name"] for t in response.json()] == ["Bears", "Lions"]
    lions = Team.objects.get(name="Lions")
    assert lions.club.name == "Lions FC" and lions.coach.name == "Ann" and lions.seed == 1
    assert sorted(lions.roster_skills.values_list("skill__name", flat=True)) == ["Diver", "Regista"]
    rows = [{"name": "Wolves"}, {"name": "Eagles", "default_formation": "5-5-5"}]
    response = api.post("/api/v1/competitions/cup/teams", {"teams": rows}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert (
        error["details"] == {"field": "teams[1].default_formation"} and "Row 2 (Eagles)" in error["message"]
    )
    assert not Team.objects.filter(name="Wolves").exists()  # all or nothing
    response = api.post("/api/v1/competitions/cup/teams", {"teams": [{"country": "X"}]}, format="json")
    assert response.status_code == 400 and "teams[0].name" in response.json()["error"]["message"]
    assert Club.objects.count() == 2 and Coach.objects.count() == 2


def test_nothing_can_be_deleted_once_played(api) -> None:
    competition = competition_create(name="Cup", slug="cup")
    teams = [team_with_member(competition, f"T{i}")[0] for i in range(2)]
    stage = stage_create(competition=competition, name="L", kind="round_robin", teams=teams)
    (fixture,) = fixture_generate(stage=stage)
    play(fixture.id, 1, 0)
    assert api.delete("/api/v1/competitions/cup").status_code == 409
    assert api.delete(f"/api/v1/stages/{stage.pk}").status_code == 409
    response = api.patch("/api/v1/competitions/cup", {"points_win": 2}, format="json")
    assert response.status_code == 409
    assert Stage.objects.filter(pk=stage.pk).exists()

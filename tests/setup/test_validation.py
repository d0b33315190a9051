"""Every bad set-up input is refused with a 400/409 that names what to fix, nothing stored.

The checks live in the services; the admin forms and the API call the same ones.
"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from kernel.errors import ApplicationError
from tests.factories import AdminFactory, CompetitionFactory, TeamFactory
from tournaments.models import Competition, Fixture, Group, Stage, Team
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create, competition_tiebreak_set, competition_update
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_user():
    return AdminFactory(is_superuser=True)


@pytest.fixture
def api(admin_user) -> APIClient:
    client = APIClient()
    client.force_authenticate(admin_user)
    return client


@pytest.mark.parametrize(
    ("order", "message"),
    [
        (["goal_difference", "points"], "must start with 'points'"),
        ("points", "must be a list"),
        (["points", "height"], "unknown tie-break criteria"),
        (["points", "wins", "wins"], "listed twice"),
        ([], "must start with 'points'"),
    ],
)
def test_invalid_tiebreak_order_is_refused_by_the_services(order, message) -> None:
    competition = CompetitionFactory()
    with pytest.raises(ApplicationError, match=message) as exc:
        competition_tiebreak_set(competition=competition, preset="custom", order=order)
    assert exc.value.details == {"field": "tiebreak_order"}
    competition.refresh_from_db()
    assert competition.tiebreak_preset == "fifa_world_cup" and competition.tiebreak_order == []
    with pytest.raises(ApplicationError, match=message):
        competition_create(name="X", slug="x", tiebreak_preset="custom", tiebreak_order=order)
    assert not Competition.objects.filter(slug="x").exists()


def test_competition_update_checks_like_create() -> None:
    competition = competition_create(name="Cup", slug="cup")
    with pytest.raises(ApplicationError, match="unknown advanced rules"):
        competition_update(competition=competition, advanced_rules=["A1", "A99"])
    with pytest.raises(ApplicationError, match="must be a list"):
        competition_update(competition=competition, advanced_rules="A1")
    with pytest.raises(ApplicationError, match="win > draw"):
        competition_update(competition=competition, points_draw=3)
    competition.refresh_from_db()
    assert competition.advanced_rules == [] and competition.points_draw == 1
    competition_update(competition=competition, tiebreak_preset="custom", tiebreak_order=["points", "wins"])
    competition.refresh_from_db()
    assert competition.tiebreak_order == ["points", "wins"]


def test_team_checks_formation_roles_and_club() -> None:
    competition = competition_create(name="Cup", slug="cup", advanced_rules=["A2"])
    with pytest.raises(ApplicationError, match="summing to 10") as exc:
        team_create(competition=competition, name="T", default_formation="4-4-3")
    assert exc.value.details["field"] == "default_formation"
    with pytest.raises(ApplicationError, match="unknown player role"):
        team_create(competition=competition, name="T", player_roles={"captain": 1})
    with pytest.raises(ApplicationError, match="offensive wing backs"):
        team_create(competition=competition, name="T", player_roles={"offensive_wing_backs": 3})
    assert not competition.teams.exists()
    team = team_create(
        competition=competition,
        name="T",
        default_formation="3-5-2",
        player_roles={"attacking_midfielders": 1},
    )
    assert team.player_roles == {"attacking_midfielders": 1}


def test_groups_and_stages_only_take_the_competitions_teams() -> None:
    competition = CompetitionFactory()
    mine = [team_create(competition=competition, name=f"T{i}") for i in range(4)]
    stranger = TeamFactory()
    with pytest.raises(ApplicationError, match="not entered in") as exc:
        stage_create(competition=competition, name="G", kind="groups", groups={"A": [*mine[:3], stranger]})
    assert exc.value.details["field"] == "groups"
    assert not Stage.objects.filter(competition=competition).exists()


@pytest.mark.parametrize("kind", ["round_robin", "swiss"])
@pytest.mark.parametrize("n_teams", [0, 1])
def test_empty_or_one_team_league_cannot_be_generated(api, kind, n_teams) -> None:
    competition = CompetitionFactory()
    stage = Stage.objects.create(competition=competition, order=1, name="L", kind=kind, swiss_rounds=3)
    stage.teams.set([team_create(competition=competition, name=f"T{i}") for i in range(n_teams)])
    response = api.post(f"/api/v1/stages/{stage.pk}/generate-fixtures", {}, format="json")
    assert response.status_code == 400, response.json()
    error = response.json()["error"]
    assert "at least two teams" in error["message"] and error["details"]["field"] == "teams"
    assert not Fixture.objects.exists()
    competition.refresh_from_db()
    assert competition.status == Competition.Status.DRAFT


def test_group_stage_without_groups_is_a_400_not_a_500(api) -> None:
    competition = CompetitionFactory()
    stage = Stage.objects.create(competition=competition, order=1, name="Groups", kind="groups")
    response = api.post(f"/api/v1/stages/{stage.pk}/generate-fixtures", {}, format="json")
    assert response.status_code == 400
    assert "has no groups" in response.json()["error"]["message"]
    lonely = Group.objects.create(stage=stage, name="A")
    lonely.teams.set([team_create(competition=competition, name="Alone")])
    response = api.post(f"/api/v1/stages/{stage.pk}/generate-fixtures", {}, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["details"] == {"field": "groups", "groups": ["A"]}
    assert not Fixture.objects.exists()


# --- the admin calls the same checks -------------------------------------------------------------


@pytest.fixture
def staff(client: Client, admin_user) -> Client:
    client.force_login(admin_user)
    return client


def _competition_form(competition: Competition, **changes) -> dict:
    data = {
        "name": competition.name,
        "slug": competition.slug,
        "game_system": competition.game_system,
        "status": competition.status,
        "points_win": 3,
        "points_draw": 1,
        "points_loss": 0,
        "forfeit_policy": "simulate",
        "award_goals_for": 3,
        "award_goals_against": 0,
        "skill_limit": 5,
        "tiebreak_preset": "fifa_world_cup",
        "yellow_card_threshold": 2,
        "red_card_ban_matches": 1,
        "stages-TOTAL_FORMS": 0,
        "stages-INITIAL_FORMS": 0,
        "teams-TOTAL_FORMS": 0,
        "teams-INITIAL_FORMS": 0,
    }
    data.update(changes)
    return data


def test_admin_refuses_a_tiebreak_order_not_starting_with_points(staff) -> None:
    competition = CompetitionFactory()
    url = reverse("admin:tournaments_competition_change", args=[competition.pk])
    response = staff.post(
        url,
        _competition_form(
            competition, tiebreak_preset="custom", tiebreak_1="goal_difference", tiebreak_2="points"
        ),
    )
    assert response.status_code == 200
    assert "must start with &#x27;points&#x27;" in response.content.decode()
    competition.refresh_from_db()
    assert competition.tiebreak_preset == "fifa_world_cup" and competition.tiebreak_order == []
    response = staff.post(
        url, _competition_form(competition, tiebreak_preset="custom", tiebreak_1="points", tiebreak_2="wins")
    )
    assert response.status_code == 302
    competition.refresh_from_db()
    assert competition.tiebreak_order == ["points", "wins"]


def test_admin_offers_advanced_rules_as_checkboxes_and_refuses_unknown_ones(staff) -> None:
    competition = CompetitionFactory()
    url = reverse("admin:tournaments_competition_change", args=[competition.pk])
    page = staff.get(url).content.decode()
    assert 'type="checkbox" name="advanced_rules" value="A11"' in page and "Skills" in page
    response = staff.post(url, _competition_form(competition, advanced_rules=["A1", "A99"]))
    assert response.status_code == 200
    competition.refresh_from_db()
    assert competition.advanced_rules == []


def test_admin_refuses_a_formation_of_eleven_outfield_players(staff) -> None:
    competition = CompetitionFactory()
    response = staff.post(
        reverse("admin:tournaments_team_add"),
        {
            "competition": competition.pk,
            "name": "Elevens",
            "default_formation": "4-4-3",
            "player_roles": "{}",
            "roster_skills-TOTAL_FORMS": 0,
            "roster_skills-INITIAL_FORMS": 0,
            "skill_losses-TOTAL_FORMS": 0,
            "skill_losses-INITIAL_FORMS": 0,
            "suspensions-TOTAL_FORMS": 0,
            "suspensions-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 200
    assert "summing to 10" in response.content.decode()
    assert not Team.objects.filter(name="Elevens").exists()


def test_admin_group_picker_offers_only_the_competitions_teams_labelled(staff) -> None:
    competition = CompetitionFactory(name="Home Cup")
    other = CompetitionFactory(name="Other Cup")
    mine = [team_create(competition=competition, name=f"Mine {i}") for i in range(2)]
    theirs = team_create(competition=other, name="Theirs")
    stage = stage_create(competition=competition, name="Groups", kind="groups", groups={"A": mine})
    group = stage.groups.get()
    url = reverse("admin:tournaments_group_change", args=[group.pk])
    page = staff.get(url).content.decode()
    assert "Mine 0 (Home Cup)" in page and "Theirs" not in page
    response = staff.post(
        url,
        {
            "stage": stage.pk,
            "name": "A",
            "teams": [mine[0].pk, theirs.pk],
            "fixtures-TOTAL_FORMS": 0,
            "fixtures-INITIAL_FORMS": 0,
        },
    )
    assert response.status_code == 200
    assert set(group.teams.values_list("name", flat=True)) == {"Mine 0", "Mine 1"}


def test_a_knockout_fed_by_best_thirds_no_group_has_is_a_400_saying_why(api) -> None:
    # 3 groups of 2, two per group and two best thirds into a knockout of 8: no group has a third.
    competition = CompetitionFactory(slug="thirds")
    teams = [TeamFactory(competition=competition, name=f"T{i}") for i in range(6)]
    groups = {"A": teams[0:2], "B": teams[2:4], "C": teams[4:6]}
    with pytest.raises(
        ApplicationError, match=r"2 best third-placed teams .* only 0 group\(s\) have a third"
    ):
        stage_create(competition=competition, name="Groups", kind="groups", groups=groups, best_thirds=2)
    response = api.post(
        "/api/v1/stages",
        {
            "competition": "thirds",
            "name": "Groups",
            "kind": "groups",
            "groups": {name: [t.id for t in members] for name, members in groups.items()},
            "best_thirds": 2,
        },
        format="json",
    )
    assert response.status_code == 400, response.content
    assert "have a third place" in response.json()["error"]["message"]
    assert not Stage.objects.filter(competition=competition).exists()

    # Drawn groups start empty: the knockout's generation checks what the groups can produce.
    stage = stage_create(
        competition=competition, name="Groups", kind="groups", groups={g: [] for g in "ABC"}, best_thirds=2
    )
    for name, members in groups.items():
        stage.groups.get(name=name).teams.set(members)
    knockout = stage_create(competition=competition, name="Knockout", kind="knockout")
    response = api.post(f"/api/v1/stages/{knockout.id}/generate-fixtures", {}, format="json")
    assert response.status_code == 400, response.content
    assert "only 0 group(s) have a third place" in response.json()["error"]["message"]
    assert not Fixture.objects.filter(stage=knockout).exists()

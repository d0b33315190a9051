"""A FUBA 2 competition is set up with rulebook 2.0's advanced rules (A1-A6, A5 the advanced
goalkeeper, A6 the playing styles), no skills, and teams with A2 roles and A6 playing styles, in
the API, the organiser console and the admin alike (issue 24, point 4)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from kernel.errors import ApplicationError
from league.admin_forms import CompetitionForm
from tests.factories import AdminFactory
from tournaments.game_systems import FUBA_2, FUBA_3
from tournaments.models import Competition
from tournaments.rule_names import advanced_rule_label
from tournaments.services.clubs import team_create, team_update
from tournaments.services.competitions import competition_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    client = APIClient()
    client.force_authenticate(AdminFactory(is_superuser=True))
    return client


def test_each_rulebook_names_its_own_advanced_rules() -> None:
    # Rulebook 2.0, "A5 ADVANCED GOAL KEEPER", "A6 PLAYING STYLES"; rulebook 3's A5 and A6 differ.
    assert advanced_rule_label("A5", FUBA_2) == "Advanced goalkeeper (rulebook 2.0, chapter A5)"
    assert advanced_rule_label("A6", FUBA_2) == "Playing styles (rulebook 2.0, chapter A6)"
    assert advanced_rule_label("A6", FUBA_3) == "Aggressive pressing (rulebook 3, chapter A6)"


def test_the_api_sets_up_a_fuba_2_competition_and_its_teams(api: APIClient) -> None:
    body = {"name": "Old Cup", "slug": "old", "game_system": "fuba-2", "advanced_rules": ["A7"]}
    response = api.post("/api/v1/competitions", body, format="json")
    assert response.status_code == 400 and "has A1, A2, A3, A4, A5, A6" in response.json()["error"]["message"]
    body["advanced_rules"] = ["A2", "A5", "A6"]
    assert api.post("/api/v1/competitions", body, format="json").status_code == 201
    rules = api.get("/api/v1/competitions/old").json()["game_system_rules"]
    assert rules["engine_ruleset"] == "fuba-2" and rules["advanced_rules"] == [
        "A1",
        "A2",
        "A3",
        "A4",
        "A5",
        "A6",
    ]
    assert not rules["skills"] and rules["playing_styles"] == ["easy", "normal", "aggressive"]
    assert "attacking_midfielders" in rules["role_keys"]
    team = {
        "competition": "old",
        "name": "Heidi",
        "default_formation": "3-5-2",
        "player_roles": {"attacking_midfielders": 1, "offensive_wing_backs": 1},
        "playing_styles": {"defence": "normal", "midfield": "aggressive", "forward": "easy"},
    }
    response = api.post("/api/v1/teams", team, format="json")
    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["playing_styles"]["midfield"] == "aggressive"
    assert created["player_roles"] == {"attacking_midfielders": 1, "offensive_wing_backs": 1}
    bad = {"playing_styles": {"midfield": "reckless"}}
    response = api.patch(f"/api/v1/teams/{created['id']}", bad, format="json")
    assert response.status_code == 400
    # A2: "Teams can specify 0-2 defenders as offensive wing back(s)" (the engine's header check);
    # skills are not offered at all
    wrong = {**team, "name": "Otto", "player_roles": {"offensive_wing_backs": 3}}
    response = api.post("/api/v1/teams", wrong, format="json")
    assert response.status_code == 400 and response.json()["error"]["details"] == {"field": "player_roles"}
    response = api.post("/api/v1/teams", {**team, "name": "Otto", "skills": ["Regista"]}, format="json")
    assert response.status_code == 400 and "FUBA 2 has no A11 skills" in response.json()["error"]["message"]


def test_playing_styles_belong_to_fuba_2_and_name_a_line_and_a_style() -> None:
    fuba3 = competition_create(name="New", slug="new", advanced_rules=["A6"])
    with pytest.raises(ApplicationError, match="FUBA 3 has no playing styles") as exc:
        team_create(competition=fuba3, name="T", playing_styles={"defence": "easy"})
    assert exc.value.details["field"] == "playing_styles"
    fuba2 = competition_create(name="Old", slug="old", game_system=FUBA_2, advanced_rules=["A2", "A6"])
    with pytest.raises(ApplicationError, match="easy, normal, aggressive for each of defence"):
        team_create(competition=fuba2, name="T", playing_styles={"goal": "easy"})
    with pytest.raises(ApplicationError, match="unknown player roles captain"):
        team_create(competition=fuba2, name="T", player_roles={"captain": 1})
    team = team_create(competition=fuba2, name="T", playing_styles={"forward": "aggressive"})
    with pytest.raises(ApplicationError, match=r"playing styles \(A6\) are one of easy"):
        team_create(competition=fuba2, name="U", playing_styles={"defence": "reckless"})
    team = team_update(team=team, playing_styles={"defence": "easy"}, player_roles={"withdrawn_striker": 1})
    assert team.playing_styles == {"defence": "easy"} and team.player_roles == {"withdrawn_striker": 1}


def test_the_admin_offers_the_advanced_rules_of_the_competitions_game() -> None:
    old = competition_create(name="Old", slug="old", game_system=FUBA_2, advanced_rules=["A6"])
    form = CompetitionForm(instance=old)
    labels = dict(form.fields["advanced_rules"].choices)  # type: ignore[attr-defined]
    assert list(labels) == ["A1", "A2", "A3", "A4", "A5", "A6"]
    assert labels["A6"] == "Playing styles (rulebook 2.0, chapter A6)"
    new = CompetitionForm(instance=competition_create(name="New", slug="new"))
    assert len(new.fields["advanced_rules"].choices) == 13  # type: ignore[attr-defined]
    city = CompetitionForm(instance=competition_create(name="City", slug="city", game_system="soccer-city"))
    assert city.fields["advanced_rules"].choices == []  # type: ignore[attr-defined]
    assert "has no advanced rules" in city.fields["advanced_rules"].help_text
    # the add page opened for a FUBA 2 competition lists rulebook 2.0's rules
    add = CompetitionForm(initial={"game_system": FUBA_2})
    assert dict(add.fields["advanced_rules"].choices)["A5"].startswith("Advanced goalkeeper")  # type: ignore[attr-defined]


def test_the_admin_change_page_of_a_fuba_2_competition(client: Client) -> None:
    client.force_login(AdminFactory(is_superuser=True))
    old = competition_create(name="Old", slug="old", game_system=FUBA_2, advanced_rules=["A6"])
    page = client.get(f"/admin/tournaments/competition/{old.pk}/change/").content.decode()
    assert "Playing styles (rulebook 2.0, chapter A6)" in page and "V.A.R." not in page


def test_the_console_creates_a_fuba_2_competition_with_its_own_rules(client: Client) -> None:
    client.force_login(AdminFactory(is_superuser=True))
    page = client.get("/console/new/").content.decode()
    assert "Advanced goalkeeper · chapter A5" in page  # listed for FUBA 2, shown when it is chosen
    data = {
        "name": "Old League",
        "slug": "old-league",
        "game_system": "fuba-2",
        "structure": "league",
        "teams": 4,
        "advance_per_group": 2,
        "thirds_placing": "euro_2024",
        "group_legs": 1,
        "knockout_legs": 1,
        "tiebreak_preset": "fifa_world_cup",
        "create": "1",
        "team_list": "Heidi, , , , 4-4-2\nOtto, , , , 4-5-1\nAnna\nBert",
        "advanced_rules": ["A9"],  # FUBA 3's weather, ticked by mistake
        "advanced_rules_fuba2": ["A1", "A6"],
    }
    response = client.post("/console/new/", data)
    assert response.status_code == 200
    assert "These are the advanced rules of FUBA 3" in response.content.decode()
    del data["advanced_rules"]
    response = client.post("/console/new/", data)
    assert response.status_code == 302, response.context["form"].errors
    competition = Competition.objects.get(slug="old-league")
    assert competition.game_system == FUBA_2 and competition.advanced_rules == ["A1", "A6"]
    page = client.get("/console/c/old-league/teams/").content.decode()
    assert "Playing styles (A6)" in page and "<th>Skills</th>" not in page


def test_the_team_page_shows_a_fuba_2_teams_playing_styles(client: Client) -> None:
    old = competition_create(name="Old", slug="old", game_system=FUBA_2, advanced_rules=["A6"])
    team = team_create(competition=old, name="Heidi", playing_styles={"midfield": "aggressive"})
    page = client.get(f"/c/old/teams/{team.pk}/").content.decode()
    assert "Playing styles (A6)" in page and "midfield aggressive" in page

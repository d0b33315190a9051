"""Roles per competition (issue 32): the creator is its organiser; organisers add co-organisers and
results-desk helpers; the console, the API and the results services apply one rule
(tournaments.selectors.competition_permits); every audit entry names the person and their role."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches import services as results
from matches.audit_words import audit_sentences
from matches.models import ResultAudit
from tests.factories import CompetitionFactory, UserFactory
from tournaments.bracket import Score
from tournaments.models import Competition, CompetitionRole, Fixture, Stage
from tournaments.shapes import SHAPE_PRESETS

pytestmark = pytest.mark.django_db

TEAMS = [f"T{i}, Country {i}, Club {i}" for i in range(8)]


def _create(client: Client, name: str) -> Competition:
    shape = SHAPE_PRESETS["final_8"][1]
    data = {
        "name": name,
        "slug": name.lower().replace(" ", "-"),
        "game_system": "fuba-3",
        "structure": shape.structure,
        "teams": shape.teams,
        "groups": shape.groups,
        "advance_per_group": shape.advance_per_group,
        "best_thirds": shape.best_thirds,
        "thirds_placing": shape.thirds_placing,
        "group_legs": shape.group_legs,
        "knockout_legs": shape.knockout_legs,
        "swiss_rounds": 0,
        "extra_time": "on",
        "penalties": "on",
        "tiebreak_preset": shape.tiebreak_preset,
        "team_list": "\n".join(TEAMS),
        "create": "1",
    }
    response = client.post("/console/new/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    return Competition.objects.get(slug=data["slug"])


def _signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def people() -> dict[str, Any]:
    return {
        name: UserFactory(username=name, email=f"{name}@example.org")
        for name in ("olga", "colin", "desmond", "stranger")
    }


def test_a_signed_in_user_who_is_not_staff_creates_a_competition_and_is_its_organiser(people) -> None:
    olga = _signed_in(people["olga"])
    assert 'data-testid="new-competition"' in olga.get("/console/").content.decode()
    cup = _create(olga, "Olga Cup")
    assert CompetitionRole.objects.get(competition=cup).kind == CompetitionRole.Kind.ORGANISER
    index = olga.get("/console/").content.decode()
    assert "Olga Cup" in index and "Organiser" in index
    assert olga.get(f"/console/c/{cup.slug}/draw/").status_code == 200
    # The header shows the console to anyone holding a role (and anyone who may create one).
    assert 'data-testid="console-link"' in olga.get("/").content.decode()
    # Someone else sees neither the competition in their console nor its pages.
    stranger = _signed_in(people["stranger"])
    assert "Olga Cup" not in stranger.get("/console/").content.decode()
    for page in ("", "teams/", "draw/", "schedule/", "results/", "people/", "discipline/"):
        assert stranger.get(f"/console/c/{cup.slug}/{page}").status_code == 403, page
    refused = _api(people["stranger"]).patch(
        f"/api/v1/competitions/{cup.slug}", {"name": "Mine"}, format="json"
    )
    assert refused.status_code == 403
    assert (
        _api(people["olga"]).patch(f"/api/v1/competitions/{cup.slug}", {"name": "Olga's Cup"}).status_code
        == 200
    )


def test_the_api_creator_of_a_competition_is_its_organiser(people) -> None:
    api = _api(people["olga"])
    response = api.post("/api/v1/competitions", {"name": "API Cup", "slug": "api-cup"}, format="json")
    assert response.status_code == 201, response.content
    assert CompetitionRole.objects.get(competition__slug="api-cup").user == people["olga"]


def test_one_setting_keeps_creating_competitions_to_staff(people, settings) -> None:
    settings.COMPETITION_CREATORS = "staff"
    olga = _signed_in(people["olga"])
    assert 'data-testid="console-link"' not in olga.get("/").content.decode()  # no role, may not create
    assert "new-competition" not in olga.get("/console/").content.decode()
    assert olga.get("/console/new/").status_code == 403
    response = _api(people["olga"]).post("/api/v1/competitions", {"name": "X", "slug": "x"}, format="json")
    assert response.status_code == 403 and not Competition.objects.filter(slug="x").exists()
    CompetitionRole.objects.create(competition=CompetitionFactory(), user=people["olga"], kind="results_desk")
    assert 'data-testid="console-link"' in olga.get("/").content.decode()  # a role: the way to it


def test_a_results_desk_helper_enters_results_and_is_refused_any_set_up_change(people) -> None:
    olga = _signed_in(people["olga"])
    cup = _create(olga, "Desk Cup")
    people_url = f"/console/c/{cup.slug}/people/"
    assert olga.post(people_url, {"add": "1", "who": "colin", "kind": "co_organiser"}).status_code == 302
    assert (
        olga.post(people_url, {"add": "1", "who": "desmond@example.org", "kind": "results_desk"}).status_code
        == 302
    )
    kinds = dict(CompetitionRole.objects.filter(competition=cup).values_list("user__username", "kind"))
    assert kinds == {"olga": "organiser", "colin": "co_organiser", "desmond": "results_desk"}
    assert (
        "Colin" not in olga.get(people_url).content.decode()
        and "colin · Co-organiser" in olga.get(people_url).content.decode()
    )

    desk = _signed_in(people["desmond"])
    for page in ("teams/", "draw/", "schedule/", "people/", "discipline/"):
        assert desk.get(f"/console/c/{cup.slug}/{page}").status_code == 403, page
    assert desk.get(f"/console/c/{cup.slug}/results/").status_code == 200
    overview = desk.get(f"/console/c/{cup.slug}/").content.decode()
    assert "Results desk" in overview and "Clubs and teams" not in overview and ">Draw<" not in overview
    # The same refusals through the API, whatever the set-up change.
    stage = cup.stages.get(kind=Stage.Kind.GROUPS)
    api = _api(people["desmond"])
    assert api.patch(f"/api/v1/competitions/{cup.slug}", {"name": "X"}, format="json").status_code == 403
    assert api.post(f"/api/v1/stages/{stage.id}/generate-fixtures", {}, format="json").status_code == 403
    body = {"competition": cup.slug, "name": "Extra", "kind": "round_robin"}
    assert api.post("/api/v1/stages", body, format="json").status_code == 403
    team = cup.teams.first()
    assert api.patch(f"/api/v1/teams/{team.id}", {"name": "Renamed"}, format="json").status_code == 403
    assert cup.stages.count() == 2 and Competition.objects.get(pk=cup.pk).name == "Desk Cup"
    # The co-organiser changes the set-up.
    assert (
        _api(people["colin"])
        .patch(f"/api/v1/teams/{team.id}", {"country": "Elsewhere"}, format="json")
        .status_code
        == 200
    )
    colin = _signed_in(people["colin"])
    assert colin.post(f"/console/c/{cup.slug}/draw/", {"countries_apart": "on", "seed": 7}).status_code == 302
    schedule = {
        "start_date": "2027-01-09",
        "kickoff_time": "18:00",
        "days_between_rounds": 7,
        "deadline_days": 3,
        "generate": "1",
    }
    assert colin.post(f"/console/c/{cup.slug}/schedule/", schedule).status_code == 302
    fixture = Fixture.objects.filter(competition=cup, stage=stage).order_by("id").first()
    assert fixture is not None

    # The desk helper enters a result (the console) and resolves a dispute (the API); not a void.
    url = f"/console/c/{cup.slug}/results/{fixture.id}/"
    page = desk.get(url).content.decode()
    assert 'value="void"' not in page and 'value="award"' not in page and 'value="resolve"' in page
    entered = {"action": "enter", "home_goals": 2, "away_goals": 1, "confirm": "1"}
    assert desk.post(url, entered).status_code == 302
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.CONFIRMED
    refused = api.post(f"/api/v1/fixtures/{fixture.id}/void", {"note": "no"}, format="json")
    assert refused.status_code == 403
    second = (
        Fixture.objects.filter(competition=cup, stage=stage).exclude(pk=fixture.pk).order_by("id").first()
    )
    home_user = second.home_team.club.members.first() or UserFactory()
    second.home_team.club.members.add(home_user)
    away_user = UserFactory()
    second.away_team.club.members.add(away_user)
    results.result_submit(fixture_id=second.id, user=home_user, score=Score(1, 0))
    results.result_dispute(fixture_id=second.id, user=away_user, reason="it was 1-1")
    resolved = api.post(
        f"/api/v1/fixtures/{second.id}/resolve",
        {"home_goals": 1, "away_goals": 1, "note": "checked"},
        format="json",
    )
    assert resolved.status_code == 200, resolved.content

    # Every audit entry names the person and their role.
    entry = ResultAudit.objects.filter(fixture=second, action=ResultAudit.Action.RESOLVE).get()
    assert (entry.actor.username, entry.actor_role) == ("desmond", "results desk")
    trail = " · ".join(audit_sentences(second))
    assert "desmond (results desk) resolved as" in trail
    assert f"by {home_user.username} (member of {second.home_team.club.name})" in trail
    audit = _api(people["olga"]).get(f"/api/v1/fixtures/{second.id}/audit").json()
    assert (audit[-1]["actor"], audit[-1]["actor_role"]) == ("desmond", "results desk")
    public = _api(people["stranger"]).get(f"/api/v1/fixtures/{second.id}/audit").json()
    assert public[-1]["actor"] is None and public[-1]["actor_role"] == "results desk"
    assert "desmond (results desk) set the result" in " ".join(audit_sentences(fixture))


def test_only_organisers_change_who_runs_a_competition(people) -> None:
    olga = _signed_in(people["olga"])
    cup = _create(olga, "People Cup")
    olga.post(f"/console/c/{cup.slug}/people/", {"add": "1", "who": "desmond", "kind": "results_desk"})
    desk = _signed_in(people["desmond"])
    assert (
        desk.post(
            f"/console/c/{cup.slug}/people/", {"add": "1", "who": "stranger", "kind": "co_organiser"}
        ).status_code
        == 403
    )
    organiser = CompetitionRole.objects.get(competition=cup, kind="organiser")
    response = olga.post(f"/console/c/{cup.slug}/people/", {"remove": organiser.pk}, follow=True)
    assert "stays its organiser" in response.content.decode()
    helper = CompetitionRole.objects.get(competition=cup, user=people["desmond"])
    olga.post(f"/console/c/{cup.slug}/people/", {"remove": helper.pk})
    assert desk.get(f"/console/c/{cup.slug}/results/").status_code == 403

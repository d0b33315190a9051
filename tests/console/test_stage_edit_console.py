"""The console's Stages step changes a stage's settings and deletes a stage without results, through
the stage services: refusals on the field they name, a stage with a result kept with a message that
says why, every change on the competition's stage trail (who, in which role, what before and after),
as the API's changes are; a results-desk helper gets 403."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from matches.services import result_override
from tests.factories import AdminFactory, UserFactory
from tests.setup.test_admin_through_services import _form_data
from tournaments.bracket import Score
from tournaments.models import Stage, StageChange
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.roles import role_grant
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create, stage_update

pytestmark = pytest.mark.django_db


def _setup():
    olga, desk = UserFactory(username="olga"), UserFactory(username="desk")
    competition = competition_create(name="Edit Cup", slug="edit-cup", creator=olga)
    role_grant(competition=competition, user=desk, kind="results_desk", by=olga)
    teams = [team_create(competition=competition, name=f"T{i}", seed=i) for i in range(1, 9)]
    league = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    top = stage_create(
        competition=competition,
        name="Top four",
        kind=Stage.Kind.KNOCKOUT,
        feeder=league,
        feed_places_from=1,
        feed_places_to=4,
    )
    return olga, desk, competition, league, top


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_desk_helper_may_neither_change_nor_delete_a_stage() -> None:
    _olga, desk, _competition, _league, top = _setup()
    helper = _client(desk)
    url = f"/console/c/edit-cup/stages/{top.pk}/"
    assert helper.get(url).status_code == 403
    assert helper.post(url, {"save": "1", "name": "Mine", "order": 2}).status_code == 403
    assert helper.post(url, {"delete": "1"}).status_code == 403
    top.refresh_from_db()
    assert top.name == "Top four" and Stage.objects.filter(pk=top.pk).exists()
    assert not StageChange.objects.exists()


def _form(stage: Stage, **changes) -> dict:
    data = {
        "save": "1",
        "name": stage.name,
        "order": stage.order,
        "legs": stage.legs,
        "knockout_rounds": stage.knockout_rounds,
        "feeder": stage.feeder_id,
        "feed": stage.feed,
        "feed_places_from": stage.feed_places_from,
        "feed_places_to": stage.feed_places_to,
        "extra_time": "on",
        "penalties": "on",
    }
    data |= changes
    return {k: v for k, v in data.items() if v is not None and v is not False}


def test_an_organiser_changes_a_stage_and_the_trail_names_her() -> None:
    olga, _desk, competition, league, top = _setup()
    client = _client(olga)
    url = f"/console/c/edit-cup/stages/{top.pk}/"
    page = client.get(url).content.decode()
    assert 'data-testid="stage-form"' in page and 'data-testid="delete-stage"' in page
    assert 'name="swiss_rounds"' not in page  # a knockout's settings only
    out_of_range = client.post(url, _form(top, feed_places_to=1001)).content.decode()
    assert "less than or equal to 1000" in out_of_range
    refused = client.post(url, _form(top, feed_places_to=9)).content.decode()
    assert "place 9 does not exist in a table of 8 teams" in refused
    saved = client.post(url, _form(top, legs=2, feed_places_to=2, name="Final"), follow=True)
    top.refresh_from_db()
    assert (top.legs, top.feed_places_to, top.name) == (2, 2, "Final")
    change = StageChange.objects.get()
    assert (change.action, change.changed_by, change.changed_by_role) == ("changed", olga, "organiser")
    assert change.changes == {"legs": [1, 2], "feed_places_to": [4, 2], "name": ["Top four", "Final"]}
    words = saved.content.decode()
    assert "olga (organiser) changed Final:" in words and "legs 1 → 2" in words
    assert "last table place 4 → 2" in words
    client.post(url, _form(top))  # nothing changed: nothing on the trail
    assert StageChange.objects.count() == 1
    # Once the fixtures exist, what shapes them is refused on its field.
    fixture_generate(stage=league)
    frozen = client.post(
        f"/console/c/edit-cup/stages/{league.pk}/", {"save": "1", "name": "League", "order": 1, "legs": 2}
    )
    assert "fixtures were generated; legs can no longer change" in frozen.content.decode()
    assert competition.stages.get(pk=league.pk).legs == 1


def test_a_stage_without_results_is_deleted_one_with_a_result_is_kept() -> None:
    olga, _desk, _competition, league, top = _setup()
    client = _client(olga)
    refused = client.post(f"/console/c/edit-cup/stages/{league.pk}/", {"delete": "1"}).content.decode()
    assert "feeds Top four; delete or re-point those first" in refused
    fixture_generate(stage=league)
    first = league.fixtures.order_by("id").first()
    result_override(fixture_id=first.pk, user=olga, score=Score(1, 0), note="played")
    client.post(f"/console/c/edit-cup/stages/{top.pk}/", {"delete": "1"})
    assert not Stage.objects.filter(pk=top.pk).exists()
    page = client.get(f"/console/c/edit-cup/stages/{league.pk}/").content.decode()
    assert 'data-testid="not-deletable"' in page and 'data-testid="delete-stage"' not in page
    kept = client.post(f"/console/c/edit-cup/stages/{league.pk}/", {"delete": "1"}).content.decode()
    assert "has 1 fixture(s) with a result" in kept and "Clear those results first" in kept
    assert Stage.objects.filter(pk=league.pk).exists() and league.fixtures.count() == 28
    deleted = StageChange.objects.get(action="deleted")
    assert (deleted.stage, deleted.stage_name, deleted.changed_by) == (None, "Top four", olga)
    assert deleted.changes["feed_places_to"] == [4, None]
    stages_page = client.get("/console/c/edit-cup/stages/").content.decode()
    assert "olga (organiser) deleted Top four" in stages_page


def test_the_api_changes_leave_the_same_trail() -> None:
    olga, desk, competition, league, top = _setup()
    api = APIClient()
    api.force_authenticate(olga)
    assert api.patch(f"/api/v1/stages/{top.pk}", {"knockout_rounds": 1}, format="json").status_code == 200
    assert api.delete(f"/api/v1/stages/{top.pk}").status_code == 204
    desk_api = APIClient()
    desk_api.force_authenticate(desk)
    assert desk_api.delete(f"/api/v1/stages/{league.pk}").status_code == 403
    trail = list(
        StageChange.objects.order_by("id").values_list("action", "changed_by__username", "changed_by_role")
    )
    assert trail == [("changed", "olga", "organiser"), ("deleted", "olga", "organiser")]
    # A change made by no one in particular (a command, a preset) says so.
    stage_update(stage=league, name="Premier")
    assert StageChange.objects.latest("id").changed_by_role == "the system"
    assert competition.stage_changes.count() == 3


def test_the_admin_names_its_user_on_the_stage_trail() -> None:
    _olga, _desk, _competition, league, top = _setup()
    staff = _client(AdminFactory(is_superuser=True, username="root"))
    url = reverse("admin:tournaments_stage_change", args=[top.pk])
    response = staff.post(url, _form_data(staff, url, name="Semi-finals"))
    assert response.status_code == 302, response.content.decode()[:2000]
    staff.post(reverse("admin:tournaments_stage_delete", args=[top.pk]), {"post": "yes"})
    assert not Stage.objects.filter(pk=top.pk).exists() and Stage.objects.filter(pk=league.pk).exists()
    trail = list(StageChange.objects.order_by("id").values_list("action", "changed_by__username", "changes"))
    assert trail[0] == ("changed", "root", {"name": ["Top four", "Semi-finals"]})
    assert trail[1][:2] == ("deleted", "root")

"""The Django admin writes only through the services: the same checks, the same errors, one path."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from league import admin as league_admin
from league import admin_forms
from matches import discipline
from matches.models import Result
from tests.factories import AdminFactory
from tournaments.models import Competition, Fixture, Group, Stage, Team
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import STAGE_FROZEN_FIELDS, stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client) -> Client:
    client.force_login(AdminFactory(is_superuser=True))
    return client


def _form_data(client: Client, url: str, **changes: Any) -> dict[str, Any]:
    """What the change form would post unchanged (its fields and inline management), plus `changes`."""
    context = client.get(url).context
    form = context["adminform"].form
    data: dict[str, Any] = {}
    for name, field in form.fields.items():
        if field.disabled:
            continue
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                data[name] = "on"
        elif isinstance(value, list | tuple):
            data[name] = [str(v) for v in value]
        elif value is not None:
            data[name] = str(value)
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        data[f"{formset.prefix}-TOTAL_FORMS"] = len(formset.initial_forms)
        data[f"{formset.prefix}-INITIAL_FORMS"] = len(formset.initial_forms)
        for sub in formset.initial_forms:
            data[f"{sub.prefix}-id"] = sub.instance.pk
    for name, value in changes.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = value
    return data


TEAM_INLINES = {
    f"{p}-{k}": 0
    for p in ("roster_skills", "skill_losses", "suspensions")
    for k in ("TOTAL_FORMS", "INITIAL_FORMS")
}


def _spy(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[dict[str, Any]]:
    calls: list[dict[str, Any]] = []
    real = getattr(module, name)

    def spy(**kwargs: Any) -> Any:
        calls.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(module, name, spy)
    return calls


@pytest.fixture
def league() -> Stage:
    competition = competition_create(name="League", slug="league")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(4)]
    stage = stage_create(competition=competition, name="L", kind="round_robin", teams=teams)
    fixture_generate(stage=stage)
    return stage


def _count_a_result(stage: Stage) -> None:
    fixture = stage.fixtures.order_by("match_number").first()
    Result.objects.create(fixture=fixture, home_goals=1, away_goals=0, source="clubs")
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.CONFIRMED)


def test_admin_cannot_change_points_or_the_game_system_after_results_count(
    staff, league, monkeypatch
) -> None:
    calls = _spy(monkeypatch, admin_forms, "competition_update")
    competition = league.competition
    url = reverse("admin:tournaments_competition_change", args=[competition.pk])
    response = staff.post(url, _form_data(staff, url, name="League 2027"))
    assert response.status_code == 302 and calls  # saved by the service
    assert Competition.objects.get(pk=competition.pk).name == "League 2027"
    _count_a_result(league)
    for change in ({"points_win": "2"}, {"game_system": Competition.GameSystem.SOCCER_CITY}):
        response = staff.post(url, _form_data(staff, url, **change))
        assert response.status_code == 200
        assert "results already count" in response.content.decode()
        stored = Competition.objects.get(pk=competition.pk)
        assert (stored.points_win, stored.game_system) == (3, Competition.GameSystem.FUBA_3)


def test_admin_discipline_change_is_the_services_recompute(staff, league, monkeypatch) -> None:
    calls = _spy(monkeypatch, admin_forms, "competition_discipline_set")
    # No path of its own: the admin does not reach the recompute directly.
    assert not hasattr(league_admin, "discipline_recompute_report")
    url = reverse("admin:tournaments_competition_change", args=[league.competition.pk])
    data = _form_data(staff, url, yellow_card_threshold="3", yellow_wipe_after_stage=str(league.pk))
    response = staff.post(url, data, follow=True)
    assert response.status_code == 200 and "Discipline settings changed" in response.content.decode()
    assert calls and calls[-1]["yellow_wipe_after_stage"] == league
    assert Competition.objects.get(pk=league.competition.pk).yellow_card_threshold == 3
    assert discipline.competition_discipline_set is not None


def test_one_list_of_frozen_stage_fields_in_the_service_and_the_admin_asks_it(
    staff, league, monkeypatch
) -> None:
    calls = _spy(monkeypatch, admin_forms, "stage_update")
    url = reverse("admin:tournaments_stage_change", args=[league.pk])
    response = staff.post(url, _form_data(staff, url, legs="2"))
    assert response.status_code == 200 and "can no longer change" in response.content.decode()
    assert calls and Stage.objects.get(pk=league.pk).legs == 1
    assert "legs" in STAGE_FROZEN_FIELDS and "thirds_placing" in STAGE_FROZEN_FIELDS
    response = staff.post(url, _form_data(staff, url, name="League table"))
    assert response.status_code == 302 and Stage.objects.get(pk=league.pk).name == "League table"


def test_admin_adds_stages_groups_and_teams_through_the_services(staff, monkeypatch) -> None:
    competition = competition_create(name="Cup", slug="cup")
    created = {
        name: _spy(monkeypatch, admin_forms, name) for name in ("stage_create", "group_create", "team_create")
    }
    add = {m: reverse(f"admin:tournaments_{m}_add") for m in ("stage", "group", "team")}
    response = staff.post(
        add["team"],
        {"competition": competition.pk, "name": "Lions", "default_formation": "4-4-2", "player_roles": "{}"}
        | TEAM_INLINES,
    )
    assert response.status_code == 302 and created["team_create"]
    team = Team.objects.get(name="Lions")
    # A formation the service refuses is refused on the form, and nothing is stored.
    response = staff.post(
        add["team"],
        {"competition": competition.pk, "name": "Bad", "default_formation": "11-0-0", "player_roles": "{}"}
        | TEAM_INLINES,
    )
    assert response.status_code == 200 and not Team.objects.filter(name="Bad").exists()
    response = staff.post(
        add["stage"],
        {"competition": competition.pk, "name": "Groups", "kind": "groups", "order": 1, "legs": 1,
         "advance_per_group": 2, "best_thirds": 0, "thirds_placing": "euro_2024", "swiss_rounds": 0,
         "knockout_rounds": 0, "feed": "winners", "group_names": "A, B",
         "groups-TOTAL_FORMS": 0, "groups-INITIAL_FORMS": 0, "fixtures-TOTAL_FORMS": 0,
         "fixtures-INITIAL_FORMS": 0},
    )  # fmt: skip
    assert response.status_code == 302
    stage = Stage.objects.get(name="Groups")
    assert created["stage_create"] and sorted(stage.groups.values_list("name", flat=True)) == ["A", "B"]
    response = staff.post(
        add["group"],
        {"stage": stage.pk, "name": "C", "teams": [team.pk], "fixtures-TOTAL_FORMS": 0,
         "fixtures-INITIAL_FORMS": 0},
    )  # fmt: skip
    assert response.status_code == 302 and created["group_create"]
    # The same team in a second group of the stage: the service's error, on the form.
    response = staff.post(
        add["group"],
        {"stage": stage.pk, "name": "D", "teams": [team.pk], "fixtures-TOTAL_FORMS": 0,
         "fixtures-INITIAL_FORMS": 0},
    )  # fmt: skip
    assert response.status_code == 200 and "already in another group" in response.content.decode()
    assert not Group.objects.filter(name="D").exists()


def test_admin_deletes_through_the_services_and_shows_their_refusal(staff, league, monkeypatch) -> None:
    calls = _spy(monkeypatch, league_admin, "competition_delete")
    _count_a_result(league)
    url = reverse("admin:tournaments_competition_delete", args=[league.competition.pk])
    response = staff.get(url)
    assert "has results; it cannot be deleted" in response.content.decode()
    staff.post(url, {"post": "yes"})
    assert Competition.objects.filter(pk=league.competition.pk).exists()
    assert calls  # asked (and refused) by the service


def test_fixtures_results_cards_and_suspensions_are_not_written_around_the_services(
    staff, league, monkeypatch
) -> None:
    calls = _spy(monkeypatch, admin_forms, "fixture_schedule")
    fixture = league.fixtures.order_by("match_number").first()
    url = reverse("admin:tournaments_fixture_change", args=[fixture.pk])
    form = staff.get(url).context["adminform"].form
    assert set(form.fields) == {"kickoff", "deadline"}  # who plays whom is not editable
    data = _form_data(staff, url)
    data |= {
        "kickoff_0": "2027-03-01",
        "kickoff_1": "19:30",
        "deadline_0": "2027-03-01",
        "deadline_1": "18:00",
    }
    response = staff.post(url, data)
    assert (
        response.status_code == 200 and "deadline cannot be before the kick-off" in response.content.decode()
    )
    data["deadline_0"] = "2027-03-08"
    assert staff.post(url, data).status_code == 302 and calls
    assert Fixture.objects.get(pk=fixture.pk).deadline.day == 8
    assert staff.get(reverse("admin:tournaments_fixture_add")).status_code == 403
    for model in ("matches_result", "matches_card", "tournaments_suspension"):
        assert staff.get(reverse(f"admin:{model}_add")).status_code == 403

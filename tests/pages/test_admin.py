"""Admin: every model's changelist (with a search), the staff standings view, and the actions."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.test import Client
from django.urls import reverse

from tournaments.models import Fixture, Stage

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client: Client, cup) -> Client:
    client.force_login(cup.admin)
    return client


def test_every_model_is_registered_with_search_and_filters() -> None:
    for app in ("tournaments", "matches"):
        from django.apps import apps

        for model in apps.get_app_config(app).get_models():
            assert model in admin.site._registry, model
            model_admin = admin.site._registry[model]
            assert model_admin.search_fields or model_admin.list_filter, model


def test_changelists_and_change_pages_load(staff: Client, cup) -> None:
    for model, model_admin in admin.site._registry.items():
        if model._meta.app_label not in ("tournaments", "matches"):
            continue
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        response = staff.get(url, {"q": "a"} if model_admin.search_fields else {})
        assert response.status_code == 200, url
        obj = model.objects.first()
        if obj is not None:
            change = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_change", args=[obj.pk])
            assert staff.get(change).status_code == 200, change


def test_staff_standings_view_and_recompute(staff: Client, cup) -> None:
    url = reverse("admin:tournaments_competition_standings", args=[cup.competition.pk])
    html = staff.get(url).content.decode()
    assert "Group A" in html and "Recompute standings" in html and "Disputed results" in html
    response = staff.post(url, follow=True)
    assert "tables recomputed" in response.content.decode()


def test_generate_fixtures_action(staff: Client, cup) -> None:
    from tournaments.services.stages import stage_create

    stage = stage_create(
        competition=cup.competition,
        name="Friendlies",
        kind=Stage.Kind.ROUND_ROBIN,
        teams=list(cup.teams.values())[:4],
    )
    response = staff.post(
        reverse("admin:tournaments_stage_changelist"),
        {"action": "generate_fixtures", "_selected_action": [stage.pk, cup.groups_stage.pk]},
        follow=True,
    )
    html = response.content.decode()
    assert "6 fixtures generated" in html
    assert "already generated" in html  # the group stage is refused, with the reason
    assert Fixture.objects.filter(stage=stage).count() == 6


def test_resolve_dispute_from_the_admin(staff: Client, cup) -> None:
    fixture_id = cup.disputed[0]
    response = staff.post(
        reverse("admin:tournaments_fixture_changelist"),
        {"action": "resolve_dispute", "_selected_action": [fixture_id]},
    )
    assert response.status_code == 302
    resolve_url = response["Location"]
    assert "Disputed by" in staff.get(resolve_url).content.decode()
    response = staff.post(
        resolve_url, {"home_goals": 1, "away_goals": 2, "note": "log shows 1-2"}, follow=True
    )
    assert "dispute resolved" in response.content.decode()
    fixture = Fixture.objects.select_related("result").get(pk=fixture_id)
    assert fixture.status == "confirmed" and (fixture.result.home_goals, fixture.result.away_goals) == (1, 2)


def test_resolve_refuses_a_non_disputed_fixture(staff: Client, cup) -> None:
    fixture = Fixture.objects.filter(status="confirmed").first()
    url = reverse("admin:tournaments_fixture_resolve", args=[fixture.pk])
    response = staff.post(url, {"home_goals": 1, "away_goals": 0})
    assert response.status_code == 200
    assert "only a disputed result is resolved" in response.content.decode()


def test_non_staff_cannot_open_the_admin_views(client: Client, cup) -> None:
    client.force_login(cup.users["Brazil"])
    url = reverse("admin:tournaments_competition_standings", args=[cup.competition.pk])
    assert client.get(url).status_code == 302

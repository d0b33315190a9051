"""Changing the discipline settings rebuilds every suspension and says which were added or removed."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from rest_framework.test import APIClient

from matches.models import Card
from tournaments.models import Suspension

pytestmark = pytest.mark.django_db


def test_threshold_and_red_ban_changes_add_and_remove_suspensions(cup) -> None:
    competition = cup.competition
    staff = APIClient()
    staff.force_authenticate(cup.admin)
    url = f"/api/v1/competitions/{competition.slug}/discipline"
    assert Card.objects.filter(result__fixture__competition=competition, kind="yellow").exists()
    start = {
        "yellow_card_threshold": competition.yellow_card_threshold,
        "red_card_ban_matches": competition.red_card_ban_matches,
    }
    before = Suspension.objects.filter(competition=competition).count()

    stricter = staff.post(url, {"yellow_card_threshold": 1, "red_card_ban_matches": 2}, format="json")
    assert stricter.status_code == 200, stricter.content
    changes = stricter.json()["suspension_changes"]
    assert changes["added"] and any("Yellow" in line or "yellow" in line for line in changes["added"])
    assert Suspension.objects.filter(competition=competition).count() == before + len(changes["added"]) - len(
        changes["removed"]
    )

    back = staff.post(url, start, format="json")
    assert back.status_code == 200
    undone = back.json()["suspension_changes"]
    assert sorted(undone["removed"]) == sorted(changes["added"])
    assert sorted(undone["added"]) == sorted(changes["removed"])
    assert Suspension.objects.filter(competition=competition).count() == before


def test_the_admin_change_form_recomputes_the_bans_and_says_what_changed(cup, client) -> None:
    competition = cup.competition
    client.force_login(cup.admin)
    url = reverse("admin:tournaments_competition_change", args=[competition.pk])
    form = client.get(url).context["adminform"].form
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None:
            continue
        data[name] = [str(v) for v in value] if isinstance(value, list | tuple) else value
    data = {
        k: (str(v) if isinstance(v, bool | int) and not isinstance(v, bool) else v) for k, v in data.items()
    }
    data = {k: v for k, v in data.items() if v is not False}
    # the inlines (stages, teams) stay as they are
    data.update(
        {"stages-TOTAL_FORMS": 0, "stages-INITIAL_FORMS": 0, "teams-TOTAL_FORMS": 0, "teams-INITIAL_FORMS": 0}
    )
    before = Suspension.objects.filter(competition=competition).count()
    data["yellow_card_threshold"] = "1"
    response = client.post(url, data)
    assert response.status_code == 302, response.context["adminform"].form.errors if response.context else ""
    competition.refresh_from_db()
    assert competition.yellow_card_threshold == 1
    after = Suspension.objects.filter(competition=competition).count()
    assert after > before
    shown = " ".join(str(m) for m in get_messages(response.wsgi_request))
    assert "Discipline settings changed" in shown and "added" in shown.lower()

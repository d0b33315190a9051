"""Changing the discipline settings rebuilds every suspension and says which were added or removed."""

from __future__ import annotations

import pytest
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

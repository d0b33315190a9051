"""The new-competition form shows the places after a table (straight into a knockout, into a
play-off) only for a league, Swiss rounds or a league phase; the shape service refuses them for
the other structures, naming the field, rather than dropping what the organiser typed."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from kernel.errors import ApplicationError
from tests.factories import UserFactory
from tournaments.models import Competition
from tournaments.shapes import TABLE_STRUCTURES, Shape, shape_preview

pytestmark = pytest.mark.django_db

FORM = {
    "name": "Places Cup",
    "game_system": "fuba-3",
    "teams": 8,
    "groups": 2,
    "advance_per_group": 2,
    "thirds_placing": "euro_2024",
    "group_legs": 1,
    "knockout_legs": 1,
    "tiebreak_preset": "fifa_world_cup",
    "preview": "1",
}


def _places_fieldset(page: str) -> str:
    found = re.search(r'<fieldset[^>]*data-testid="table-places"[^>]*>', page)
    assert found, "the places fieldset is always rendered (new.js shows it)"
    return found.group(0)


@pytest.mark.parametrize("structure", ["groups", "knockout"])
def test_the_service_refuses_places_where_no_table_feeds_a_knockout(structure: str) -> None:
    for field in ("direct_places", "playoff_places"):
        with pytest.raises(
            ApplicationError, match="apply to a league, Swiss rounds or a league phase"
        ) as exc:
            shape_preview(Shape(structure, 8, groups=2, **{field: 4}))
        assert exc.value.details == {"field": field}
    assert shape_preview(Shape(structure, 8, groups=2)).rounds  # without places it is fine


def test_the_form_shows_the_places_only_for_a_table_and_refuses_them_elsewhere() -> None:
    client = Client()
    client.force_login(UserFactory(username="nina"))
    fieldset = _places_fieldset(client.get("/console/new/").content.decode())  # groups by default
    assert " hidden" in fieldset and " disabled" in fieldset
    assert set(re.search(r'data-structures="([^"]*)"', fieldset).group(1).split()) == set(TABLE_STRUCTURES)
    shown = _places_fieldset(client.get("/console/new/?preset=league_phase_36").content.decode())
    assert " hidden" not in shown and " disabled" not in shown

    refused = client.post(
        "/console/new/", FORM | {"structure": "groups", "direct_places": 4}
    ).content.decode()
    assert "takes none: leave it at 0" in refused and 'data-testid="preview"' not in refused
    assert " hidden" not in _places_fieldset(refused)  # shown with its error, to be put right
    assert not Competition.objects.exists()

    league = client.post("/console/new/", FORM | {"structure": "league", "direct_places": 4}).content.decode()
    assert 'data-testid="preview"' in league and "Semi-finals" in league
    assert " hidden" not in _places_fieldset(league)
    groups = client.post("/console/new/", FORM | {"structure": "groups"}).content.decode()
    assert 'data-testid="preview"' in groups and " hidden" in _places_fieldset(groups)

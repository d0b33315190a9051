"""A competition's settings are listed once (the service) and checked alike by every writer.

The API's input serializer takes its field names from `COMPETITION_SETTINGS` and its ranges from
`SETTING_RANGES`; the console's points form takes the same ranges; the service refuses a number
out of range itself, so the admin and the commands (which call it directly) refuse it too.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from fubaleague.console.rules_views import PointsForm
from kernel.errors import ApplicationError
from league.api.setup_serializers import CompetitionUpdateSerializer, CompetitionWriteSerializer
from matches.discipline import competition_discipline_set
from tests.factories import AdminFactory, CompetitionFactory
from tournaments.models import Competition
from tournaments.services.competitions import (
    COMPETITION_SETTINGS,
    DISCIPLINE_SETTINGS,
    SETTING_RANGES,
    competition_create,
    competition_update,
)

pytestmark = pytest.mark.django_db


def test_the_api_takes_exactly_the_services_settings() -> None:
    assert set(CompetitionWriteSerializer().fields) == {"slug", *COMPETITION_SETTINGS}
    assert set(CompetitionUpdateSerializer().fields) == set(COMPETITION_SETTINGS) - set(DISCIPLINE_SETTINGS)


@pytest.mark.parametrize("field", sorted(SETTING_RANGES))
def test_the_service_refuses_a_number_out_of_range_naming_the_field(field) -> None:
    low, high = SETTING_RANGES[field]
    with pytest.raises(ApplicationError, match=f"from {low} to {high}; got {high + 1}") as exc:
        competition_create(name="X", slug="x", **{field: high + 1})
    assert exc.value.details == {"field": field}
    assert not Competition.objects.filter(slug="x").exists()


def test_an_update_and_the_discipline_refuse_what_create_refuses() -> None:
    competition = CompetitionFactory()
    with pytest.raises(ApplicationError, match="Points for a win must be from 0 to 100; got 101"):
        competition_update(competition=competition, points_win=101)
    with pytest.raises(ApplicationError, match="Yellow cards for a ban must be from 0 to 20; got 21"):
        competition_discipline_set(competition=competition, yellow_card_threshold=21, red_card_ban_matches=1)
    with pytest.raises(ApplicationError, match="must be a whole number; got 'three'"):
        competition_update(competition=competition, skill_limit="three")
    competition.refresh_from_db()
    assert (competition.points_win, competition.yellow_card_threshold, competition.skill_limit) == (3, 2, 5)


def test_the_api_and_the_console_accept_the_same_points() -> None:
    admin = AdminFactory(is_superuser=True)
    api = APIClient()
    api.force_authenticate(admin)
    answer = api.post(
        "/api/v1/competitions",
        {"name": "Old style", "slug": "old-style", "points_win": 50, "points_draw": 1},
        format="json",
    )
    assert answer.status_code == 201, answer.json()
    assert PointsForm({"points_win": 50, "points_draw": 1, "points_loss": 0}).is_valid()
    refused = api.patch("/api/v1/competitions/old-style", {"points_win": 101}, format="json")
    assert refused.status_code == 400
    assert "points_win" in str(refused.json())
    assert not PointsForm({"points_win": 101, "points_draw": 1, "points_loss": 0}).is_valid()


def test_a_taken_slug_is_the_services_conflict() -> None:
    admin = AdminFactory(is_superuser=True)
    api = APIClient()
    api.force_authenticate(admin)
    CompetitionFactory(slug="taken")
    answer = api.post("/api/v1/competitions", {"name": "Again", "slug": "taken"}, format="json")
    assert answer.status_code == 409, answer.json()
    assert "slug" in str(answer.json())

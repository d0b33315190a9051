"""A stage's settings are listed once (the service) and checked alike by every writer.

The API's input serializers take their field names from `STAGE_SETTINGS` and their ranges from
`STAGE_RANGES`; the console's Stages forms take the same ranges; the service refuses a number out
of range itself, naming the field, so the admin and the commands (which call it directly) do too.
"""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from fubaleague.console.stage_views import KnockoutForm
from kernel.errors import ApplicationError
from league.api.setup_serializers import StageUpdateSerializer, StageWriteSerializer
from tests.factories import AdminFactory, CompetitionFactory, TeamFactory
from tournaments.models import Stage
from tournaments.services.stages import STAGE_RANGES, STAGE_SETTINGS, stage_create, stage_update

pytestmark = pytest.mark.django_db


def test_the_api_takes_exactly_the_services_settings_with_its_ranges() -> None:
    write, update = StageWriteSerializer().fields, StageUpdateSerializer().fields
    assert set(write) == {"competition", "name", "kind", "order", "teams", "groups", *STAGE_SETTINGS}
    assert set(update) == {"order", "teams", *STAGE_SETTINGS}
    for field, bounds in STAGE_RANGES.items():
        assert (write[field].min_value, write[field].max_value) == bounds, field
        assert (update[field].min_value, update[field].max_value) == bounds, field


def _league(competition):
    teams = [TeamFactory(competition=competition, name=f"T{i}") for i in range(1, 9)]
    return stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)


@pytest.mark.parametrize("field", sorted(STAGE_RANGES))
def test_the_service_refuses_a_number_out_of_range_naming_the_field(field) -> None:
    competition = CompetitionFactory()
    low, high = STAGE_RANGES[field]
    with pytest.raises(ApplicationError, match=f"must be from {low} to {high}; got {high + 1}") as exc:
        stage_create(competition=competition, name="X", kind=Stage.Kind.KNOCKOUT, **{field: high + 1})
    assert exc.value.details == {"field": field}
    assert not competition.stages.exists()


def test_an_update_refuses_what_create_refuses() -> None:
    competition = CompetitionFactory()
    league = _league(competition)
    with pytest.raises(ApplicationError, match=r"legs .* must be from 1 to 2; got 3") as exc:
        stage_update(stage=league, legs=3)
    assert exc.value.details == {"field": "legs"}
    with pytest.raises(ApplicationError, match="must be a whole number; got 'two'"):
        stage_update(stage=league, legs="two")
    with pytest.raises(ApplicationError, match="stage number must be from 1 to 1000; got 0"):
        stage_update(stage=league, order=0)
    league.refresh_from_db()
    assert (league.legs, league.order) == (1, 1)


def test_the_api_and_the_console_accept_the_same_places() -> None:
    competition = CompetitionFactory(slug="ranges")
    league = _league(competition)
    api = APIClient()
    api.force_authenticate(AdminFactory(is_superuser=True))
    over = {"feed_places_from": 1, "feed_places_to": STAGE_RANGES["feed_places_to"][1] + 1}
    knockout = {"name": "Top", "legs": 1, "knockout_rounds": 0, "feeder": league.pk}
    refused = api.post(
        "/api/v1/stages", {"competition": "ranges", "kind": "knockout", **knockout, **over}, format="json"
    )
    assert refused.status_code == 400 and "feed_places_to" in refused.json()["error"]["details"]
    form = KnockoutForm(knockout | over, competition=competition)
    assert not form.is_valid() and "feed_places_to" in form.errors
    top_four = {"feed_places_from": 1, "feed_places_to": 4}
    assert KnockoutForm(knockout | top_four, competition=competition).is_valid()
    made = api.post(
        "/api/v1/stages", {"competition": "ranges", "kind": "knockout", **knockout, **top_four}, format="json"
    )
    assert made.status_code == 201, made.json()
    too_many_rounds = api.patch(f"/api/v1/stages/{made.json()['id']}", {"knockout_rounds": 13}, format="json")
    assert too_many_rounds.status_code == 400 and "knockout_rounds" in str(too_many_rounds.json())
    assert not KnockoutForm(knockout | top_four | {"knockout_rounds": 13}, competition=competition).is_valid()

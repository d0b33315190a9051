"""A correction that refills places taken from a final table is on record beside the fill: who
corrected it, in which role, when, and which places changed (team before and after); the fill
record itself stays as it was. The API's draws list and the console's Stages page show it."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.services.corrections import result_override
from matches.table_fill import table_places_fill
from tests.factories import UserFactory
from tests.tournaments.test_table_feed import _knockouts, _league, _play
from tournaments.bracket import Score
from tournaments.models import Draw
from tournaments.services.roles import competition_organiser_set

pytestmark = pytest.mark.django_db


def test_a_correction_that_refills_places_is_recorded_beside_the_fill() -> None:
    competition, league, teams = _league("refill")
    playoff, bracket = _knockouts(competition, league)
    olga = UserFactory(username="olga")
    competition_organiser_set(competition=competition, user=olga)
    _play(league, teams)
    table_places_fill(feeder=league, user=olga)
    fills = {d.stage_id: d for d in Draw.objects.filter(kind=Draw.Kind.TABLE_PLACES)}
    assert set(fills) == {playoff.id, bracket.id}
    bracket_fill = fills[bracket.id].result
    second, third = teams[1], teams[2]
    match = league.fixtures.get(home_team__in=[second, third], away_team__in=[second, third])
    flip = Score(1, 0) if match.home_team_id == third.id else Score(0, 1)
    # A result that moves no team across a slot records nothing.
    unmoved = league.fixtures.filter(home_team__in=teams[6:], away_team__in=teams[6:]).get()
    result_override(fixture_id=unmoved.id, user=olga, score=Score(3, 0), note="typo")
    assert Draw.objects.filter(kind=Draw.Kind.TABLE_PLACES).count() == 2

    result_override(fixture_id=match.id, user=olga, score=flip, note="corrected")

    refills = Draw.objects.filter(kind=Draw.Kind.TABLE_PLACES, result__has_key="refill")
    by_stage = {d.stage_id: d for d in refills}
    assert set(by_stage) == {playoff.id, bracket.id} and refills.count() == 2
    semi = by_stage[bracket.id]
    assert semi.result["refill"] == [{"place": 2, "before": second.id, "after": third.id}]
    assert semi.result["places"] == {"1": teams[0].id, "2": third.id}
    assert semi.result["feeder"] == league.id and str(match) in semi.result["cause"]
    assert (semi.drawn_by, semi.drawn_by_role) == (olga, "organiser")
    assert semi.pots == [[teams[0].id, third.id]]
    # one entry for place 3 although both legs of its tie changed
    assert by_stage[playoff.id].result["refill"] == [{"place": 3, "before": third.id, "after": second.id}]
    fills[bracket.id].refresh_from_db()
    assert fills[bracket.id].result == bracket_fill  # the fill itself is not rewritten

    api = APIClient()
    api.force_authenticate(olga)
    listed = api.get(f"/api/v1/stages/{bracket.id}/draws").json()
    assert listed[0]["result"]["refill"] == semi.result["refill"]
    assert listed[0]["drawn_by"] == "olga" and "refill" not in listed[1]["result"]
    console = Client()
    console.force_login(olga)
    page = console.get(f"/console/c/{competition.slug}/stages/").content.decode()
    assert 'data-testid="table-refill"' in page
    assert f"place 2: {second.name} → {third.name}" in page and "olga (organiser)" in page

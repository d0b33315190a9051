"""The 2024/25 Champions League shape through the setup API: a 36-team league phase played out,
then places 9–24 to a two-legged play-off and 1–8 to the round of 16 by table places
(POST /api/v1/stages/{id}/fill-from-table); an organiser may, a results-desk helper may not."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.standings.selectors import standings_table
from tests.factories import AdminFactory, UserFactory
from tests.setup.test_league_phase import COUNTRIES
from tournaments.formats import competition_create_from_format
from tournaments.models import Competition, Fixture, Stage
from tournaments.services.roles import role_grant

pytestmark = pytest.mark.django_db


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _champions_league(slug: str, organiser: Any) -> Competition:
    rows = [{"name": f"Club {i:02}", "country": COUNTRIES[(i * 7) % 36]} for i in range(36)]
    created = competition_create_from_format(
        name=f"CL {slug}", slug=slug, format="league_phase_36", teams=rows, seed=2024, user=organiser
    )
    return created.competition


def _play(admin: APIClient, phase: Stage, leave: int = 0) -> None:
    fixtures = list(phase.fixtures.order_by("round", "match_number"))
    for i, fixture in enumerate(fixtures[: len(fixtures) - leave]):
        score = {"home_goals": (i * 7) % 4, "away_goals": (i * 3) % 3, "note": "simulated"}
        assert admin.post(f"/api/v1/fixtures/{fixture.id}/override", score).status_code == 200


def test_the_play_off_and_round_of_16_are_made_from_the_final_table_by_places() -> None:
    olga, desk = UserFactory(username="olga"), UserFactory(username="desk")
    competition = _champions_league("cl-api", olga)
    role_grant(competition=competition, user=desk, kind="results_desk", by=olga)
    phase, playoff, bracket, final = competition.stages.order_by("order")
    assert (playoff.feed_places_from, playoff.feed_places_to, playoff.legs) == (9, 24, 2)
    assert (bracket.feed_places_from, bracket.feed_places_to, bracket.feed_playoff) == (1, 8, playoff)
    admin, organiser = _client(AdminFactory(is_superuser=True)), _client(olga)
    url = f"/api/v1/stages/{phase.id}/fill-from-table"
    _play(admin, phase, leave=1)
    refused = organiser.post(url)
    assert (
        refused.status_code == 409 and "1 fixture(s) still to be played" in refused.json()["error"]["message"]
    )
    last = phase.fixtures.exclude(status__in=Fixture.DONE_STATUSES).get()
    assert (
        admin.post(
            f"/api/v1/fixtures/{last.id}/override", {"home_goals": 2, "away_goals": 0, "note": "x"}
        ).status_code
        == 200
    )
    assert _client(desk).post(url).status_code == 403
    assert not playoff.fixtures.exists()
    made = organiser.post(url)
    assert made.status_code == 201, made.json()
    place = {r.position: r.team for r in standings_table(stage=phase)}
    assert len(place) == 36 and all(not r.level_with_previous for r in standings_table(stage=phase))
    ties: dict[int, list[Fixture]] = {}
    for fixture in playoff.fixtures.all():
        ties.setdefault(fixture.match_number or 0, []).append(fixture)
    assert len(ties) == 8
    headed_by = {}
    for legs in ties.values():
        first, second = sorted(legs, key=lambda f: f.leg)
        seeded = next(q for q in range(9, 17) if place[q] in (first.home_team_id, first.away_team_id))
        # 9 v 24 … 16 v 17; the seeded team plays the return leg at home
        assert (first.away_team_id, first.home_team_id) == (place[seeded], place[33 - seeded])
        assert (second.home_team_id, second.away_team_id) == (place[seeded], place[33 - seeded])
        headed_by[seeded] = first.match_number
    r16 = list(bracket.fixtures.filter(round=1, leg=2).order_by("match_number"))
    pairs = [(f.home_team_id, (f.away_source or {}).get("match")) for f in r16]
    # 1 v winner of 16 v 17, 8 v winner of 9 v 24, 4 v 13 v 20, 5 v 12 v 21, 2 v 15 v 18 …
    expected = [1, 8, 4, 5, 2, 7, 3, 6]
    assert pairs == [(place[p], headed_by[17 - p]) for p in expected]
    assert bracket.fixtures.count() == (8 + 4 + 2) * 2 and playoff.fixtures.count() == 16
    again = organiser.post(url)
    assert again.status_code == 200 and again.json() == []
    # The one-match final follows the semi-finals as any knockout chain does.
    assert (
        organiser.post(f"/api/v1/stages/{final.id}/generate-fixtures", {}, format="json").status_code == 201
    )


def test_the_bands_are_set_through_the_stage_api_and_checked() -> None:
    olga = UserFactory(username="olga2")
    competition = _champions_league("cl-bands", olga)
    phase = competition.stages.get(kind=Stage.Kind.LEAGUE_PHASE)
    organiser = _client(olga)
    body = {"competition": competition.slug, "name": "Too many", "kind": "knockout", "feeder": phase.id}
    response = organiser.post(
        "/api/v1/stages", {**body, "feed_places_from": 1, "feed_places_to": 40}, format="json"
    )
    assert response.status_code == 400 and response.json()["error"]["details"]["field"] == "feed_places_to"
    made = organiser.post(
        "/api/v1/stages", {**body, "name": "Top 4", "feed_places_from": 1, "feed_places_to": 4}, format="json"
    )
    assert made.status_code == 201 and made.json()["feed_places_to"] == 4
    desk = UserFactory(username="desk2")
    role_grant(competition=competition, user=desk, kind="results_desk", by=olga)
    patch = _client(desk).patch(f"/api/v1/stages/{made.json()['id']}", {"feed_places_to": 8}, format="json")
    assert patch.status_code == 403

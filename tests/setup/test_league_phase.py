"""A league phase with a drawn schedule (36 teams, 4 pots, 8 opponents, country caps) via services and API."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.progress import competition_podium
from matches.standings.selectors import standings_table
from tests.factories import AdminFactory
from tournaments.models import Competition, Draw, Fixture, Stage, Team
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create

pytestmark = pytest.mark.django_db

# 36 teams as in 2024/25: several of the big countries, one of many others.
COUNTRIES = ["ENG"] * 5 + ["ESP"] * 4 + ["GER"] * 5 + ["ITA"] * 5 + ["FRA"] * 4 + ["POR"] * 3
COUNTRIES += ["NED"] * 2 + ["BEL", "SCO", "AUT", "CZE", "CRO", "SRB", "SUI", "UKR", "SVK", "SLO"]


@pytest.fixture
def api() -> APIClient:
    client = APIClient()
    client.force_authenticate(AdminFactory(is_superuser=True))
    return client


def field(slug: str) -> tuple[Competition, list[Team]]:
    competition = competition_create(name=f"League phase {slug}", slug=slug, tiebreak_preset="uefa")
    teams = [
        team_create(competition=competition, name=f"Club {i:02}", country=COUNTRIES[(i * 7) % 36], seed=i + 1)
        for i in range(36)
    ]
    return competition, teams


def league_phase(api: APIClient, slug: str) -> tuple[Competition, list[Team], dict[str, Any]]:
    competition, teams = field(slug)
    response = api.post(
        "/api/v1/stages",
        {
            "competition": slug,
            "name": "League phase",
            "kind": "league_phase",
            "teams": [t.id for t in teams],
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return competition, teams, response.json()


def draw(api: APIClient, stage_id: int, **body: Any) -> Any:
    return api.post(f"/api/v1/stages/{stage_id}/draw-league-phase", body, format="json")


def test_36_teams_drawn_from_pots_by_seeding_with_country_caps(api: APIClient) -> None:
    _competition, teams, stage = league_phase(api, "lp-a")
    response = draw(api, stage["id"], seed=2024, opponents=8, country_cap=2)
    assert response.status_code == 201, response.json()
    record = response.json()
    assert record["kind"] == "league_phase" and record["seed"] == 2024
    # Pots by seeding order: seeds 1-9 in pot 1, …
    assert record["pots"] == [[t.id for t in teams[p * 9 : p * 9 + 9]] for p in range(4)]
    assert record["result"]["matchdays"] == 8 and len(record["result"]["matches"]) == 144
    fixtures = list(Fixture.objects.filter(stage_id=stage["id"]).select_related("home_team", "away_team"))
    assert len(fixtures) == 144
    pot_of = {t: p for p, pot in enumerate(record["pots"]) for t in pot}
    for team in teams:
        mine = [f for f in fixtures if team.id in (f.home_team_id, f.away_team_id)]
        assert sorted(f.round for f in mine) == list(range(1, 9)), "one match a matchday"
        opponents = [(f.away_team if f.home_team_id == team.id else f.home_team) for f in mine]
        assert len({o.id for o in opponents}) == 8
        assert Counter(pot_of[o.id] for o in opponents) == dict.fromkeys(range(4), 2)
        homes = Counter(pot_of[f.away_team_id] for f in mine if f.home_team_id == team.id)
        assert homes == dict.fromkeys(range(4), 1), "one home match per pot"
        countries = Counter(o.country for o in opponents)
        assert countries[team.country] == 0 and max(countries.values()) <= 2


def test_the_same_seed_gives_the_same_draw_and_a_redraw_stops_once_a_result_counts(api: APIClient) -> None:
    _c1, teams1, stage1 = league_phase(api, "lp-b")
    _c2, teams2, stage2 = league_phase(api, "lp-c")
    first = draw(api, stage1["id"], seed=77).json()
    second = draw(api, stage2["id"], seed=77).json()
    index1 = {t.id: i for i, t in enumerate(teams1)}
    index2 = {t.id: i for i, t in enumerate(teams2)}
    as_index = [[index1[h], index1[a], d] for h, a, d in first["result"]["matches"]]
    assert as_index == [[index2[h], index2[a], d] for h, a, d in second["result"]["matches"]]
    # Drawn again before any result: the fixtures are replaced, both draws are on record.
    again = draw(api, stage1["id"], seed=78)
    assert again.status_code == 201
    assert Fixture.objects.filter(stage_id=stage1["id"]).count() == 144
    assert Draw.objects.filter(stage_id=stage1["id"], kind="league_phase").count() == 2
    fixture = Fixture.objects.filter(stage_id=stage1["id"]).first()
    assert fixture is not None
    played = api.post(
        f"/api/v1/fixtures/{fixture.id}/override", {"home_goals": 1, "away_goals": 0, "note": "x"}
    )
    assert played.status_code == 200, played.json()
    refused = draw(api, stage1["id"], seed=79)
    assert refused.status_code == 409
    assert "can no longer be drawn" in refused.json()["error"]["message"]


@pytest.mark.parametrize(
    ("body", "field_name", "words"),
    [
        ({"opponents": 7}, "opponents", "even"),
        ({"opponents": 6, "pots": "first four"}, "pots", ""),
        ({"country_cap": 0}, "country_cap", "at least 1"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(
    api: APIClient, body: dict[str, Any], field_name: str, words: str
) -> None:
    _c, _teams, stage = league_phase(api, f"lp-bad-{field_name}")
    response = draw(api, stage["id"], **body)
    assert response.status_code == 400
    assert field_name in str(response.json()), response.json()
    assert words in str(response.json())
    assert not Fixture.objects.filter(stage_id=stage["id"]).exists()


def test_pots_of_the_wrong_count_and_an_impossible_country_are_refused(api: APIClient) -> None:
    _c, teams, stage = league_phase(api, "lp-pots")
    three = [[t.id for t in teams[p * 12 : p * 12 + 12]] for p in range(3)]
    response = draw(api, stage["id"], pots=three, opponents=8)
    assert response.status_code == 400 and "need 4 pots" in response.json()["error"]["message"]
    # Pot 2 all English but one: the other English teams have too few opponents there.
    for team in teams[9:17]:
        Team.objects.filter(id=team.id).update(country="ENG")
    response = draw(api, stage["id"], seed=1)
    assert response.status_code == 400
    assert "no opponent of the same country" in response.json()["error"]["message"]
    assert not Draw.objects.filter(stage_id=stage["id"]).exists()


def test_played_through_the_api_the_single_table_is_complete(api: APIClient) -> None:
    competition, _teams, stage = league_phase(api, "lp-play")
    assert draw(api, stage["id"], seed=5).status_code == 201
    fixtures = Fixture.objects.filter(stage_id=stage["id"]).order_by("round", "match_number")
    for i, fixture in enumerate(fixtures):
        score = {"home_goals": (i * 7) % 4, "away_goals": (i * 3) % 3, "note": "simulated"}
        assert api.post(f"/api/v1/fixtures/{fixture.id}/override", score).status_code == 200
    league = Stage.objects.get(id=stage["id"])
    rows = standings_table(stage=league)
    assert len(rows) == 36 and all(r.played == 8 for r in rows)
    assert sum(r.points for r in rows) == sum(
        3 if f.result.home_goals != f.result.away_goals else 2 for f in fixtures
    )
    league.refresh_from_db()
    assert league.status == Stage.Status.COMPLETED
    podium = competition_podium(competition=competition)
    assert podium is not None and podium.champion.id == rows[0].team


def test_the_format_makes_and_draws_a_36_team_league_phase_in_one_call(api: APIClient) -> None:
    rows = [{"name": f"Club {i:02}", "country": COUNTRIES[(i * 7) % 36]} for i in range(36)]
    body = {
        "name": "Phase Format",
        "slug": "phase-format",
        "format": "league_phase_36",
        "seed": 9,
        "teams": rows,
    }
    response = api.post("/api/v1/competitions/from-format", body, format="json")
    assert response.status_code == 201, response.json()
    stage = Stage.objects.get(competition__slug="phase-format", kind=Stage.Kind.LEAGUE_PHASE)
    assert stage.kind == "league_phase" and stage.fixtures.count() == 144
    draw = Draw.objects.get(stage=stage)
    names = dict(Team.objects.filter(competition__slug="phase-format").values_list("id", "name"))
    assert [names[i] for i in draw.pots[0]] == [f"Club {i:02}" for i in range(9)]  # the listed order
    missing = {"name": "No Teams", "slug": "no-teams", "format": "league_phase_36"}
    refused = api.post("/api/v1/competitions/from-format", missing, format="json")
    assert refused.status_code == 400 and "36 teams" in refused.json()["error"]["message"]

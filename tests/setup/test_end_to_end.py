"""The API alone (no admin, no shell) sets competitions up and plays them to a champion.

- a 32-team World Cup: pot draw, group stage, round of 16, quarter-finals (yellows wiped after them),
  semi-finals, then third place and final;
- a 24-team Euro whose best third-placed teams are placed by UEFA's table;
- a Champions-League-style knockout: drawn, two-legged ties, a single-match final.

Results are entered by staff through the `override` endpoint; the stronger team (lower seed) wins.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.factories import AdminFactory
from tournaments.bracket import (
    UEFA_EURO_2016_THIRD_OPPONENTS,
    UEFA_EURO_2016_THIRDS,
    UEFA_EURO_THIRD_OPPONENTS,
    UEFA_EURO_THIRDS,
)

# Stage.thirds_placing → UEFA's table and the group winners that meet thirds, in its columns' order.
PLACINGS = {
    "euro_2024": (UEFA_EURO_THIRDS, UEFA_EURO_THIRD_OPPONENTS),
    "euro_2016": (UEFA_EURO_2016_THIRDS, UEFA_EURO_2016_THIRD_OPPONENTS),
}

pytestmark = pytest.mark.django_db


@pytest.fixture
def api() -> APIClient:
    client = APIClient()
    client.force_authenticate(AdminFactory(is_superuser=True))
    return client


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.content[:600]
    return response.json() if response.content else None


def seed_of(team: dict[str, Any] | None) -> int:
    assert team is not None
    return int(team["name"][1:])


def fixtures(api: APIClient, **query: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    page = 1
    while True:
        body = ok(api.get("/api/v1/fixtures", {**query, "page": page, "page_size": 200}))
        out += body["results"]
        if not body.get("next"):
            return out
        page += 1


def play_stage(api: APIClient, stage_id: int, cards: dict[int, list[dict[str, Any]]] | None = None) -> None:
    """Enter every fixture of the stage, round by round (later rounds' teams are known by then)."""
    rounds = sorted({f["round"] for f in fixtures(api, stage=stage_id)})
    for rnd in rounds:
        for f in fixtures(api, stage=stage_id, round=rnd):
            if f["status"] != "scheduled":
                continue
            home, away = seed_of(f["home_team"]), seed_of(f["away_team"])
            body = {
                "home_goals": 2 if home < away else 0,
                "away_goals": 0 if home < away else 2,
                "note": "e2e",
            }
            body["cards"] = (cards or {}).get(f["match_number"], [])
            ok(api.post(f"/api/v1/fixtures/{f['id']}/override", body, format="json"))


def enter_teams(api: APIClient, slug: str, n: int) -> list[dict[str, Any]]:
    # Eight countries, each once per pot of eight: a draw can keep every group's countries apart.
    rows = [
        {"name": f"S{i:02d}", "country": f"Country {i % 8}", "club": f"Club {i}", "seed": i}
        for i in range(1, n + 1)
    ]
    return ok(api.post(f"/api/v1/competitions/{slug}/teams", {"teams": rows}, format="json"), 201)


def test_world_cup_32_with_pot_draw_and_a_chain_of_knockout_stages(api) -> None:
    ok(
        api.post(
            "/api/v1/competitions",
            {"name": "FUBA World Cup", "slug": "wc", "is_world_cup": True},
            format="json",
        ),
        201,
    )
    teams = sorted(enter_teams(api, "wc", 32), key=seed_of)
    letters = "ABCDEFGH"
    groups = ok(
        api.post(
            "/api/v1/stages",
            {
                "competition": "wc",
                "name": "Group stage",
                "kind": "groups",
                "groups": {g: [] for g in letters},
            },
            format="json",
        ),
        201,
    )
    pots = [[t["id"] for t in teams[i : i + 8]] for i in range(0, 32, 8)]
    draw = ok(
        api.post(
            f"/api/v1/stages/{groups['id']}/draw-groups",
            {"pots": pots, "seed": 2026, "constraints": ["country"]},
            format="json",
        ),
        201,
    )
    assert draw["seed"] == 2026 and draw["relax"] is False and draw["relaxed"] == []
    assert draw["constraints"] == [
        {"attribute": "country", "at_most": 1, "text": "at most 1 team(s) of one country per group"}
    ]
    drawn = ok(api.get(f"/api/v1/stages/{groups['id']}"))["groups"]
    for group in drawn:
        seeds = sorted(seed_of(t) for t in group["teams"])
        assert [(s - 1) // 8 for s in seeds] == [0, 1, 2, 3]  # one team of each pot
        assert len({t["country"] for t in group["teams"]}) == 4

    def knockout(name: str, **extra: Any) -> dict[str, Any]:
        body = {"competition": "wc", "name": name, "kind": "knockout", **extra}
        return ok(api.post("/api/v1/stages", body, format="json"), 201)

    r16 = knockout("Round of 16", knockout_rounds=1)
    qf = knockout("Quarter-finals", knockout_rounds=1)
    sf = knockout("Semi-finals", knockout_rounds=1)
    final = knockout("Finals", third_place_match=True)
    ok(
        api.post(
            "/api/v1/competitions/wc/discipline",
            {"yellow_card_threshold": 2, "red_card_ban_matches": 1, "yellow_wipe_after_stage": qf["id"]},
            format="json",
        )
    )
    schedule = {
        "start_date": "2027-06-11",
        "kickoff_time": "18:00",
        "days_between_rounds": 4,
        "deadline_days": 2,
    }
    assert (
        len(ok(api.post(f"/api/v1/stages/{groups['id']}/generate-fixtures", schedule, format="json"), 201))
        == 48
    )
    ko = ok(api.post(f"/api/v1/stages/{r16['id']}/generate-fixtures", {}, format="json"), 201)
    assert [f["match_number"] for f in ko] == list(range(49, 57))
    assert (ko[0]["home_placeholder"], ko[0]["away_placeholder"]) == ("Winner group A", "Runner-up group B")
    # A later stage is generated once its feeder's fixtures exist: "Winner match 49" ...
    quarter = ok(api.post(f"/api/v1/stages/{qf['id']}/generate-fixtures", {}, format="json"), 201)
    assert (quarter[0]["home_placeholder"], quarter[0]["away_placeholder"]) == (
        "Winner match 49",
        "Winner match 50",
    )
    semi = ok(api.post(f"/api/v1/stages/{sf['id']}/generate-fixtures", {}, format="json"), 201)
    last = ok(api.post(f"/api/v1/stages/{final['id']}/generate-fixtures", {}, format="json"), 201)
    assert [(f["round_name"], f["home_placeholder"], f["away_placeholder"]) for f in last] == [
        ("Third place", f"Loser match {semi[0]['match_number']}", f"Loser match {semi[1]['match_number']}"),
        ("Final", f"Winner match {semi[0]['match_number']}", f"Winner match {semi[1]['match_number']}"),
    ]

    play_stage(api, groups["id"])
    play_stage(api, r16["id"])
    # S01 is booked once in the quarter-final and once in the semi-final: two yellows, but the
    # quarter-final's was wiped, so S01 plays the final with a full side.
    s01 = next(t for t in teams if t["name"] == "S01")
    qf_match = next(
        f for f in fixtures(api, stage=qf["id"]) if s01["id"] in (f["home_team"]["id"], f["away_team"]["id"])
    )
    side = "home" if qf_match["home_team"]["id"] == s01["id"] else "away"
    play_stage(api, qf["id"], cards={qf_match["match_number"]: [{"team": side, "kind": "yellow"}]})
    sf_match = next(
        f for f in fixtures(api, stage=sf["id"]) if s01["id"] in (f["home_team"]["id"], f["away_team"]["id"])
    )
    side = "home" if sf_match["home_team"]["id"] == s01["id"] else "away"
    play_stage(api, sf["id"], cards={sf_match["match_number"]: [{"team": side, "kind": "yellow"}]})
    assert ok(api.get("/api/v1/suspensions", {"competition": "wc", "team": s01["id"]}))["count"] == 0
    play_stage(api, final["id"])

    competition = ok(api.get("/api/v1/competitions/wc"))
    assert competition["status"] == "finished"
    final_match = next(f for f in fixtures(api, stage=final["id"]) if f["round_name"] == "Final")
    winner = final_match["home_team"] if final_match["result"]["home_goals"] else final_match["away_team"]
    assert winner["name"] == "S01"  # the strongest team is champion
    third = next(f for f in fixtures(api, stage=final["id"]) if f["round_name"] == "Third place")
    assert third["result"] is not None
    semi_losers = {f["home_team"]["name"] for f in fixtures(api, stage=sf["id"])} | {
        f["away_team"]["name"] for f in fixtures(api, stage=sf["id"])
    }
    assert {third["home_team"]["name"], third["away_team"]["name"]} < semi_losers


@pytest.mark.parametrize(
    ("placing", "allowed"),
    [
        # EURO 2020/2024: the winners of B, C, E, F meet thirds of these groups.
        ("euro_2024", {"B": set("ADEF"), "C": set("DEF"), "E": set("ABCD"), "F": set("ABC")}),
        # EURO 2016 (art. 18): 1A v 3C/D/E, 1B v 3A/C/D, 1C v 3A/B/F, 1D v 3B/E/F.
        ("euro_2016", {"A": set("CDE"), "B": set("ACD"), "C": set("ABF"), "D": set("BEF")}),
    ],
)
def test_uefa_table_places_every_combination_of_best_thirds(placing, allowed) -> None:
    table, opponents = PLACINGS[placing]
    keys = {"".join(c) for c in combinations("ABCDEF", 4)}
    assert set(table) == keys and len(keys) == 15
    for key, row in table.items():
        assert sorted(row) == list(key), key  # each qualifying third placed once
        for winner, third in zip(opponents, row, strict=True):
            assert third != winner and third in allowed[winner], (key, winner, third)
    if placing == "euro_2016":
        # The real EURO 2016: thirds of B, C, E, F; France (1A) met Ireland (3E), Wales (1B)
        # Northern Ireland (3C), Germany (1C) Slovakia (3B), Croatia (1D) Portugal (3F).
        assert table["BCEF"] == ("E", "C", "B", "F")


@pytest.mark.parametrize(
    ("placing", "combination"), [(p, c) for p in sorted(PLACINGS) for c in sorted(UEFA_EURO_THIRDS)]
)
def test_euro_24_round_of_16_follows_the_uefa_table(placing, combination) -> None:
    """All 15 combinations in both placings through the resolver: the thirds of `combination` qualify."""
    from matches.progress import placeholders_resolve
    from tests.factories import CompetitionFactory
    from tournaments.models import Fixture, Stage
    from tournaments.services.clubs import team_create
    from tournaments.services.scheduling import fixture_generate
    from tournaments.services.stages import stage_create

    competition = CompetitionFactory()
    groups = {
        g: [team_create(competition=competition, name=f"{g}{i}") for i in range(1, 5)] for g in "ABCDEF"
    }
    stage = stage_create(
        competition=competition,
        name="Groups",
        kind=Stage.Kind.GROUPS,
        groups=groups,
        best_thirds=4,
        thirds_placing=placing,
    )
    ko = stage_create(competition=competition, name="KO", kind=Stage.Kind.KNOCKOUT)
    fixture_generate(stage=stage)
    fixture_generate(stage=ko)
    # 1 beats everyone, 2 beats 3 and 4; a qualifying third beats its fourth, the others draw.
    for fixture in Fixture.objects.filter(stage=stage).select_related("home_team", "away_team", "group"):
        h, a = int(fixture.home_team.name[1]), int(fixture.away_team.name[1])
        level = {h, a} == {3, 4} and fixture.group.name not in combination
        score = (1, 1) if level else ((1, 0) if h < a else (0, 1))
        _record(fixture, *score)
    placeholders_resolve(competition=competition)
    table, opponents = PLACINGS[placing]
    first_round = [
        (f.home_team.name, f.away_team.name)
        for f in Fixture.objects.filter(stage=ko, round=1)
        .order_by("match_number")
        .select_related("home_team", "away_team")
    ]
    against = dict(first_round)
    for winner, third in zip(opponents, table[combination], strict=True):
        assert against[f"{winner}1"] == f"{third}3"
    if placing == "euro_2024":
        assert against["A1"] == "C2" and against["D2"] == "E2" and against["D1"] == "F2"
    else:
        # EURO 2016's bracket: matches 1 to 8 in order, quarter-finals 1 v 2, 3 v 4 ...
        assert [first_round[i] for i in (0, 3, 5, 7)] == [
            ("A2", "C2"),
            ("F1", "E2"),
            ("E1", "D2"),
            ("B2", "F2"),
        ]
        assert [first_round[i][0] for i in (1, 2, 4, 6)] == ["D1", "B1", "C1", "A1"]


def _record(fixture: Any, home: int, away: int) -> None:
    from matches.models import Result
    from tournaments.models import Fixture

    Result.objects.create(fixture=fixture, home_goals=home, away_goals=away, source="clubs")
    Fixture.objects.filter(pk=fixture.pk).update(status=Fixture.Status.CONFIRMED)


@pytest.mark.parametrize("placing", sorted(PLACINGS))
def test_euro_24_through_the_api_places_the_best_thirds_and_marks_them_qualified(api, placing) -> None:
    ok(
        api.post(
            "/api/v1/competitions",
            {"name": "FUBA Euro", "slug": "euro", "tiebreak_preset": "uefa"},
            format="json",
        ),
        201,
    )
    teams = sorted(enter_teams(api, "euro", 24), key=seed_of)
    groups = ok(
        api.post(
            "/api/v1/stages",
            {
                "competition": "euro",
                "name": "Groups",
                "kind": "groups",
                "groups": {g: [] for g in "ABCDEF"},
                "best_thirds": 4,
                "thirds_placing": placing,
            },
            format="json",
        ),
        201,
    )
    assert groups["thirds_placing"] == placing
    pots = [[t["id"] for t in teams[i : i + 6]] for i in range(0, 24, 6)]
    ok(api.post(f"/api/v1/stages/{groups['id']}/draw-groups", {"pots": pots, "seed": 24}, format="json"), 201)
    ko = ok(
        api.post(
            "/api/v1/stages", {"competition": "euro", "name": "Knockout", "kind": "knockout"}, format="json"
        ),
        201,
    )
    ok(api.post(f"/api/v1/stages/{groups['id']}/generate-fixtures", {}, format="json"), 201)
    ok(api.post(f"/api/v1/stages/{ko['id']}/generate-fixtures", {}, format="json"), 201)
    play_stage(api, groups["id"])
    tables = ok(api.get("/api/v1/competitions/euro/standings"))
    thirds = {t["group"]: t["rows"][2] for t in tables}
    round_of_16 = fixtures(api, stage=ko["id"], round=1)
    against = {f["home_placeholder"]: f["away_team"]["name"] for f in round_of_16}
    placed = [thirds[g]["team"] for g in "ABCDEF" if thirds[g]["team"] in against.values()]
    assert len(placed) == 4
    combination = "".join(g for g in "ABCDEF" if thirds[g]["team"] in placed)
    table, opponents = PLACINGS[placing]
    for winner, third_group in zip(opponents, table[combination], strict=True):
        assert against[f"Winner group {winner}"] == thirds[third_group]["team"]
    # A qualifying third shows as qualified in its group's table; the two others do not.
    assert sorted(g for g in "ABCDEF" if thirds[g]["qualified"]) == sorted(combination)
    play_stage(api, ko["id"])
    assert ok(api.get("/api/v1/competitions/euro"))["status"] == "finished"


def test_champions_league_style_two_legged_knockout_with_a_single_final(api) -> None:
    ok(api.post("/api/v1/competitions", {"name": "FUBA Champions", "slug": "cl"}, format="json"), 201)
    teams = enter_teams(api, "cl", 16)
    ties = ok(
        api.post(
            "/api/v1/stages",
            {
                "competition": "cl",
                "name": "Knockout ties",
                "kind": "knockout",
                "legs": 2,
                "knockout_rounds": 3,
                "teams": [t["id"] for t in teams],
            },
            format="json",
        ),
        201,
    )
    final = ok(
        api.post("/api/v1/stages", {"competition": "cl", "name": "Final", "kind": "knockout"}, format="json"),
        201,
    )
    draw = ok(api.post(f"/api/v1/stages/{ties['id']}/draw-knockout", {"seed": 99}, format="json"), 201)
    generated = ok(api.post(f"/api/v1/stages/{ties['id']}/generate-fixtures", {}, format="json"), 201)
    assert len(generated) == 2 * (8 + 4 + 2)
    first = [f for f in generated if f["round"] == 1 and f["leg"] == 1]
    assert [(f["home_team"]["id"], f["away_team"]["id"]) for f in first] == [
        (draw["result"][i], draw["result"][i + 1]) for i in range(0, 16, 2)
    ]
    last = ok(api.post(f"/api/v1/stages/{final['id']}/generate-fixtures", {}, format="json"), 201)
    assert [(f["round_name"], f["leg"]) for f in last] == [("Final", 1)]
    play_stage(api, ties["id"])
    play_stage(api, final["id"])
    match = fixtures(api, stage=final["id"])[0]
    assert match["result"]["home_goals"] + match["result"]["away_goals"] == 2
    assert ok(api.get("/api/v1/competitions/cl"))["status"] == "finished"

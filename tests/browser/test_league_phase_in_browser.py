"""Issue 32 item 4 in a browser: an organiser (not staff) makes the 2024/25 Champions League shape on
the console's pages — 36 teams, a league phase of 8 opponents from 4 pots with country caps — draws it
with a seed, sees each team's opponents per pot, and, once the results are in through the API
(simulated), the public table is complete: one table of 36, 8 played each; the draw can no longer
be made again. Then, on the console's Stages page, places 9–24 make the two-legged play-off (9 v 24
… 16 v 17, the higher place at home in the second leg) and places 1–8 the round of 16 against the
play-off winners (1 v the winner of 16 v 17 … 8 v the winner of 9 v 24), once.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from matches.standings.selectors import standings_table
from tournaments.models import Competition, Draw, Fixture, Stage
from tournaments.table_feed import ordinal

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PASSWORD = "phase-password-2026"
COUNTRIES = ["ENG"] * 5 + ["ESP"] * 4 + ["GER"] * 5 + ["ITA"] * 5 + ["FRA"] * 4 + ["POR"] * 3
COUNTRIES += ["NED"] * 2 + ["BEL", "SCO", "AUT", "CZE", "CRO", "SRB", "SUI", "UKR", "SVK", "SLO"]
SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


def _both_sizes(page, shot, name: str) -> None:
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"league-phase-{name}-{label}")


# 144 results through the API, then the play-off and round of 16 made: about 4 minutes on a quiet
# machine, past the default 300 s on a loaded one.
@pytest.mark.timeout(900)
def test_a_36_team_league_phase_is_drawn_in_the_console_and_played_to_a_full_table(
    page, live_server, settings, shot
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organiser = get_user_model().objects.create_user("olga", "olga@example.org", PASSWORD)
    base = live_server.url
    page.set_viewport_size({"width": 390, "height": 844})  # phone first
    page.goto(f"{base}/login/?next=/console/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.click("[data-testid=new-competition]")
    page.click(
        "text=Champions League 2024/25: 36 teams, league phase, 9–24 to a play-off, 1–8 to the round of 16"
    )
    page.fill("#id_name", "Phase League")
    # Strongest first: the order is the seeding, so pots 1-4 are lines 1-9, 10-18, …
    spread = [(i * 7) % 36 for i in range(36)]
    page.fill("#id_team_list", "\n".join(f"Club {i:02}, {COUNTRIES[spread[i]]}" for i in range(36)))
    page.click("button[name=preview]")
    page.wait_for_selector("text=4 pots of 9")
    assert "Play-off → Round of 16 → Quarter-finals → Semi-finals → Final" in page.inner_text(
        "[data-testid=preview]"
    )
    page.click("[data-testid=create]")
    page.wait_for_selector("nav >> text=Draw")
    page.click("nav >> text=Draw")
    page.wait_for_selector("[data-testid=league-phase-form]")
    assert page.input_value("#id_opponents") == "8"
    page.fill("#id_country_cap", "2")
    page.fill("#id_seed", "2024")
    _both_sizes(page, shot, "draw-form")
    page.click("[data-testid=draw-league-phase]")
    page.wait_for_selector("[data-testid=opponents]")
    assert page.inner_text("[data-testid=draw-seed]") == "2024"
    rows = page.locator("[data-testid=opponents] tbody tr")
    assert rows.count() == 36
    first = rows.nth(0).inner_text()
    assert "Club 00" in first and first.count("(MD ") == 8  # 4 pots × home and away
    _both_sizes(page, shot, "drawn")

    competition = Competition.objects.get(name="Phase League")
    stage = Stage.objects.get(competition=competition, kind=Stage.Kind.LEAGUE_PHASE)
    draw = Draw.objects.get(stage=stage)
    assert (draw.seed, draw.drawn_by.username, draw.drawn_by_role) == (2024, "olga", "organiser")
    fixtures = list(stage.fixtures.select_related("home_team", "away_team"))
    assert len(fixtures) == 144
    for team in competition.teams.all():
        mine = [f for f in fixtures if team.pk in (f.home_team_id, f.away_team_id)]
        opponents = [f.away_team if f.home_team_id == team.pk else f.home_team for f in mine]
        by_country = Counter(o.country for o in opponents)
        assert by_country[team.country] == 0 and max(by_country.values()) <= 2

    # The results, simulated, through the API as the organiser.
    api = APIClient()
    api.force_authenticate(organiser)
    rng = random.Random(36)
    for fixture in Fixture.objects.filter(stage=stage).order_by("round", "match_number"):
        score = {"home_goals": rng.randint(0, 3), "away_goals": rng.randint(0, 3), "note": "simulated"}
        response = api.post(f"/api/v1/fixtures/{fixture.pk}/override", score)
        assert response.status_code == 200, response.json()

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}/c/{competition.slug}/standings/")
    table = page.locator(f"table.standings[data-stage='{stage.pk}'] tbody tr")
    assert table.count() == 36
    played = [table.nth(i).locator("td").nth(1).inner_text() for i in range(36)]
    assert played == ["8"] * 36
    _both_sizes(page, shot, "table")
    # A result counts: the draw step says so and offers no draw.
    page.goto(f"{base}/console/c/{competition.slug}/draw/")
    page.wait_for_selector("[data-testid=draw-frozen]")
    assert page.locator("[data-testid=draw-league-phase]").count() == 0

    # The table is final: the Stages page makes the play-off and the round of 16 from its places.
    page.goto(f"{base}/console/c/{competition.slug}/stages/")
    page.wait_for_selector("[data-testid=fill-from-table]")
    _both_sizes(page, shot, "stages-final-table")
    page.set_viewport_size({"width": 390, "height": 844})
    page.click("[data-testid=fill-from-table]")
    page.wait_for_selector("[data-testid=table-filled]")
    _both_sizes(page, shot, "play-off-made")
    place = {r.position: r.team for r in standings_table(stage=stage)}
    name = dict(competition.teams.values_list("pk", "name"))
    playoff = Stage.objects.get(competition=competition, name="Knockout play-off")
    bracket = Stage.objects.get(competition=competition, feed_playoff=playoff)
    rounds = page.locator("[data-testid=first-round]")
    shown_playoff = rounds.nth(0).locator("li").all_inner_texts()
    # First legs: the lower place at home; 9 v 24 … 16 v 17 by the final table.
    assert sorted(shown_playoff) == sorted(
        f"{name[place[33 - q]]} ({ordinal(33 - q)}) v {name[place[q]]} ({ordinal(q)})" for q in range(9, 17)
    )
    assert playoff.fixtures.count() == 16 and bracket.fixtures.filter(round=1).count() == 16
    shown_r16 = rounds.nth(1).locator("li").all_inner_texts()
    # 1 v the winner of 16th v 17th … 8 v the winner of 9th v 24th
    assert sorted(shown_r16) == sorted(
        f"Winner {ordinal(17 - p)}/{ordinal(16 + p)} v {name[place[p]]} ({ordinal(p)})" for p in range(1, 9)
    )
    head = {}
    for fixture in playoff.fixtures.filter(leg=2):
        q = next(q for q in range(9, 17) if place[q] == fixture.home_team_id)
        head[q] = fixture.match_number
    r16 = bracket.fixtures.filter(round=1, leg=2)
    assert sorted((f.home_team_id, f.away_source["match"]) for f in r16) == sorted(
        (place[p], head[17 - p]) for p in range(1, 9)
    )
    made = Fixture.objects.filter(stage__competition=competition, stage__kind=Stage.Kind.KNOCKOUT).count()
    page.goto(f"{base}/console/c/{competition.slug}/stages/")
    assert page.locator("[data-testid=fill-from-table]").count() == 0
    response = api.post(f"/api/v1/stages/{stage.pk}/fill-from-table")
    assert response.status_code == 200 and response.json() == []
    assert (
        Fixture.objects.filter(stage__competition=competition, stage__kind=Stage.Kind.KNOCKOUT).count()
        == made
    )

"""Issue 32 item 4 in a browser: an organiser (not staff) makes the 2024/25 Champions League shape on
the console's pages — 36 teams, a league phase of 8 opponents from 4 pots with country caps — draws it
with a seed, sees each team's opponents per pot, and, once the results are in through the API
(simulated), the public table is complete: one table of 36, 8 played each; the draw can no longer
be made again. Feeding a play-off and a round of 16 from the table is feed32's stage (not here).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tournaments.models import Competition, Draw, Fixture, Stage

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PASSWORD = "phase-password-2026"
COUNTRIES = ["ENG"] * 5 + ["ESP"] * 4 + ["GER"] * 5 + ["ITA"] * 5 + ["FRA"] * 4 + ["POR"] * 3
COUNTRIES += ["NED"] * 2 + ["BEL", "SCO", "AUT", "CZE", "CRO", "SRB", "SUI", "UKR", "SVK", "SLO"]
SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


def _both_sizes(page, shot, name: str) -> None:
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"league-phase-{name}-{label}")


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
    page.click("text=Champions League 2024/25: 36 teams, league phase, 8 opponents from 4 pots")
    page.fill("#id_name", "Phase League")
    # Strongest first: the order is the seeding, so pots 1-4 are lines 1-9, 10-18, …
    spread = [(i * 7) % 36 for i in range(36)]
    page.fill("#id_team_list", "\n".join(f"Club {i:02}, {COUNTRIES[spread[i]]}" for i in range(36)))
    page.click("button[name=preview]")
    page.wait_for_selector("text=4 pots of 9")
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

"""Issue 32 item 4 on a phone: the Rules step builds a custom tie-break order with buttons (no
dragging), sets 2 points for a win and deducts points with a reason; screenshots at 390×844 and
at desktop size."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from matches.models import PointAdjustment
from tournaments.models import Competition
from tournaments.shapes import Shape, competition_create_from_shape

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PASSWORD = "rules-page-pass"


def test_a_custom_tie_break_order_is_built_with_buttons_on_a_phone(
    browser, live_server, settings, shot
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    olga = get_user_model().objects.create_user("olga", "olga@example.org", PASSWORD)
    teams = [{"name": name, "country": name} for name in ("Wolves", "Hawks", "Tigers", "Bears")]
    competition_create_from_shape(
        name="Rules League", slug="rules-league", shape=Shape("league", 4), teams=teams, creator=olga
    )
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    page.set_default_timeout(15000)
    base = live_server.url
    page.goto(f"{base}/login/?next=/console/c/rules-league/rules/")
    page.fill("#id_username", "olga")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_selector("[data-testid=tiebreak]")

    page.fill("#id_points_win", "2")
    page.click("button[name=save_points]")
    page.wait_for_selector("text=Points saved.")
    # FIFA's order to start from; goals scored moved above goal difference, the rest dropped.
    page.click("[aria-label='Move goals scored up']")
    page.wait_for_selector("[data-testid=order] li:nth-child(2) >> text=goals scored")
    while page.locator("[data-testid=order] li").count() > 3:
        page.locator("[data-testid=order] li").nth(3).locator("[aria-label^=Remove]").click()
    page.select_option("#id_add", "lots")
    page.click("button[name=tb][value=add]")
    page.wait_for_selector("[data-testid=order] li:nth-child(4) >> text=drawing of lots")
    assert page.locator("#id_tiebreak_preset").input_value() == "custom"
    page.click("[data-testid=save-tiebreak]")
    page.wait_for_selector("text=Tie-break rules saved.")
    assert page.locator("[data-testid=order] li").all_inner_texts()[1].startswith("goals scored")
    page.select_option("#id_team", label="Hawks")
    page.fill("#id_points", "-3")
    page.fill("#id_reason", "Fielded a suspended player")
    page.click("button[name=save_adjustment]")
    page.wait_for_selector("text=Hawks -3: Fielded a suspended player · olga (organiser)")
    for label, (width, height) in {"phone": (390, 844), "desktop": (1366, 900)}.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"console-rules-{label}")

    league = Competition.objects.get(slug="rules-league")
    assert league.points_win == 2
    assert (league.tiebreak_preset, league.tiebreak_order) == (
        "custom",
        ["points", "goals_for", "goal_difference", "lots"],
    )
    assert PointAdjustment.objects.get().created_by_role == "organiser"

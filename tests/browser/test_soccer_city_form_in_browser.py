"""In a phone-sized browser: a Soccer City club books players by shirt number on its result form
and sees them on its report (seed 003: the booking area, 12 and 14 in Cup mode)."""

from __future__ import annotations

import pytest

from tests.factories import team_with_member
from tournaments.models import Fixture, Stage
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


@pytest.mark.parametrize("width,height", [(390, 844), (1366, 900)])
def test_a_soccer_city_club_reports_cards_by_shirt_number(browser, live_server, shot, width, height) -> None:
    competition = competition_create(
        name="City Cup", slug="city-cup", game_system="soccer-city", cup_mode=True
    )
    teams = [team_with_member(competition, name, seed=i)[0] for i, name in enumerate(("Reds", "Blues"), 1)]
    stage = stage_create(competition=competition, name="Final", kind=Stage.Kind.KNOCKOUT, legs=2, teams=teams)
    fixture_generate(stage=stage)
    fixture = Fixture.objects.select_related("home_team__club").get(stage=stage, leg=1)
    user = fixture.home_team.club.members.get()  # type: ignore[union-attr]
    user.set_password("a-long-password-9")
    user.save()

    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        page.goto(f"{live_server.url}/login/")
        page.fill("#id_username", user.username)
        page.fill("#id_password", "a-long-password-9")
        page.click("form button[type=submit]")
        page.wait_for_load_state()
        page.goto(f"{live_server.url}/c/{competition.slug}/matches/{fixture.pk}/")
        assert page.locator('[data-testid="score-live"]').count() == 0  # the live scorer plays FUBA 3
        form = page.locator('[data-testid="result-form"]')
        form.locator('input[name="home_goals"]').fill("2")
        form.locator('input[name="away_goals"]').fill("1")
        form.locator('select[name="card_1_team"]').select_option("home")
        form.locator('select[name="card_1_shirt"]').select_option("14")
        form.locator('select[name="card_1_kind"]').select_option("yellow")
        form.locator('select[name="card_2_team"]').select_option("away")
        form.locator('select[name="card_2_shirt"]').select_option("5")
        form.locator('select[name="card_2_kind"]').select_option("red")
        shot(page, f"soccer-city-result-form-{width}")
        page.click('[data-testid="submit-result"]')
        page.wait_for_selector(".message--success")
        cards = page.locator('[data-testid="submission-card"]')
        assert cards.count() == 2
        assert "#14" in cards.nth(0).inner_text() and "#5" in cards.nth(1).inner_text()
        shot(page, f"soccer-city-reported-cards-{width}")
    finally:
        context.close()

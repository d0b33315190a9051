"""In a phone-sized browser: a club signs in to its dashboard, reports a red card, the opponent
disputes that card line, staff resolve it as a yellow in the admin, and no suspension is left."""

from __future__ import annotations

import pytest

from tournaments.models import Fixture, Suspension

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def _sign_in(page, live_server, username: str, password: str) -> None:
    page.goto(f"{live_server.url}/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("form button[type=submit]")


def test_club_dashboard_card_dispute_and_resolution(browser, live_server, cup, shot) -> None:
    from league.demo import CLUB_PASSWORD, DEMO_ADMIN, club_username

    fixture = (
        Fixture.objects.filter(group__name="C", round=1).select_related("home_team", "away_team").first()
    )
    match_url = f"{live_server.url}/c/{cup.competition.slug}/matches/{fixture.pk}/"
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15000)
    try:
        # The home club signs in and lands on its own page.
        _sign_in(page, live_server, club_username(fixture.home_team.name), CLUB_PASSWORD)
        page.wait_for_url("**/my-club/")
        assert fixture.away_team.name in page.locator('[data-testid="next-fixtures"]').inner_text()
        shot(page, "dashboard-home-club")
        page.goto(match_url)
        form = page.locator('[data-testid="result-form"]')
        form.locator('input[name="home_goals"]').fill("2")
        form.locator('input[name="away_goals"]').fill("0")
        form.locator('input[name="away_red"]').fill("1")
        page.click('[data-testid="submit-result"]')
        page.wait_for_selector(".message--success")
        page.click("button.linklike")  # sign out

        # The opponent sees the reported card on its dashboard and the match page, and disputes it.
        _sign_in(page, live_server, club_username(fixture.away_team.name), CLUB_PASSWORD)
        page.wait_for_url("**/my-club/")
        assert "1 card" in page.locator('[data-testid="awaiting"]').inner_text()
        page.goto(match_url)
        cards = page.locator('[data-testid="submission-card"]')
        assert cards.count() == 1 and "Direct red card" in cards.first.inner_text()
        shot(page, "opponent-sees-cards")
        page.check('[data-testid="dispute-card-0"]')
        page.fill("#id_reason", "the card was a yellow")
        page.click('[data-testid="dispute"]')
        page.wait_for_selector(".message--success")
        assert "(disputed)" in page.locator('[data-testid="submission-cards"]').inner_text()
        shot(page, "card-disputed")
        page.click("button.linklike")

        # Staff resolve it in the admin with the card changed to a yellow.
        page.goto(f"{live_server.url}/admin/login/?next=/admin/tournaments/fixture/{fixture.pk}/resolve/")
        page.fill("#id_username", DEMO_ADMIN[0])
        page.fill("#id_password", DEMO_ADMIN[1])
        page.click("input[type=submit]")
        page.wait_for_url(f"**/admin/tournaments/fixture/{fixture.pk}/resolve/")
        # The disputed card is filled in by team and kind, in words; staff change its kind.
        assert page.locator("#id_card_0_team").input_value() == "away"
        assert page.locator("#id_card_0_kind").input_value() == "red"
        page.select_option("#id_card_0_kind", label="Yellow card")
        page.fill("#id_note", "the card was a yellow")
        shot(page, "admin-resolve-card")
        page.click("input[type=submit][value^='Resolve']")
        page.wait_for_url(f"**/admin/tournaments/fixture/{fixture.pk}/change/")
        assert not Suspension.objects.filter(source_fixture=fixture).exists()
    finally:
        context.close()

    # The opponent's dashboard shows no suspension; the match page shows the yellow card.
    page = browser.new_context(viewport={"width": 390, "height": 844}).new_page()
    _sign_in(page, live_server, club_username(fixture.away_team.name), CLUB_PASSWORD)
    page.wait_for_url("**/my-club/")
    assert "No suspensions." in page.locator('[data-testid="suspensions"]').inner_text()
    shot(page, "dashboard-no-suspension")
    page.goto(match_url)
    assert page.locator("h2:text-is('Cards') + ul.chips").inner_text().startswith("Yellow card")
    shot(page, "match-resolved-yellow")
    page.context.close()

"""The public pages and the results workflow in a real browser (chromium), with screenshots."""

from __future__ import annotations

import pytest

from tournaments.models import Fixture

# serialized_rollback: the flush after each test would otherwise also drop the data-migration
# rows (the A11 skill catalog) that later tests rely on.
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_standings(page, live_server, cup, shot) -> None:
    page.goto(f"{live_server.url}/c/{cup.competition.slug}/standings/")
    tables = page.locator("table.standings")
    assert tables.count() == 8
    group_a = page.locator('table.standings[data-group="A"] tbody tr')
    assert group_a.count() == 4
    assert page.locator('table.standings[data-group="A"] tr.qualified').count() == 2
    assert page.locator("svg.chart polyline").count() >= 8
    # The stylesheet is served and applied (not an unstyled page).
    assert page.evaluate("getComputedStyle(document.querySelector('.site-header')).backgroundImage") != "none"
    shot(page, "standings")


def test_bracket(page, live_server, cup, shot) -> None:
    page.goto(f"{live_server.url}/c/{cup.competition.slug}/bracket/")
    ties = page.locator("svg.bracket a.tie")
    assert ties.count() == 16  # 8 + 4 + 2 + final + third place
    assert page.locator("svg.bracket text.winner").count() >= 2
    first = ties.first
    href = first.get_attribute("href")
    first.click()
    page.wait_for_url(f"**{href}")
    assert page.locator('[data-testid="score"]').is_visible()
    page.go_back()
    shot(page, "bracket")


def test_match_replay_steps_forward_and_back(page, live_server, cup, shot) -> None:
    fixture_id = cup.simulated[0]
    page.goto(f"{live_server.url}/c/{cup.competition.slug}/matches/{fixture_id}/")
    assert page.get_by_text("Simulated result.").is_visible()
    page.wait_for_selector("#replay[data-ready=true]")
    event = page.locator('[data-testid="replay-event"]')
    position = page.locator('[data-testid="replay-position"]')
    assert position.inner_text().startswith("Event 1 of")
    assert page.locator('[data-action="back"]').is_disabled()
    texts = [event.inner_text()]
    for _ in range(12):
        page.click('[data-action="forward"]')
        texts.append(event.inner_text())
    assert position.inner_text().startswith("Event 13 of")
    assert len(set(texts)) > 3
    pieces = page.locator("#replay-pitch [data-pieces] circle")
    assert pieces.count() >= 10  # both teams' pieces and the ball are drawn
    page.click('[data-action="back"]')
    assert position.inner_text().startswith("Event 12 of")
    assert event.inner_text() == texts[11]
    page.keyboard.press("ArrowRight")
    page.click('[data-action="next-turn"]')
    turn = page.locator('[data-testid="replay-turn"]').inner_text()
    assert turn.isdigit()
    page.click('[data-action="last"]')
    final = page.locator('[data-testid="replay-score"]').inner_text().replace(" ", "")
    fixture = Fixture.objects.select_related("result").get(pk=fixture_id)
    assert final == f"{fixture.result.home_goals}–{fixture.result.away_goals}"
    page.click('[data-action="first"]')
    for _ in range(30):
        page.click('[data-action="forward"]')
    shot(page, "match-replay")


def _login(page, live_server, username: str, password: str, next_url: str) -> None:
    page.goto(f"{live_server.url}/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("button[type=submit]")
    page.wait_for_url(f"**{next_url}")


def test_result_submission_by_a_club_and_confirmation_by_the_opponent(page, live_server, cup, shot) -> None:
    from league.demo import CLUB_PASSWORD, club_username

    fixture = (
        Fixture.objects.filter(group__name="C", round=1).select_related("home_team", "away_team").first()
    )
    url = f"/c/{cup.competition.slug}/matches/{fixture.pk}/"

    # The home club reports 3-1 with a yellow card for the away side.
    _login(page, live_server, club_username(fixture.home_team.name), CLUB_PASSWORD, url)
    form = page.locator('[data-testid="result-form"]')
    form.locator('input[name="home_goals"]').fill("3")
    form.locator('input[name="away_goals"]').fill("1")
    form.locator('input[name="away_yellow"]').fill("1")
    page.click('[data-testid="submit-result"]')
    page.wait_for_selector(".message--success")
    assert "Result submitted" in page.locator(".messages").inner_text()
    assert "3–1" in page.locator('[data-testid="submission"]').inner_text()
    assert page.locator('[data-testid="status"]').inner_text() == "Result submitted"
    shot(page, "result-submitted")
    page.click("button.linklike")  # sign out

    # The opponent confirms; the result then counts in the standings.
    _login(page, live_server, club_username(fixture.away_team.name), CLUB_PASSWORD, url)
    page.click('[data-testid="confirm"]')
    page.wait_for_selector(".message--success")
    assert page.locator('[data-testid="status"]').inner_text() == "Confirmed"
    assert page.locator('[data-testid="score"]').inner_text().replace(" ", "") == "3–1"
    shot(page, "result-confirmed")

    page.goto(f"{live_server.url}/c/{cup.competition.slug}/standings/")
    leader = page.locator('table.standings[data-group="C"] tbody tr').first
    assert fixture.home_team.name in leader.inner_text()
    assert leader.locator("td.pts").inner_text() == "3"


def test_a_club_cannot_submit_for_another_clubs_fixture(page, live_server, cup) -> None:
    from league.demo import CLUB_PASSWORD

    fixture = Fixture.objects.filter(group__name="C", round=1).first()
    url = f"/c/{cup.competition.slug}/matches/{fixture.pk}/"
    _login(page, live_server, "club-brazil", CLUB_PASSWORD, url)
    assert page.locator('[data-testid="result-form"]').count() == 0

"""The tournament live centre in a real browser (issue 33, item 4): eight matches scored at once
through the services, each a card with its score, minute, last action and pitch, updated without
a reload when one of them moves; screenshots at phone, laptop and big-screen sizes."""

from __future__ import annotations

import pytest

from tests.browser.conftest import SCREENSHOTS
from tests.scoring.helpers import demo_clubs, play, score_at_once

pytestmark = pytest.mark.browser

MATCHES = 8


def test_eight_matches_live_in_the_centre_updated_without_reload(page, live_server, cup, shot) -> None:
    sessions = score_at_once(cup.competition, MATCHES)
    url = f"{live_server.url}/c/{cup.competition.slug}/live/"
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(url)
    live = page.locator('[data-testid="centre-live"] [data-testid="centre-match"][data-status="live"]')
    live.nth(MATCHES - 1).wait_for()
    assert live.count() == MATCHES
    first = page.locator(f'[data-testid="centre-match"][data-fixture="{sessions[0].fixture_id}"]')
    assert first.locator('[data-part="last"]').inner_text().startswith("Last: ")
    assert first.locator('[data-part="status"]').inner_text().endswith("'")
    # every card draws its pitch: the pieces of both teams are on it
    assert first.locator("svg [data-pieces] circle").count() > 2
    shot(page, "live-centre-390")
    page.screenshot(path=str(SCREENSHOTS / "live-centre-390-top.png"))  # what the phone shows first

    # one match moves on: its card follows without a reload
    before = first.get_attribute("data-version")
    page.evaluate("window.__kept = true")
    play(sessions[0].id, demo_clubs(sessions[0].fixture), until=40)
    page.wait_for_function(
        "([sel, v]) => document.querySelector(sel).getAttribute('data-version') !== v",
        arg=[f'[data-testid="centre-match"][data-fixture="{sessions[0].fixture_id}"]', before],
    )
    assert page.evaluate("window.__kept") is True  # the same page, not reloaded
    assert int(first.get_attribute("data-version")) > int(before)

    for width, height in ((1366, 900), (1920, 1080)):
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"live-centre-{width}")

    # a round's page keeps that round's matches only
    round_number = sessions[0].fixture.round
    page.goto(f"{url}round/{round_number}/")
    page.locator('[data-testid="centre-match"]').first.wait_for()
    expected = sum(1 for s in sessions if s.fixture.round == round_number)
    page.wait_for_function(
        "n => document.querySelectorAll('[data-testid=centre-live] [data-testid=centre-match]').length === n",
        arg=expected,
    )

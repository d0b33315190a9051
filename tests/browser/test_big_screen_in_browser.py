"""The big screen in a real browser (issue 33, item 5): at 1920×1080 and 1280×720 it cycles its
views (standings, eight live matches, next fixtures, bracket) with nothing scrolled, and a lost
connection keeps the last data on screen with "reconnecting…" until it is back."""

from __future__ import annotations

import pytest

from tests.browser.conftest import SCREENSHOTS
from tests.scoring.helpers import score_at_once

pytestmark = pytest.mark.browser

VIEWS = ("standings", "live", "upcoming", "bracket")
# The body clips what overflows (nothing may scroll): what it holds must fit in it.
_FITS = """() => {
  const b = document.querySelector('[data-testid="screen-body"]');
  return b.scrollHeight <= b.clientHeight + 1 && b.scrollWidth <= b.clientWidth + 1;
}"""
_NEXT_VIEW = "v => document.body.getAttribute('data-view') === v"


def _cycle(page, size: str) -> None:
    """Wait for each view in turn (the page moves on by itself), check it fits, and photograph it."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for view in VIEWS:
        page.wait_for_function(_NEXT_VIEW, arg=view, timeout=60000)
        assert page.evaluate(_FITS), f"{view} scrolls at {size}"
        page.screenshot(path=str(SCREENSHOTS / f"big-screen-{size}-{view}.png"))


def test_the_big_screen_cycles_its_views_and_survives_a_lost_connection(page, live_server, cup) -> None:
    score_at_once(cup.competition, 8)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/c/{cup.competition.slug}/screen/?seconds=3")
    _cycle(page, "1920")
    page.wait_for_function(_NEXT_VIEW, arg="live", timeout=60000)
    assert page.locator('[data-testid="screen-match"]').count() == 6  # 8 live: a page of 6, then 2
    assert page.locator('[data-testid="screen-page"]').inner_text() == "1 / 2"

    # the connection drops: the screen keeps cycling the last data and says so discreetly
    page.route("**/*.json", lambda route: route.abort())
    net = page.locator('[data-testid="screen-net"]')
    net.wait_for(state="visible")
    assert net.inner_text() == "reconnecting…"
    page.wait_for_function(_NEXT_VIEW, arg="live", timeout=60000)
    assert page.locator('[data-testid="screen-match"]').count() >= 2
    page.unroute("**/*.json")
    net.wait_for(state="hidden", timeout=30000)

    page.set_viewport_size({"width": 1280, "height": 720})
    _cycle(page, "1280")

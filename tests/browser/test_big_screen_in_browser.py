"""The big screen in a real browser (issue 33, item 5): at 1920×1080 and 1280×720 it cycles its
views (standings, eight live matches, next fixtures, bracket) with nothing scrolled, and a lost
connection keeps the last data on screen with "reconnecting…" until it is back.

The page's clock is Playwright's (page.clock): the test runs it on instead of waiting out each
view's seconds and each poll's wait in real time (three cycles of views and a reconnection took
over a minute of the suite); the page moves on by its own timers as it would."""

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
_NET_SHOWN = "shown => !document.querySelector('[data-testid=\"screen-net\"]').hidden === shown"
# a minute of the page's time, run on a step at a time (a view lasts 3 s, a poll's retry 10 s)
_STEP_MS = 500
_LIMIT_MS = 60000


def _until(page, predicate: str, arg: object = None) -> None:
    """Run the page's clock on until ``predicate(arg)`` holds; a poll's fetch, answered in real
    time, gets a moment after each step."""
    for _ in range(_LIMIT_MS // _STEP_MS):
        if page.evaluate(predicate, arg):
            return
        page.clock.run_for(_STEP_MS)
        page.wait_for_timeout(15)
    raise AssertionError(f"{predicate} ({arg!r}) not true after {_LIMIT_MS} ms of the page's time")


def _cycle(page, size: str) -> None:
    """Wait for each view in turn (the page moves on by itself), check it fits, and photograph it."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for view in VIEWS:
        _until(page, _NEXT_VIEW, view)
        assert page.evaluate(_FITS), f"{view} scrolls at {size}"
        page.screenshot(path=str(SCREENSHOTS / f"big-screen-{size}-{view}.png"))


def test_the_big_screen_cycles_its_views_and_survives_a_lost_connection(page, live_server, cup) -> None:
    score_at_once(cup.competition, 8)
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.clock.install()
    page.goto(f"{live_server.url}/c/{cup.competition.slug}/screen/?seconds=3")
    _cycle(page, "1920")
    _until(page, _NEXT_VIEW, "live")
    assert page.locator('[data-testid="screen-match"]').count() == 6  # 8 live: a page of 6, then 2
    assert page.locator('[data-testid="screen-page"]').inner_text() == "1 / 2"

    # the connection drops: the screen keeps cycling the last data and says so discreetly
    page.route("**/*.json", lambda route: route.abort())
    net = page.locator('[data-testid="screen-net"]')
    _until(page, _NET_SHOWN, True)
    assert net.inner_text() == "reconnecting…"
    _until(page, _NEXT_VIEW, "live")
    assert page.locator('[data-testid="screen-match"]').count() >= 2
    page.unroute("**/*.json")
    _until(page, _NET_SHOWN, False)

    page.set_viewport_size({"width": 1280, "height": 720})
    _cycle(page, "1280")

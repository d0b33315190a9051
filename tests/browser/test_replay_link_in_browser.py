"""The replay's address follows the step (issue 33, item 7): stepping writes the event into the
address, and that address opens the replay at the same moment."""

from __future__ import annotations

import pytest

from tests.browser.conftest import SCREENSHOTS

pytestmark = pytest.mark.browser


def test_a_link_to_a_moment_opens_the_replay_there(page, live_server, cup) -> None:
    url = f"{live_server.url}/c/{cup.competition.slug}/matches/{cup.simulated[0]}/"
    page.goto(url)
    page.wait_for_selector("#replay[data-ready=true]")
    assert "#" not in page.url  # opening the page leaves its address alone
    position = page.locator('[data-testid="replay-position"]')
    for _ in range(7):
        page.click('[data-action="forward"]')
    assert position.inner_text().startswith("Event 8 of")
    assert page.url.endswith("#event-8")
    moment = page.locator('[data-testid="replay-event"]').inner_text()
    # the slider marks goals, cards, shots, half time (and extra time) alike
    kinds = set(page.locator('[data-testid="replay-mark"]').evaluate_all("ms => ms.map(m => m.dataset.kind)"))
    assert {"goal_attempt", "half_time"} <= kinds
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.locator(".replay__track").screenshot(path=str(SCREENSHOTS / "replay-slider-marks.png"))

    # the copied address, opened in a new tab, shows the same moment
    other = page.context.new_page()
    other.goto(url + "#event-8")
    other.wait_for_selector("#replay[data-ready=true]")
    assert other.locator('[data-testid="replay-position"]').inner_text().startswith("Event 8 of")
    assert other.locator('[data-testid="replay-event"]').inner_text() == moment
    # and a fragment edited by hand moves the replay
    other.evaluate("location.hash = '#event-3'")
    other.wait_for_function(
        "document.querySelector('[data-testid=replay-position]').textContent.startsWith('Event 3 of')"
    )

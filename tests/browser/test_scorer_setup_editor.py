"""The set-up editor on the scorer's board (rulebook 3, 3.3.1): an illegal set-up is explained in
words as it is placed and cannot be sent; put right, it is stored as the setup decision."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from scoring.selectors import session_get, session_state
from tests.browser.conftest import SCREENSHOTS
from tests.browser.scorer_player import open_scorer


def _stored(session_id: int, seq: int) -> dict:
    """The server's state once it holds ``seq`` events (a phone with its own engine shows an
    answer before the server has stored it)."""
    for _ in range(200):
        state = session_state(session_get(session_id=session_id))
        if state["seq"] >= seq:
            return state
        time.sleep(0.05)
    raise AssertionError(f"the server did not reach event {seq}")


def _drag(page, src: str, dst: str) -> None:
    a = page.locator(f'[data-area="{src}"]').bounding_box()
    b = page.locator(f'[data-area="{dst}"]').bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2, steps=3)
    page.mouse.up()


@pytest.mark.django_db(transaction=True)
def test_an_illegal_set_up_is_explained_and_not_stored(browser, live_server, settings) -> None:
    context, page, session = open_scorer(browser, live_server, settings, advanced_rules=[])
    try:
        page.locator('[data-die="0"][data-face="5"]').click()
        page.locator('[data-die="1"][data-face="2"]').click()
        expect(page.locator("#scorer")).to_have_attribute("data-seq", "1")
        page.get_by_test_id("sc-option").first.click()
        expect(page.get_by_test_id("sc-setup-use")).to_be_enabled()
        pending = _stored(session.id, 2)["pending"]
        assert pending["name"] == "setup"
        preset = pending["options"][0]["value"]
        src = next(code for code, n in preset["players"].items() if n and code != "CENTRE")
        box = "A-PEN" if pending["actor"] == "home" else "H-PEN"

        _drag(page, src, box)  # a player in the opponent's box at kick-off
        problems = page.get_by_test_id("sc-setup-problems")
        expect(problems).to_be_visible()
        expect(page.get_by_test_id("sc-setup-use")).to_be_disabled()
        assert "-PEN" not in problems.inner_text() and problems.inner_text().strip()
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / "scorer-phone-setup-illegal.png"))
        assert session_get(session_id=session.id).seq == 2  # nothing stored

        _drag(page, box, src)
        expect(problems).to_be_hidden()
        page.get_by_test_id("sc-setup-use").click()
        expect(page.locator("#scorer")).to_have_attribute("data-seq", "3")
        stored = _stored(session.id, 3)["events"][0]
        assert "set up" in stored["text"] or "set-up" in stored["text"], stored
    finally:
        context.close()

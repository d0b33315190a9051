"""The set-up editor on the scorer's board (rulebook 3, 3.3.1): it fits a 390x844 phone with the
pitch in view whatever it shows (counters, what is still wrong); an illegal set-up is explained in
one line as it is placed and cannot be sent; a legal set-up that is none of the presets, placed
with the counters, is stored as the `setup` decision."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from scoring.selectors import session_get, session_state, setup_check
from tests.browser.conftest import SCREENSHOTS
from tests.browser.scorer_player import READ, open_scorer

pytestmark = pytest.mark.browser


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


def _tap(page, code: str) -> None:
    box = page.locator(f'[data-area="{code}"]').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _assert_fits(page, what: str) -> None:
    """The whole editor on one phone screen: no scrolling, the pitch above the dock, every chip
    and the dock's button on screen (as the tap-count run measures a question)."""
    shown = page.evaluate(READ)
    height, dock_top, pitch = shown["height"], shown["dockTop"] or shown["height"], shown["pitch"]
    assert shown["scrollY"] == 0, (what, shown["scrollY"])
    assert pitch is not None and pitch[0] >= 0 and pitch[1] <= dock_top + 1, (what, pitch, dock_top)
    off = [c for c in shown["controls"] if c[0] < 0 or c[1] > height + 1]
    assert not off, (what, off)


def _one_line(locator) -> None:
    lines = locator.evaluate(
        "e => e.getBoundingClientRect().height / parseFloat(getComputedStyle(e).lineHeight)"
    )
    assert lines < 1.6, f"{lines:.1f} lines: {locator.inner_text()}"


def _custom(session_id: int, preset: dict) -> tuple[str, str, dict]:
    """One player moved from one area to another, giving a legal set-up that no preset is:
    (from, to, the set-up). The engine judges it (the same check the editor asks)."""
    options = [o["value"] for o in session_state(session_get(session_id=session_id))["pending"]["options"]]
    areas = [a["code"] for a in session_state(session_get(session_id=session_id))["areas"]]
    for src, n in sorted(preset["players"].items()):
        for dst in areas:
            if not n or dst in (src, preset["gk"]):
                continue
            players = dict(preset["players"])
            players[src] -= 1
            players[dst] = players.get(dst, 0) + 1
            players = {k: v for k, v in players.items() if v}
            choice = {"gk": preset["gk"], "players": players}
            if choice not in options and setup_check(session_id=session_id, choice=choice)["ok"]:
                return src, dst, choice
    raise AssertionError("no legal set-up one player away from the preset")


@pytest.mark.django_db(transaction=True)
def test_a_set_up_placed_on_the_board_editor(browser, live_server, settings) -> None:
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
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        _assert_fits(page, "the editor")
        page.screenshot(path=str(SCREENSHOTS / "scorer-phone-q-setup-editor.png"))

        # An illegal set-up: a player in the opponent's box at kick-off, explained in one line.
        src = next(code for code, n in preset["players"].items() if n and code != "CENTRE")
        box = "A-PEN" if pending["actor"] == "home" else "H-PEN"
        _drag(page, src, box)
        problems = page.get_by_test_id("sc-setup-problems")
        expect(problems).to_be_visible()
        expect(page.get_by_test_id("sc-setup-use")).to_be_disabled()
        assert "-PEN" not in problems.inner_text() and problems.inner_text().strip()
        _one_line(problems)
        # read at a glance: a few words with the chapter, shown whole (not cut by an ellipsis)
        short = problems.inner_text()
        assert "(3.3.1)" in short and "not in own half" in short, short
        assert problems.evaluate("e => e.scrollWidth <= e.clientWidth"), short
        _assert_fits(page, "the editor explaining an illegal set-up")
        page.screenshot(path=str(SCREENSHOTS / "scorer-phone-setup-illegal.png"))
        # the whole sentence a tap away, and back to the short line with another tap
        problems.click()
        expect(problems).to_contain_text("is not at least partly in")
        page.screenshot(path=str(SCREENSHOTS / "scorer-phone-setup-illegal-open.png"))
        problems.click()
        expect(problems).to_have_text(short)
        assert session_get(session_id=session.id).seq == 2  # nothing stored

        # Put right with the counters: the box tapped, one player fewer there.
        _tap(page, box)
        expect(page.get_by_test_id("sc-stepper")).to_be_visible()
        _assert_fits(page, "the editor with an area's counter")
        page.screenshot(path=str(SCREENSHOTS / "scorer-phone-setup-counter.png"))
        page.get_by_test_id("sc-setup-minus").click()
        _tap(page, src)
        page.get_by_test_id("sc-setup-plus").click()
        expect(problems).to_be_hidden()

        # A set-up that is none of the presets: one player moved with the counters.
        moved_from, moved_to, custom = _custom(session.id, preset)
        _tap(page, moved_from)
        page.get_by_test_id("sc-setup-minus").click()
        _tap(page, moved_to)
        page.get_by_test_id("sc-setup-plus").click()
        expect(page.get_by_test_id("sc-setup-n")).to_have_text(str(custom["players"][moved_to]))
        expect(page.get_by_test_id("sc-setup-use")).to_be_enabled()
        expect(problems).to_be_hidden()
        _assert_fits(page, "the editor with a custom set-up")
        page.set_viewport_size({"width": 1366, "height": 900})
        page.screenshot(path=str(SCREENSHOTS / "scorer-desktop-q-setup-editor.png"))
        page.set_viewport_size({"width": 390, "height": 844})
        page.get_by_test_id("sc-setup-use").click()
        stored = _stored(session.id, 3)
        event = session_get(session_id=session.id).events.get(seq=3, undone_at__isnull=True).data
        assert event == {"decide": "setup", "by": pending["actor"], "choice": custom}, event
        assert stored["events"][0]["text"], stored["events"][0]
    finally:
        context.close()

"""The scorer's small things at the table (issue 31, item 8), on a 390x844 phone and checked at
1366x900: the score bar keeps both team names whole and the clock clear of the score whatever the
connection line says; every answer target is at least 44x44 px (the corner flags were 21x21);
Undo asks its reason beside the button after the tap, and the phone that took an event back says
so ("Taken back: …") as the other phone does."""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from matchplay.engine_door import Decision, Dice, new_match
from rules_engine.api import HeuristicCoach
from scoring import services, web_engine
from scoring.models import ScoringEvent
from tests.browser.conftest import SCREENSHOTS
from tests.scoring.helpers import make_fixture, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
PASSWORD = "small-things-password"
_ids = itertools.count(1)

# The geometry of the score bar: each part's box, and whether a team name is cut (its text, as the
# font lays it out, wider than its box: the ellipsis starts at a fraction of a pixel).
BAR = """() => {
  const bar = document.querySelector(".sc-bar");
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; };
  return {
    bar: box(bar),
    score: box(bar.querySelector(".sc-score")),
    clock: box(bar.querySelector(".sc-clock")),
    net: box(bar.querySelector(".sc-net")),
    teams: [...bar.querySelectorAll(".sc-team")].map((t) => {
      const ctx = document.createElement("canvas").getContext("2d");
      ctx.font = getComputedStyle(t).font;
      const wide = ctx.measureText(t.textContent).width;
      return { text: t.textContent, cut: wide > t.getBoundingClientRect().width + 0.01, box: box(t) };
    }),
  };
}"""

# Every answer target on screen: highlighted areas of the pitch (a corner spot by the square that
# takes its taps), chips, dice faces, dock buttons.
TARGETS = """() => [...document.querySelectorAll(
    '#scorer [data-area].area--pick, #scorer [data-area].area--target, #scorer .chip, #scorer .face, '
    + '#scorer .sc-dock button')]
  .filter((e) => e.getClientRects().length && getComputedStyle(e).visibility !== "hidden")
  .map((e) => {
    const code = e.getAttribute("data-area");
    const hit = code && document.querySelector('#scorer [data-hit="' + code + '"].area-hit--on');
    const r = (hit || e).getBoundingClientRect();
    return { what: code || e.getAttribute("data-testid") || e.textContent.trim(),
             w: Math.round(r.width * 10) / 10, h: Math.round(r.height * 10) / 10 }; })"""

# A thumb's tap: pointer down and up at a point of the page (the board reads the area under it).
TAP_AT = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  const at = { clientX: x, clientY: y, bubbles: true, pointerId: 1 };
  el.dispatchEvent(new PointerEvent("pointerdown", at));
  el.dispatchEvent(new PointerEvent("pointerup", at));
}"""


@pytest.fixture(scope="module")
def bundle() -> Iterator[None]:
    web_engine.build()
    web_engine.current.cache_clear()
    yield
    web_engine.current.cache_clear()


def _overlap(a: list[float], b: list[float]) -> bool:
    return a[0] < b[2] - 0.5 and b[0] < a[2] - 0.5 and a[1] < b[3] - 0.5 and b[1] < a[3] - 0.5


def _middle(box: dict[str, float]) -> float:
    return box["y"] + box["height"] / 2


def _shots(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-phone-{name}.png"))
    page.set_viewport_size(DESKTOP)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-desktop-{name}.png"))
    page.set_viewport_size(PHONE)


def events_until(
    header: dict[str, Any], seed: int, stop: Callable[[Any, Any], bool], what: str
) -> list[dict[str, Any]]:
    """The events of a seeded match up to its first pending question that ``stop(match, pending)``
    accepts, both sides choosing as the engine's heuristic coach does (a coach that never shoots
    never wins a corner)."""
    m = new_match(header)
    dice = Dice(seed=seed)
    coaches = {side: HeuristicCoach(random.Random(f"{side}:{seed}")) for side in ("home", "away")}
    events: list[dict[str, Any]] = []
    while (p := m.pending()) is not None:
        if stop(m, p):
            return events
        if p.kind == "roll":
            ev: Any = dice.roll_for(p)
            events.append({"roll": p.name, "by": p.actor, "dice": list(ev.dice)})
        else:
            choice = coaches[p.actor].choose(m, p)
            ev = Decision(p.name, p.actor, choice)
            events.append({"decide": p.name, "by": p.actor, "choice": choice})
        m.apply(ev)
    raise AssertionError(f"the seeded match ended before {what}")


def _to_question(header: dict[str, Any], name: str, seed: int) -> list[dict[str, Any]]:
    return events_until(header, seed, lambda _m, p: p.name == name, f"a {name!r} question")


def _session_at(settings: Any, question: str | None = None, seed: int = 1) -> tuple[Any, Any]:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture()
    users = {"home": s.home_user, "away": s.away_user}
    for user in users.values():
        user.set_password(PASSWORD)
        user.save()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    events = _to_question(session.header, question, seed) if question else []
    for event in events:
        tap(
            session.id,
            users["away" if event["by"] == "away" else "home"],
            {"client_id": f"st{next(_ids)}", "event": event},
        )
    return s, session


def _scorer(browser: Any, live_server: Any, user: Any, session_id: int) -> tuple[Any, Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(30000)
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state()
    page.goto(f"{live_server.url}/score/{session_id}/")
    expect(page.get_by_test_id("sc-question")).not_to_have_text("Loading the match…", timeout=60000)
    return context, page


def test_the_bar_keeps_both_names_and_the_clock_clear_of_the_score(browser, live_server, settings) -> None:
    settings.SCORER_LOCAL_ENGINE = False
    s, session = _session_at(settings)
    context, page = _scorer(browser, live_server, s.home_user, session.id)
    try:
        # The longest the bar says: a whole match kept offline on the phone, late in extra time.
        page.evaluate(
            """() => {
              const net = document.querySelector('[data-testid="sc-net"]');
              net.textContent = "Offline · 688 taps saved on this phone";
              net.className = "sc-net small sc-net--off";
              document.querySelector('[data-testid="sc-minute"]').textContent = "120+3'";
              document.querySelector('[data-testid="sc-turn"]').textContent = "148";
              document.querySelector('[data-testid="sc-score"]').textContent = "10 – 10";
            }"""
        )
        for size in (PHONE, DESKTOP):
            page.set_viewport_size(size)
            bar = page.evaluate(BAR)
            names = [t["text"] for t in bar["teams"]]
            assert names == ["Brazil", "Argentina"], names
            assert not any(t["cut"] for t in bar["teams"]), (size, bar["teams"])
            left, right = bar["bar"][0] - 0.5, bar["bar"][2] + 0.5
            for part in ("score", "clock", "net"):
                assert left <= bar[part][0] and bar[part][2] <= right, (size, part, bar)
            assert not _overlap(bar["clock"], bar["score"]), (size, bar)
            assert not _overlap(bar["net"], bar["score"]), (size, bar)
            assert not _overlap(bar["net"], bar["clock"]), (size, bar)
        page.set_viewport_size(PHONE)
        _shots(page, "offline-bar")
    finally:
        context.close()


def test_every_answer_target_is_at_least_44_px_at_a_corner_kick(browser, live_server, settings) -> None:
    settings.SCORER_LOCAL_ENGINE = False
    s, session = _session_at(settings, "corner_spot")
    context, page = _scorer(browser, live_server, s.home_user, session.id)
    try:
        expect(page.locator("[data-area].area--pick").first).to_be_visible()
        spots = page.locator("[data-area].area--pick")
        assert spots.count() == 2, spots.count()
        targets = page.evaluate(TARGETS)
        small = [t for t in targets if t["w"] < 44 or t["h"] < 44]
        assert not small, small
        _shots(page, "q-corner-spot")
        # A tap in the target's square away from the drawn spot answers the question with that spot.
        code = spots.first.get_attribute("data-area")
        spot = spots.first.bounding_box()
        square = page.locator(f'[data-hit="{code}"]').bounding_box()
        assert spot is not None and square is not None
        x = square["x"] + 3 if square["x"] + 3 < spot["x"] else square["x"] + square["width"] - 3
        y = square["y"] + 3 if square["y"] + 3 < spot["y"] else square["y"] + square["height"] - 3
        seq = int(page.locator("#scorer").get_attribute("data-seq") or 0)
        page.evaluate(TAP_AT, [x, y])
        expect(page.locator("#scorer")).not_to_have_attribute("data-seq", str(seq))
        stored = ScoringEvent.objects.get(session_id=session.id, seq=seq + 1, undone_at__isnull=True)
        assert stored.data["decide"] == "corner_spot" and stored.data["choice"] == code, stored.data
    finally:
        context.close()


def test_the_faces_chips_and_dock_of_a_typed_roll_are_at_least_44_px(browser, live_server, settings) -> None:
    settings.SCORER_LOCAL_ENGINE = False
    s, session = _session_at(settings)
    context, page = _scorer(browser, live_server, s.home_user, session.id)
    try:
        # the kick-off roll with typed dice: a row of faces per team, the dice choice, the dock
        expect(page.locator(".face").first).to_be_visible()
        targets = page.evaluate(TARGETS)
        assert {"sc-dice-table", "sc-dice-app", "sc-undo"} <= {t["what"] for t in targets}, targets
        assert sum(1 for t in targets if t["what"] in "123456") == 12, targets
        small = [t for t in targets if t["w"] < 44 or t["h"] < 44]
        assert not small, small
    finally:
        context.close()


def test_undo_asks_why_beside_the_button_and_this_phone_says_taken_back(
    browser, live_server, settings, bundle
) -> None:
    # the phone's own engine (the default): its view has no last undo of the server's
    s, session = _session_at(settings)
    context, page = _scorer(browser, live_server, s.home_user, session.id)
    try:
        expect(page.locator("#scorer")).to_have_attribute("data-engine", "local")
        page.get_by_test_id("sc-roll-for-me").click()
        expect(page.locator("#scorer")).to_have_attribute("data-seq", "1")
        rolled = page.get_by_test_id("sc-last").inner_text()
        undo = page.get_by_test_id("sc-undo")
        undo.click()
        # asked after the tap, beside the button: nothing is taken back yet
        reason = page.get_by_test_id("sc-undo-reason")
        expect(reason).to_be_visible()
        expect(undo).to_have_text("↶ Take back")
        assert page.locator("#scorer").get_attribute("data-seq") == "1"
        field, button = reason.bounding_box(), undo.bounding_box()
        assert field is not None and button is not None
        assert abs(_middle(field) - _middle(button)) < 8, (field, button)
        gap = field["x"] - (button["x"] + button["width"])
        assert -1 < gap < 24, (field, button)
        _shots(page, "undo-asks-why")
        reason.fill("wrong die")
        undo.click()
        expect(page.locator("#scorer")).to_have_attribute("data-seq", "0")
        line = page.get_by_test_id("sc-last-undo")
        expect(line).to_be_visible()
        expect(line).to_have_text(f"Taken back: {rolled} (wrong die)")
        expect(reason).to_be_hidden()
        expect(page.locator("#scorer")).to_have_attribute("data-queue", "0", timeout=30000)
        session.refresh_from_db()
        assert session.seq == 0 and session.last_undo["reason"] == "wrong die", session.last_undo
        _shots(page, "undo-taken-back")
    finally:
        context.close()

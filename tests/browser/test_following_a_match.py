"""A spectator follows a match like a game on lichess: the live panel while it is scored, then the
replay (autoplay, goal and card marks, stepping by event and by turn, keys and swipes), with the
board first and never an area code on screen. Screenshots at 390x844 and 1366x900."""

from __future__ import annotations

import itertools
import re
import statistics

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from fubaleague.web.match_views import REPLAY_CACHE_KEY
from matches.models import MatchLog, Result
from matches.replay import replay_frames
from matches.simulation import fixture_simulate
from scoring import services
from tests.browser.conftest import SCREENSHOTS
from tests.scoring.helpers import make_fixture, play
from tournaments.models import Fixture

# serialized_rollback: the flush after each test would otherwise also drop the data-migration
# rows (the A11 skill catalog) that later tests rely on.
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
AREA_CODE = re.compile(r"\b(?:[HA]-(?:PEN|LC|RC|FRONT|LM|RM|LCK|RCK)|CENTRE)\b")


# The page's live intervals (set, not yet cleared): the replay steps on one while it plays, so
# once paused it must have none left that could step it on.
LIVE_INTERVALS = """(() => {
  const live = new Set(), set = window.setInterval, clear = window.clearInterval;
  window.__liveIntervals = live;
  window.setInterval = function (...args) { const id = set.apply(window, args); live.add(id); return id; };
  window.clearInterval = function (id) { live.delete(id); return clear.call(window, id); };
})();"""


# When each step of the replay happened (the position line changes once a step).
STEP_CLOCK = """() => {
  window.__steps = [];
  const line = document.querySelector('[data-testid="replay-position"]');
  new MutationObserver(() => window.__steps.push(performance.now()))
    .observe(line, { childList: true, characterData: true, subtree: true });
}"""


def _no_area_code(page, selector: str) -> None:
    """What a reader sees in this part of the page: its text and its buttons' labels."""
    shown = page.locator(selector).inner_text()
    labels = page.locator(selector).evaluate(
        "el => [...el.querySelectorAll('[aria-label],[title]')].map(e => "
        "(e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '')).join(' ')"
    )
    found = AREA_CODE.findall(shown + " " + labels)
    assert not found, f"area codes on screen in {selector}: {sorted(set(found))}"


# Every area's name drawn on a pitch, and each label that a piece or the ball of its area overlaps;
# the labels are drawn under the last action's arrow and the pieces.
LABELS = """(id) => {
  const svg = document.getElementById(id), box = (e) => e.getBBox();
  const cut = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width
    && a.y < b.y + b.height && b.y < a.y + a.height;
  const inside = (c, r) => c.x + c.width / 2 > r.x && c.x + c.width / 2 < r.x + r.width
    && c.y + c.height / 2 > r.y && c.y + c.height / 2 < r.y + r.height;
  const drawn = [...svg.querySelectorAll('[data-pieces] circle')].map(box);
  const labels = [...svg.querySelectorAll('[data-area-label]')];
  const under = svg.querySelector('[data-last]');
  return {
    names: Object.fromEntries(labels.map((t) => [t.dataset.areaLabel,
      [...t.querySelectorAll('tspan')].map((s) => s.textContent).join(' ') || t.textContent])),
    teams: labels.flatMap((t) => [...t.querySelectorAll('[data-area-team]')]
      .map((s) => s.dataset.areaTeam + ':' + s.textContent)),
    hidden: labels.filter((t) => {
      const area = box(svg.querySelector(`rect[data-area="${t.dataset.areaLabel}"]`));
      return drawn.some((c) => inside(c, area) && cut(box(t), c));
    }).map((t) => t.dataset.areaLabel),
    above: labels.filter((t) => !(t.compareDocumentPosition(under) & Node.DOCUMENT_POSITION_FOLLOWING))
      .length,
  };
}"""


def _labels_drawn(page, pitch_id: str, home: str, away: str) -> None:
    """The pitch names its areas as the scorer's does (the team whose half, over the words), and no
    label lies under a piece or the ball of its area, nor over the last action's arrow."""
    drawn = page.evaluate(LABELS, pitch_id)
    assert len(drawn["names"]) == 13
    assert drawn["names"]["H-LC"] == f"{home} left wing" and drawn["names"]["A-PEN"] == f"{away} box"
    assert drawn["names"]["CENTRE"] == "centre circle"
    assert sorted(set(drawn["teams"])) == [f"away:{away}", f"home:{home}"]
    assert not drawn["hidden"] and not drawn["above"], drawn


def _shots(page, name: str, part: str) -> None:
    """The whole page at both sizes, and the part a spectator follows on a phone (docs/images)."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
        page.set_viewport_size(viewport)
        page.screenshot(path=str(SCREENSHOTS / f"{name}-{size}.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.locator(part).screenshot(path=str(SCREENSHOTS / f"{name}-part-phone.png"))


def test_a_spectator_follows_a_live_match(browser, live_server) -> None:
    s = make_fixture(advanced_rules=["A1", "A11"], skills=1)
    users = {"home": s.home_user, "away": s.away_user}
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    state = play(session.id, users, until=160)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/c/{s.fixture.competition.slug}/matches/{s.fixture.id}/")
        panel = page.get_by_test_id("live-panel")
        expect(panel).to_have_attribute("data-seq", str(state["seq"]))
        score = state["state"]["score"]
        expect(page.get_by_test_id("live-score")).to_have_text(f"{score[0]} – {score[1]}")
        expect(page.get_by_test_id("live-minute")).to_have_text(f"{state['state']['minute']}'")
        expect(page.get_by_test_id("live-question")).to_have_text(state["question"])
        # The last entry only, not a run of the log's lines; the feed by turn tells the rest.
        expect(page.get_by_test_id("live-events").locator("li")).to_have_count(1)
        # The pieces and the ball on the board; the feed by turn and the key moments beside it.
        assert page.locator("#live-pitch [data-pieces] circle").count() >= 10
        expect(panel).to_have_attribute("data-story", str(state["version"]))
        feed = page.get_by_test_id("live-feed").locator("li")
        assert feed.count() >= 3
        assert re.match(rf"Turn {state['state']['turn']} · \d+'? · ", feed.first.inner_text())
        assert re.search(
            r": (movement|positioning|pressing|aggressive pressing) \d\+\d", feed.nth(1).inner_text()
        )
        # The story of one match: no overdue, no result form, a link to the session for everyone.
        assert page.get_by_test_id("overdue").count() == 0
        _no_area_code(page, '[data-testid="live-panel"]')
        _labels_drawn(page, "live-pitch", state["teams"]["home"]["name"], state["teams"]["away"]["name"])

        # The table goes on: the spectator's page follows within a couple of polls, and the last
        # action is marked on the pitch (an arrow for a move, or the areas it concerned).
        state = play(session.id, users, until=state["seq"] + 40)
        expect(panel).to_have_attribute("data-seq", str(state["seq"]), timeout=5000)
        last = state["state"]["last"]
        if last and last.get("from") and last.get("to") and last["from"] != last["to"]:
            expect(page.locator("#live-pitch .arrow")).to_have_count(1)
        elif last and last.get("areas"):
            assert page.locator("#live-pitch .area--last").count() == len(set(last["areas"]))
        while not (last and last.get("from") and last.get("to") and last["from"] != last["to"]):
            state = play(session.id, users, until=state["seq"] + 1)
            last = state["state"]["last"]
        expect(panel).to_have_attribute("data-seq", str(state["seq"]), timeout=5000)
        arrow = page.locator("#live-pitch .arrow")
        expect(arrow).to_have_count(1)
        assert f"arrow--{'away' if last['team'] == 'away' else 'home'}" in (
            arrow.get_attribute("class") or ""
        )
        _no_area_code(page, '[data-testid="live-panel"]')
        _shots(page, "live-panel", '[data-testid="live-panel"]')
    finally:
        context.close()


def _with_a_goal(fixture_id: int) -> int:
    """The simulated match of ``fixture_id``, made one with a goal to mark. Its seed follows the
    fixture's id, which depends on the tests run before: a 0-0 without a card has no mark."""
    fixture = Fixture.objects.get(id=fixture_id)
    stored = MatchLog.objects.get(fixture=fixture)
    if any(m["kind"] == "goal" for m in replay_frames(stored.data)["marks"]):
        return fixture_id
    match = next(
        m for seed in range(1, 40) if (m := fixture_simulate(fixture=fixture, seed=seed)).score != (0, 0)
    )
    MatchLog.objects.filter(id=stored.id).update(data=match.log, seed=match.seed)
    cache.delete(REPLAY_CACHE_KEY.format(stored.id))  # the frames are cached by log id
    Result.objects.filter(fixture=fixture).update(home_goals=match.score[0], away_goals=match.score[1])
    return fixture_id


def test_the_replay_autoplays_marks_goals_and_steps_by_turn(browser, live_server, cup) -> None:
    fixture_id = _with_a_goal(cup.simulated[0])
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(LIVE_INTERVALS)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/c/{cup.competition.slug}/matches/{fixture_id}/")
        page.wait_for_selector("#replay[data-ready=true]")
        position = page.get_by_test_id("replay-position")
        frames = page.evaluate(
            "() => fetch(document.getElementById('replay').dataset.replayUrl).then(r => r.json())"
        )
        total = len(frames["frames"])
        expect(position).to_have_text(f"Event 1 of {total}")

        def jump(i: int) -> None:
            page.evaluate(
                "([i]) => { const r = document.getElementById('replay-range'); r.value = i; "
                "r.dispatchEvent(new Event('input')); }",
                [i],
            )

        # A set-up in one short line, its whole placement under it (the pitch shows it too).
        setup = next(i for i, f in enumerate(frames["frames"]) if f["detail"])
        jump(setup)
        expect(page.get_by_test_id("replay-event")).to_have_text(
            re.compile(r"^.+ set up for the kick-off: goalkeeper and \d+ players$")
        )
        expect(page.get_by_test_id("replay-detail")).to_have_text(frames["frames"][setup]["detail"])
        page.get_by_test_id("replay").screenshot(path=str(SCREENSHOTS / "match-replay-setup-part-phone.png"))
        jump(0)
        expect(page.get_by_test_id("replay-detail")).to_be_hidden()

        # Goals and cards are marked on the slider; a mark takes the replay there.
        marks = page.get_by_test_id("replay-mark")
        assert marks.count() == len(frames["marks"]) >= 1
        goal = next(m for m in frames["marks"] if m["kind"] == "goal")
        page.locator('[data-testid="replay-mark"][data-kind="goal"]').first.click()
        expect(position).to_have_text(f"Event {goal['i'] + 1} of {total}")
        assert re.search(r"GOAL for .+! .+ \d–\d ", goal["text"])
        at_goal = frames["frames"][goal["i"]]
        expect(page.get_by_test_id("replay-score")).to_have_text(
            f"{at_goal['score'][0]} – {at_goal['score'][1]}"
        )

        # Autoplay at 1x, then at 4x (the steps' pace measured on the page), then pause.
        page.evaluate(STEP_CLOCK)

        def autoplay(steps: int) -> float:
            """The median time between the replay's own steps while it plays."""
            page.click('[data-action="first"]')
            page.evaluate("() => { window.__steps.length = 0; }")
            before = page.evaluate("() => [...window.__liveIntervals]")
            page.get_by_test_id("replay-play").click()
            expect(page.locator("#replay")).to_have_attribute("data-playing", "true")
            assert len(page.evaluate("() => [...window.__liveIntervals]")) == len(before) + 1
            page.wait_for_function(f"() => window.__steps.length >= {steps}")
            page.get_by_test_id("replay-play").click()
            expect(page.locator("#replay")).to_have_attribute("data-playing", "false")
            # paused: its interval cleared (a step already queued is dropped with it), none left
            assert page.evaluate("() => [...window.__liveIntervals]") == before
            times = page.evaluate("() => window.__steps.slice()")
            expect(position).to_have_text(f"Event {len(times) + 1} of {total}")  # one event a step
            return statistics.median(b - a for a, b in itertools.pairwise(times[:steps]))

        expect(page.get_by_test_id("replay-speed")).to_have_text("1×")
        at_1x = autoplay(3)
        page.get_by_test_id("replay-speed").click()
        expect(page.get_by_test_id("replay-speed")).to_have_text("4×")
        at_4x = autoplay(5)
        assert at_1x >= 600 and at_1x > 2.5 * at_4x, (at_1x, at_4x)  # 800 ms a step, 200 at 4x

        # Keys: shift+arrow steps by turn (to the first event of the next turn), arrows by event.
        firsts = [line["first"] for line in frames["feed"]]

        def turn_after(i: int) -> int:
            return next(f for f in firsts if f > i)

        def expect_at(i: int) -> None:
            expect(position).to_have_text(f"Event {i + 1} of {total}")

        page.click('[data-action="first"]')
        page.locator("body").click(position={"x": 5, "y": 5})
        page.keyboard.press("Shift+ArrowRight")
        expect_at(a := turn_after(0))
        page.keyboard.press("Shift+ArrowRight")
        expect_at(b := turn_after(a))
        page.keyboard.press("ArrowRight")
        expect_at(b + 1)
        page.keyboard.press("Shift+ArrowLeft")
        expect_at(b)
        page.keyboard.press("Shift+ArrowLeft")
        expect_at(a)
        current = page.locator('[data-testid="replay-feed"] li[aria-current="step"]')
        expect(current).to_have_text(frames["feed"][firsts.index(a)]["text"])

        # Swipes on the pitch: a short one steps an event, a long one a turn.
        swipe = """([dx]) => {
          const svg = document.getElementById('replay-pitch'), r = svg.getBoundingClientRect();
          const y = r.top + r.height / 2;
          const at = x => [new Touch({identifier: 1, target: svg, clientX: x, clientY: y})];
          const x0 = r.left + r.width / 2 + (dx < 0 ? r.width / 2.5 : -r.width / 2.5);
          const send = (type, touches, x) =>
            svg.dispatchEvent(new TouchEvent(type, {touches, changedTouches: at(x), bubbles: true}));
          send('touchstart', at(x0), x0);
          send('touchend', [], x0 + dx);
        }"""
        page.evaluate(swipe, [-60])
        expect_at(a + 1)
        page.evaluate(swipe, [-300])
        expect_at(b)
        page.evaluate(swipe, [60])
        expect_at(b - 1)

        # A move shows its arrow on the pitch.
        move = next(
            i
            for i, f in enumerate(frames["frames"])
            if f["last"] and f["last"]["from"] and f["last"]["to"] and f["last"]["from"] != f["last"]["to"]
        )
        jump(move)
        expect(page.locator("#replay-pitch .arrow")).to_have_count(1)
        _labels_drawn(page, "replay-pitch", frames["teams"]["home"]["name"], frames["teams"]["away"]["name"])
        _no_area_code(page, '[data-testid="replay"]')
        _shots(page, "match-replay", '[data-testid="replay"]')
    finally:
        context.close()

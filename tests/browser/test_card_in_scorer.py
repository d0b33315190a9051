"""A foul with a card entered through the scorer (A13, rulebook 3, 5.6.1): the special event's
dice and the yellow card test's die tapped on one club's phone, the card shown on both clubs'
phones, both clubs confirm at full time, and the competition's suspensions (the discipline
services, here one match for every yellow) list the booked team on its public page. Never an
area code on the scorer; screenshots of the question kinds met on the way."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from matchplay.engine_door import Decision, Dice, new_match
from rules_engine.api import AREAS
from scoring import services
from scoring.selectors import session_get, session_state
from tests.browser.conftest import SCREENSHOTS
from tests.scoring.helpers import make_fixture, play, tap
from tournaments.models import Competition, Suspension

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
PASSWORD = "card-test-password"
_ids = itertools.count(1)
# the log's area codes, from the engine's own list (rules_engine/areas.py)
AREA_CODE = re.compile(r"\b(?:" + "|".join(re.escape(a.code) for a in AREAS) + r")\b")


def _to_a_special_event(header: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of a seeded match up to its first special event roll (A13)."""
    for seed in range(100):
        m = new_match(header)
        dice = Dice(seed=seed)
        events: list[dict[str, Any]] = []
        while (p := m.pending()) is not None:
            if p.kind == "roll" and p.name == "special_event":
                return events
            if p.kind == "roll":
                ev: Any = dice.roll_for(p)
                events.append({"roll": p.name, "by": p.actor, "dice": list(ev.dice)})
            else:
                choice = p.default if p.default is not None else p.options[0]
                ev = Decision(p.name, p.actor, choice)
                events.append({"decide": p.name, "by": p.actor, "choice": choice})
            m.apply(ev)
    raise AssertionError("no seed reached a special event")


def _phone(browser, live_server, user) -> tuple[Any, Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state()
    return context, page


def _shots(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-phone-{name}.png"))
    page.set_viewport_size(DESKTOP)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-desktop-{name}.png"))
    page.set_viewport_size(PHONE)


def _no_area_code(page) -> None:
    """Never a log code on the scorer: its text, its buttons' and areas' labels."""
    shown = page.locator("#scorer").evaluate(
        "el => el.innerText + ' ' + [...el.querySelectorAll('[aria-label],[title]')].map(e => "
        "(e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '')).join(' ')"
    )
    assert not AREA_CODE.findall(shown), sorted(set(AREA_CODE.findall(shown)))


def _tap(page, code: str) -> None:
    box = page.locator(f'#scorer [data-area="{code}"]').bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _wrong_taps_explained(page, state: dict[str, Any]) -> None:
    """At a move question: a tap on an area that is neither a source nor a destination, and a
    destination the picked player cannot reach, each say why in one line, in the engine's words
    (pending.board's why_not / why_not_to) after the area's name; nothing is sent."""
    board = state["pending"]["board"]
    names = {a["code"]: a["name"] for a in state["areas"]}
    # the ball is drawn in its area with its value
    expect(page.locator("#scorer .ball-value")).to_have_text(str(state["state"]["value"]))
    ball = page.locator("#scorer [data-area].area--ball")
    expect(ball).to_have_attribute("data-area", state["state"]["ball"])
    error = page.get_by_test_id("sc-error")

    def said(code: str, reason: str) -> None:
        expected = f"{names[code]}: {reason}"
        expect(error).to_have_text(expected[0].upper() + expected[1:])
        assert "\n" not in error.inner_text()

    def highlighted(code: str) -> bool:
        return "area--pick" in (page.locator(f'#scorer [data-area="{code}"]').get_attribute("class") or "")

    wrong = next(
        code
        for code, why in board["why_not"].items()
        if why and code in names and code not in board["sources"] and not highlighted(code)
    )
    _tap(page, wrong)
    said(wrong, board["why_not"][wrong])
    # A player picked, then a destination it cannot reach: the rule that refuses it (the
    # engine's reason for that destination, else "next to his own"), not why the area is no source.
    src, reach = next(iter(board["sources"].items()))
    reasons = (board.get("why_not_to") or {}).get(src) or {}
    pickable = {*board["sources"], (board.get("keeper") or {}).get("from")}
    far = next(c for c in names if c not in pickable and c not in reach)
    _tap(page, src)
    _tap(page, far)
    said(far, reasons.get(far) or board["far"])
    page.screenshot(path=str(SCREENSHOTS / "scorer-phone-wrong-tap-explained.png"))
    _tap(page, src)  # put the player down again
    assert page.locator("#scorer").get_attribute("data-seq") == str(state["seq"])


def _shoot_kinds(page, session_id: int, users: dict[str, Any]) -> None:
    """Play on (as the table would) to a move on the pitch and a question of chips, each shown at
    both sizes."""
    wanted = {"q-move", "q-chips"}
    for _ in range(60):
        state = session_state(session_get(session_id=session_id))
        p = state["pending"]
        kind = None
        if p and p["kind"] == "decision" and p.get("board") and p["board"]["kind"] == "move":
            kind = "q-move"
        elif p and p["kind"] == "decision" and not p.get("board") and len(p["options"]) >= 2:
            kind = "q-chips"
        if kind in wanted:
            expect(page.locator("#scorer")).to_have_attribute("data-seq", str(state["seq"]))
            page.wait_for_function("() => document.getElementById('scorer').dataset.queue === '0'")
            _no_area_code(page)
            _shots(page, kind)
            if kind == "q-move":
                _wrong_taps_explained(page, state)
            wanted.discard(kind)
        if not wanted or p is None:
            break
        play(session_id, users, until=state["seq"] + 1)
    # the wrong taps are checked at the move question: it must have come
    assert not wanted, f"no {sorted(wanted)} question within 60 events"


def test_a_card_entered_in_the_scorer_reaches_both_phones_and_the_suspensions(
    browser, live_server, settings
) -> None:
    settings.SCORER_LOCAL_ENGINE = False  # the server-driven mode (the local engine's fallback)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture(advanced_rules=["A13"])  # special events: fouls
    fixture = s.fixture
    # The organiser's discipline setting: one yellow card suspends for the next match.
    Competition.objects.filter(id=fixture.competition_id).update(yellow_card_threshold=1)
    users = {"home": s.home_user, "away": s.away_user}
    for user in users.values():
        user.set_password(PASSWORD)
        user.save()
    session = services.session_start(fixture_id=fixture.id, user=s.home_user)
    for event in _to_a_special_event(session.header):
        tap(
            session.id,
            users["away" if event["by"] == "away" else "home"],
            {"client_id": f"card{next(_ids)}", "event": event},
        )
    scorer_url = f"{live_server.url}/score/{session.id}/"
    home_ctx, home = _phone(browser, live_server, s.home_user)
    away_ctx, away = _phone(browser, live_server, s.away_user)
    try:
        home.goto(scorer_url)
        away.goto(scorer_url)
        # The special event's dice as rolled at the table: CT 3, DT 1, a foul by the defenders
        # (A13); then the defending team's yellow card test (5.6.1).
        expect(home.get_by_test_id("sc-question")).to_contain_text("special event")
        # the site header shrinks on the scorer: the brand only, no menu
        expect(home.locator(".site-nav")).to_be_hidden()
        assert home.locator(".site-header").bounding_box()["height"] <= 40
        _shots(home, "q-dice")
        home.locator('[data-die="0"][data-face="3"]').click()
        home.locator('[data-die="1"][data-face="1"]').click()
        expect(home.get_by_test_id("sc-question")).to_contain_text("yellow card")
        booked = home.get_by_test_id("sc-question").inner_text().split(":")[0]
        side = "home" if booked == fixture.home_team.name else "away"
        team = fixture.home_team if side == "home" else fixture.away_team
        _shots(home, "q-card")
        home.locator('[data-die="0"][data-face="5"]').click()  # 5: a yellow, no red card test

        for page in (home, away):
            expect(page.get_by_test_id("sc-moments")).to_contain_text(
                f"Yellow card for {team.name}", timeout=5000
            )
            cards = page.get_by_test_id("sc-teams").locator("tr").first.locator("td")
            expect(cards.nth(0 if side == "home" else 1)).to_contain_text("1 yellow")
        _shots(away, "card-shown")
        for page in (home, away):
            _no_area_code(page)
        _shoot_kinds(home, session.id, users)

        # On to full time (the rest entered as the table plays it), both clubs confirm.
        play(session.id, users)
        for page in (home, away):
            expect(page.get_by_test_id("sc-final")).to_be_visible(timeout=5000)
        home.get_by_test_id("sc-confirm").click()
        expect(home.get_by_test_id("sc-final-text")).to_contain_text(
            f"Confirmed by: {fixture.home_team.name}"
        )
        _shots(away, "q-full-time")
        # the score bar keeps both names whole on the phone, at the longest clock ("90+3' · turn 42")
        cut = away.evaluate(
            "() => [...document.querySelectorAll('.sc-bar .sc-team')]"
            ".filter(e => e.scrollWidth > e.clientWidth).map(e => e.textContent)"
        )
        assert cut == [], cut
        away.get_by_test_id("sc-confirm").click()
        expect(away.get_by_test_id("sc-final-text")).to_contain_text("Both clubs confirmed", timeout=10000)

        # The competition's suspensions: the booked team misses its next match.
        assert Suspension.objects.filter(source_fixture=fixture, team=team).exists()
        slug = fixture.competition.slug
        away.goto(f"{live_server.url}/c/{slug}/teams/{team.id}/")
        suspensions = away.locator("#susp-h + ul")
        # The rest of the match is rolled at random ("roll for me"): a red card for the same team
        # later in it is the ban on record instead of the yellow's (a run in five failed so).
        bans = Suspension.objects.filter(source_fixture=fixture, team=team)
        yellow = bans.filter(reason=Suspension.Reason.YELLOW_ACCUMULATION).exists()
        expect(suspensions).to_contain_text("ellow" if yellow else "Red card")
        expect(suspensions).to_contain_text(f"{fixture.home_team.name}")
    finally:
        home_ctx.close()
        away_ctx.close()

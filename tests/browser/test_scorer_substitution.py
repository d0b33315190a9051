"""The A3 substitution on the scorer (rulebook 3, A3; I-13, I-32, I-46): up to 12 answers (a fresh
player for a line, a booked player replaced, a formation change) shown in two steps that fit a
390x844 phone with the pitch in view: the kinds of substitution, then the tapped kind's options
(matchplay.scorer_view groups them, static/scoring/js/groups.js shows them); the tapped option is
stored as the engine's own `substitution` value, so the log is the one a one-step list gave."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from playwright.sync_api import expect

from matchplay.engine_door import Decision, Dice, new_match
from scoring import services
from scoring.models import ScoringEvent
from tests.browser.conftest import SCREENSHOTS
from tests.browser.scorer_player import READ
from tests.scoring.helpers import make_fixture, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
PASSWORD = "substitution-test-password"
OPTION = "[data-testid=sc-option]"
_ids = itertools.count(1)


def _to_substitution(header: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of a seeded match up to its first substitution type: the first "how many
    substitutions?" is answered with one."""
    m = new_match(header)
    dice = Dice(seed=5)
    events: list[dict[str, Any]] = []
    while (p := m.pending()) is not None and p.name != "substitution":
        if p.kind == "roll":
            ev: Any = dice.roll_for(p)
            events.append({"roll": p.name, "by": p.actor, "dice": list(ev.dice)})
            m.apply(ev)
            continue
        choice = p.default if p.default is not None else p.options[0]
        if p.name == "substitutions":
            choice = 1
        events.append({"decide": p.name, "by": p.actor, "choice": choice})
        m.apply(Decision(p.name, p.actor, choice))
    assert p is not None and len(p.options) > 8, "no substitution of more than 8 answers was asked"
    return events


def _shots(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-phone-{name}.png"))
    page.set_viewport_size(DESKTOP)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-desktop-{name}.png"))
    page.set_viewport_size(PHONE)


def _fits(page) -> list[str]:
    """The text options on screen (chips and the dock's answer), at most 8, the question
    answerable without scrolling with the whole pitch above the dock."""
    shown = page.evaluate(READ)
    height, dock_top, pitch = shown["height"], shown["dockTop"] or shown["height"], shown["pitch"]
    assert shown["scrollY"] == 0, shown["scrollY"]
    assert pitch is not None and pitch[0] >= 0 and pitch[1] <= dock_top + 1, (pitch, dock_top)
    off = [c for c in shown["controls"] if c[0] < 0 or c[1] > height + 1]
    assert not off, off
    options = [t.strip() for t in [*shown["chips"], *shown["dock"]]]
    assert 2 <= len(options) <= 8, options
    return options


def test_a_substitution_is_its_kind_then_its_detail_beside_the_pitch(browser, live_server, settings) -> None:
    settings.SCORER_LOCAL_ENGINE = False  # the server-driven mode (the local engine's fallback)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture(advanced_rules=["A3"])
    users = {"home": s.home_user, "away": s.away_user}
    for user in users.values():
        user.set_password(PASSWORD)
        user.save()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    events = _to_substitution(session.header)
    for event in events:
        tap(
            session.id,
            users["away" if event["by"] == "away" else "home"],
            {"client_id": f"sub{next(_ids)}", "event": event},
        )
    names = {side: session.header["teams"][side]["name"] for side in ("home", "away")}
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(20000)
    try:
        page.goto(f"{live_server.url}/login/?next=/")
        page.fill("input[name=username]", s.home_user.username)
        page.fill("input[name=password]", PASSWORD)
        page.click("button[type=submit], input[type=submit]")
        page.wait_for_load_state()
        page.goto(f"{live_server.url}/score/{session.id}/")
        expect(page.get_by_test_id("sc-question")).to_contain_text("which substitution?")
        asking = page.get_by_test_id("sc-question").inner_text()
        actor = "home" if asking.startswith(names["home"]) else "away"
        formation = session.header["teams"][actor]["formation"]

        # First the kinds, one chip each (no booked player yet: fresh player and formation).
        kinds = _fits(page)
        assert kinds == ["fresh player", "formation"], kinds
        _shots(page, "q-substitution")

        # The formation kind: the kind's chip, pressed, then the formations it may give.
        page.locator(f"{OPTION}[data-group='formation']").click()
        formations = _fits(page)
        assert formations[0] == "formation" and len(formations) == 7, formations
        assert len(set(formations[1:])) == 6 and formation not in formations, formations
        expect(page.locator(f"{OPTION}[data-group='formation']")).to_have_attribute("aria-pressed", "true")
        _shots(page, "q-substitution-formation")

        # Tapped again, the kind goes back to the kinds; the fresh player's lines.
        page.locator(f"{OPTION}[data-group='formation']").click()
        assert _fits(page) == kinds
        page.locator(f"{OPTION}[data-group='fresh player']").click()
        assert _fits(page) == ["fresh player", "defence", "midfield", "attack"]
        _shots(page, "q-substitution-fresh")

        # The line tapped is stored as the engine's value, the same event a one-step list sent.
        page.locator(f"{OPTION}[data-choice='\"fresh:midfield\"']").click()
        expect(page.locator("#scorer")).to_have_attribute("data-seq", str(len(events) + 1))
        stored = ScoringEvent.objects.get(session_id=session.id, seq=len(events) + 1, undone_at__isnull=True)
        assert stored.data == {"decide": "substitution", "by": actor, "choice": "fresh:midfield"}, stored.data
        expect(page.get_by_test_id("sc-question")).to_contain_text("roll for the fresh player")
    finally:
        context.close()

"""The half-time position change on the scorer (rulebook 3, 2.2; asked at half time of extra time
too): the formations it may give as short chips that fit a 390x844 phone with the pitch in view,
the tapped formation stored as the change the engine accepts; and the pitch's labels, which name
the team whose half each area lies in (one vocabulary, rules_engine.areas), never a log code."""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from matchplay.engine_door import Decision, Dice, new_match
from rules_engine.api import AREAS
from scoring import services
from scoring.models import ScoringEvent
from tests.browser.conftest import SCREENSHOTS
from tests.browser.scorer_player import READ
from tests.scoring.helpers import make_fixture, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
PASSWORD = "half-time-test-password"
AREA_CODE = re.compile(r"\b(?:" + "|".join(re.escape(a.code) for a in AREAS) + r")\b")
FORMATION = re.compile(r"^(?:keep )?\d-\d-\d$")
_ids = itertools.count(1)


def _to_half_time(header: dict[str, Any]) -> list[dict[str, Any]]:
    """The events of a seeded match up to the first half-time position change (2.2)."""
    m = new_match(header)
    dice = Dice(seed=3)
    events: list[dict[str, Any]] = []
    while (p := m.pending()) is not None and p.name != "half_time_formation":
        if p.kind == "roll":
            ev: Any = dice.roll_for(p)
            events.append({"roll": p.name, "by": p.actor, "dice": list(ev.dice)})
        else:
            choice = p.default if p.default is not None else p.options[0]
            ev = Decision(p.name, p.actor, choice)
            events.append({"decide": p.name, "by": p.actor, "choice": choice})
        m.apply(ev)
    assert p is not None, "the match ended before half time"
    return events


def _shots(page, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-phone-{name}.png"))
    page.set_viewport_size(DESKTOP)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-desktop-{name}.png"))
    page.set_viewport_size(PHONE)


def _assert_fits(page) -> dict[str, Any]:
    """The question answerable without scrolling: the pitch above the dock, every chip on screen
    (as the tap-count run measures a question)."""
    shown = page.evaluate(READ)
    height, dock_top, pitch = shown["height"], shown["dockTop"] or shown["height"], shown["pitch"]
    assert shown["scrollY"] == 0, shown["scrollY"]
    assert pitch is not None and pitch[0] >= 0 and pitch[1] <= dock_top + 1, (pitch, dock_top)
    off = [c for c in shown["controls"] if c[0] < 0 or c[1] > height + 1]
    assert not off, off
    return shown


def _labels(page) -> dict[str, str]:
    """Each area's label as the pitch prints it (its lines joined by a space)."""
    return page.evaluate(
        "() => Object.fromEntries([...document.querySelectorAll('[data-area-label]')].map((t) =>"
        " [t.getAttribute('data-area-label'),"
        " [...t.childNodes].map((n) => n.textContent.trim()).filter(Boolean).join(' ')]))"
    )


def test_the_half_time_change_is_a_row_of_formations_beside_the_pitch(browser, live_server, settings) -> None:
    settings.SCORER_LOCAL_ENGINE = False  # the server-driven mode (the local engine's fallback)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture()
    users = {"home": s.home_user, "away": s.away_user}
    for user in users.values():
        user.set_password(PASSWORD)
        user.save()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    events = _to_half_time(session.header)
    for event in events:
        tap(
            session.id,
            users["away" if event["by"] == "away" else "home"],
            {"client_id": f"ht{next(_ids)}", "event": event},
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
        expect(page.get_by_test_id("sc-question")).to_contain_text("change formation?")
        asking = page.get_by_test_id("sc-question").inner_text()
        actor = "home" if asking.startswith(names["home"]) else "away"
        formation = session.header["teams"][actor]["formation"]

        # Short chips: the formation kept and the six it may become, no sentence.
        chips = page.locator("[data-testid=sc-option]")
        labels = [t.strip() for t in chips.all_inner_texts()]
        assert labels[0] == f"keep {formation}", labels
        assert 2 <= len(labels) <= 8 and all(FORMATION.match(t) for t in labels), labels
        assert len(set(labels)) == len(labels), labels
        shown = _assert_fits(page)
        assert len(shown["question"]) + sum(len(t) for t in labels) <= 110, shown["question"]
        _shots(page, "q-half-time-formation")

        # The pitch names both halves apart: the same words, each with its team.
        label = _labels(page)
        assert label["H-LM"] == f"{names['home']} left midfield", label
        assert label["A-LM"] == f"{names['away']} left midfield", label
        assert label["CENTRE"] == "centre circle", label
        text = page.locator("#scorer").evaluate(
            "el => el.innerText + ' ' + [...el.querySelectorAll('[aria-label],[title]')].map(e => "
            "(e.getAttribute('aria-label') || '') + ' ' + (e.getAttribute('title') || '')).join(' ')"
        )
        assert not AREA_CODE.findall(text), sorted(set(AREA_CODE.findall(text)))
        assert not any(AREA_CODE.search(t) for t in label.values()), label

        # The second formation offered is stored as the change that gives it.
        second = chips.nth(1)
        value = second.get_attribute("data-choice").strip('"')
        wanted = labels[1]
        second.click()
        expect(page.locator("#scorer")).to_have_attribute("data-seq", str(len(events) + 1))
        stored = ScoringEvent.objects.get(session_id=session.id, seq=len(events) + 1, undone_at__isnull=True)
        assert stored.data == {"decide": "half_time_formation", "by": actor, "choice": value}, stored.data
        lines = [int(n) for n in formation.split("-")]
        zones = ("defence", "midfield", "forward")
        src, dst = value.split(">")
        lines[zones.index(src)] -= 1
        lines[zones.index(dst)] += 1
        assert "-".join(map(str, lines)) == wanted
    finally:
        context.close()

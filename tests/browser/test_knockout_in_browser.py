"""A level knockout tie scored on two phones (house rule I-38, I-42): "is extra time played?" never
offers "no" while the tie is level (the page answers the one legal answer itself), extra time is
played, the tie is still level at full time, the shoot-out score is asked at once: the first club
gives it with its confirmation, the second phone shows that score and confirms the same one, and
both clubs' confirmations count the result through the results workflow."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from matches.models import ResultAudit
from scoring import services, web_engine
from scoring.models import ScoringEvent
from tests.browser.conftest import SCREENSHOTS
from tests.scoring.helpers import knockout_final, level_after_extra_time, tap
from tournaments.models import Fixture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
PASSWORD = "knockout-test-password"
_ids = itertools.count(1)

# Every question the page shows and the answers it offers with it (chips and the dock's button),
# recorded as the page changes: a "no" offered at the extra-time question, even for a moment,
# would be a way to end a level knockout match at 90 minutes.
RECORD_OFFERS = """
window.__offers = [];
new MutationObserver(() => {
  const root = document.getElementById("scorer");
  const q = root && root.querySelector('[data-testid="sc-question"]');
  if (!q) return;
  const buttons = Array.from(root.querySelectorAll(
    '[data-testid="sc-answer"] button, [data-testid="sc-dock-answer"] button')).map((b) => b.textContent);
  window.__offers.push([q.textContent, buttons]);
}).observe(document, { subtree: true, childList: true, characterData: true });
"""


@pytest.fixture(scope="module", autouse=True)
def bundle() -> Iterator[None]:
    web_engine.build()
    web_engine.current.cache_clear()
    yield
    web_engine.current.cache_clear()


def _post_all(session_id: int, users: dict[str, Any], seq: int, events: list[dict[str, Any]]) -> int:
    """Events entered by the club whose turn it is (both clubs take part in the scoring)."""
    for event in events:
        seq += 1
        tap(
            session_id,
            users["away" if event["by"] == "away" else "home"],
            {"client_id": f"ko{next(_ids)}", "event": event},
        )
    return seq


def _stored(session_id: int, seq: int) -> ScoringEvent:
    """Event ``seq`` once the server holds it (the phone's own engine answers before it is sent)."""
    for _ in range(200):
        row = ScoringEvent.objects.filter(session_id=session_id, seq=seq, undone_at__isnull=True).first()
        if row is not None:
            return row
        time.sleep(0.05)
    raise AssertionError(f"the server did not store event {seq}")


def _phone(browser, live_server, user) -> tuple[Any, Any]:
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    context.add_init_script(RECORD_OFFERS)
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state()
    return context, page


def _shots(page, name: str) -> None:
    """What the phone shows, and the same page at desktop size."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-phone-{name}.png"))
    page.set_viewport_size(DESKTOP)
    page.evaluate("() => window.scrollTo(0, 0)")
    page.screenshot(path=str(SCREENSHOTS / f"scorer-desktop-{name}.png"))
    page.set_viewport_size(PHONE)


def test_a_level_knockout_tie_plays_extra_time_and_a_shoot_out(browser, live_server, settings) -> None:
    # The phones run their own rules engine (the default): the extra-time question is still the
    # league's, with its one legal answer (local-first.js asks the server's version of it).
    settings.SCORER_LOCAL_ENGINE = True
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    fixture, users = knockout_final()
    for user in users.values():
        user.set_password(PASSWORD)
        user.save()
    session = services.session_start(fixture_id=fixture.id, user=users["home"])
    before, after = level_after_extra_time(session.header)
    seq = _post_all(session.id, users, 0, before)
    scorer_url = f"{live_server.url}/score/{session.id}/"
    home_ctx, home = _phone(browser, live_server, users["home"])
    away_ctx = None
    try:
        # Level after 90 minutes: the one legal answer, "yes", is given by the page itself.
        home.goto(scorer_url)
        expect(home.locator("#scorer")).to_have_attribute("data-engine", "local", timeout=60000)
        expect(home.locator("#scorer")).to_have_attribute("data-seq", str(seq + 1), timeout=60000)
        stored = _stored(session.id, seq + 1)
        assert stored.data == {"decide": "extra_time", "by": "home", "choice": "yes"}, stored.data
        expect(home.get_by_test_id("sc-events").locator("li").first).to_contain_text("extra time")
        offers = home.evaluate("() => window.__offers")
        at_extra_time = [buttons for question, buttons in offers if "extra time" in question.lower()]
        assert not [b for buttons in at_extra_time for b in buttons if b.strip().lower() == "no"], offers
        _shots(home, "q-extra-time")

        # Extra time is played on both phones, still level at the final whistle.
        away_ctx, away = _phone(browser, live_server, users["away"])
        away.goto(scorer_url)
        expect(away.locator("#scorer")).to_have_attribute("data-engine", "local", timeout=60000)
        expect(away.locator("#scorer")).to_have_attribute("data-seq", str(seq + 1), timeout=60000)
        seq = _post_all(session.id, users, seq + 1, after)
        for page in (home, away):
            expect(page.locator("#scorer")).to_have_attribute("data-status", "full_time", timeout=5000)
            expect(page.get_by_test_id("sc-final")).to_be_visible()
        score = home.get_by_test_id("sc-score").inner_text()
        home_goals, away_goals = (int(n) for n in score.split(" – "))
        assert home_goals == away_goals

        # The first club gives the shoot-out score with its confirmation; the other club's phone
        # offers that score, and its confirmation of the same score counts the result.
        home_name, away_name = fixture.home_team.name, fixture.away_team.name
        expect(home.get_by_test_id("sc-shootout")).to_be_visible()
        expect(home.get_by_test_id("sc-final-text")).to_contain_text("give the penalty shoot-out score")
        home.locator('[data-pen="home"]').fill("4")
        home.locator('[data-pen="away"]').fill("5")
        home.get_by_test_id("sc-confirm").click()
        expect(home.get_by_test_id("sc-final-text")).to_contain_text(f"Confirmed by: {home_name}")
        expect(home.get_by_test_id("sc-final-text")).to_contain_text(
            f"Your shoot-out score: {home_name} 4–5 {away_name}"
        )
        expect(home.get_by_test_id("sc-confirm")).to_have_text("Change our shoot-out score")
        expect(away.get_by_test_id("sc-final-text")).to_contain_text(
            f"{home_name} gave the penalty shoot-out as {home_name} 4–5 {away_name}", timeout=5000
        )
        expect(away.get_by_test_id("sc-shootout")).to_be_visible()
        expect(away.locator('[data-pen="home"]')).to_have_value("4")
        expect(away.locator('[data-pen="away"]')).to_have_value("5")
        _shots(away, "q-shoot-out")
        away.get_by_test_id("sc-confirm").click()
        for page in (away, home):
            expect(page.get_by_test_id("sc-final-text")).to_contain_text(
                "Both clubs confirmed", timeout=10000
            )
            expect(page.get_by_test_id("sc-final-text")).to_contain_text(
                f"Penalty shoot-out: {home_name} 4–5 {away_name}"
            )
        _shots(home, "full-time-confirmed")
    finally:
        home_ctx.close()
        if away_ctx is not None:
            away_ctx.close()

    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.CONFIRMED
    result = fixture.result
    assert result.extra_time is True
    assert (result.home_goals, result.away_goals) == (home_goals, away_goals)
    assert (result.home_penalties, result.away_penalties) == (4, 5)
    # the home club gave the shoot-out score: it submitted the result, the away club confirmed it
    submit = ResultAudit.objects.get(fixture=fixture, action=ResultAudit.Action.SUBMIT)
    assert submit.actor_id == users["home"].pk
    assert (submit.after["home_penalties"], submit.after["away_penalties"]) == (4, 5)
    confirm = ResultAudit.objects.get(fixture=fixture, action=ResultAudit.Action.CONFIRM)
    assert confirm.actor_id == users["away"].pk and f"given by {fixture.home_team.name}" in confirm.note

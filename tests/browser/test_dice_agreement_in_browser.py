"""App dice on two phones (390×844): one club chooses, the other answers with one tap.

The home club chooses app dice on its phone; the away club's phone asks "Brazil chose app
dice" with "agree" / "we type our dice"; "we type our dice" turns them off before the first event,
the home club chooses again, the away club agrees, both phones say so under the board and the
home phone's own engine (local-first.js) rolls the first roll from the session's seed with one
tap ("Roll"). Screenshots at 390×844 and
1366×900 in var/screenshots."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from scoring import services, web_engine
from scoring.models import ScoringEvent, ScoringSession
from tests.browser.conftest import SCREENSHOTS
from tests.scoring.helpers import make_fixture

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
PASSWORD = "dice-test-password"


@pytest.fixture(scope="module", autouse=True)
def bundle() -> Iterator[None]:
    web_engine.build()
    web_engine.current.cache_clear()
    yield
    web_engine.current.cache_clear()


def _phone(browser: Any, live_server: Any, user: Any, url: str) -> Any:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_default_timeout(30000)
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state()
    page.goto(url)
    expect(page.get_by_test_id("sc-question")).not_to_have_text("Loading the match…", timeout=60000)
    return context, page


def _shot(page: Any, name: str) -> None:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


@pytest.mark.django_db(transaction=True)
def test_app_dice_are_agreed_on_two_phones(browser, live_server, settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture()
    for user in (s.home_user, s.away_user):
        user.set_password(PASSWORD)
        user.save()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    home_name, away_name = s.fixture.home_team.name, s.fixture.away_team.name
    url = f"{live_server.url}/score/{session.id}/"
    home_ctx, home = _phone(browser, live_server, s.home_user, url)
    # the home phone scores on its own engine (the dice word, then the seeded roll, go through
    # local-first.js); the away phone in the server-driven mode, which starts in a moment
    expect(home.locator("#scorer")).to_have_attribute("data-engine", "local")
    settings.SCORER_LOCAL_ENGINE = False
    away_ctx, away = _phone(browser, live_server, s.away_user, url)
    try:
        home.get_by_test_id("sc-dice-app").click()
        expect(home.get_by_test_id("sc-dice-say")).to_have_text(
            f"App dice until {away_name} says no (before the first roll):"
        )
        # the other club's phone asks, within a poll
        say = away.get_by_test_id("sc-dice-say")
        expect(say).to_have_text(f"{home_name} chose app dice: the phone rolls every roll.", timeout=5000)
        _shot(away, "scorer-phone-dice-agree")
        away.get_by_test_id("sc-dice-refuse").click()
        expect(away.get_by_test_id("sc-dice")).to_have_text(
            f"Dice rolled at the table: {away_name} said no to app dice"
        )
        expect(home.get_by_test_id("sc-dice-say")).to_have_text(f"{away_name} types its dice:", timeout=5000)
        assert ScoringSession.objects.get(id=session.id).app_dice is False

        home.get_by_test_id("sc-dice-app").click()
        expect(away.get_by_test_id("sc-dice-agree")).to_be_visible(timeout=5000)
        away.get_by_test_id("sc-dice-agree").click()
        agreed = f"App dice: chosen by {home_name}, agreed by {away_name}"
        expect(away.get_by_test_id("sc-dice")).to_have_text(agreed)
        expect(home.get_by_test_id("sc-dice")).to_have_text(agreed, timeout=5000)
        expect(home.get_by_test_id("sc-dice-say")).to_have_text(f"{away_name} agreed to app dice.")
        # one tap rolls the kick-off on the home phone's engine, from the session's seed
        home.get_by_test_id("sc-roll-for-me").click()
        expect(home.locator("#scorer")).to_have_attribute("data-queue", "0", timeout=10000)
        expect(away.locator("#scorer")).not_to_have_attribute("data-seq", "0", timeout=5000)
        # the mode is settled: nothing more is asked of either club
        expect(home.get_by_test_id("sc-dice-choice")).to_be_hidden()
        expect(away.get_by_test_id("sc-dice-choice")).to_be_hidden()
        _shot(home, "scorer-phone-dice-agreed")
        away.set_viewport_size(DESKTOP)
        away.get_by_test_id("sc-dice").scroll_into_view_if_needed()
        _shot(away, "scorer-desktop-dice-agreed")
    finally:
        home_ctx.close()
        away_ctx.close()
    session.refresh_from_db()
    assert [e["what"] for e in session.dice_record] == ["chose", "refused", "chose", "agreed"]
    assert [e["side"] for e in session.dice_record] == ["home", "away", "home", "away"]
    first = ScoringEvent.objects.get(session=session, seq=1)
    # rolled by the server when it was due (the phone was online): no seed foretold it
    assert first.rolled_by_app and not first.rolled_offline and first.data["note"] == "rolled by the app"

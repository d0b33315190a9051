"""At the venue (issue 33, items 6 and 7; docs/venue.md): the big screen counts the round down
by the server's clock and lists the tables (1920×1080), a club checks in from its phone
(390×844), and a spectator steps back through a live match and returns to live with one tap.
Screenshots into var/screenshots/."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from scoring import services
from tests.browser.conftest import SCREENSHOTS
from tests.factories import AdminFactory
from tests.scoring.helpers import make_fixture, play
from tournaments.models import CheckIn
from tournaments.services.venue import round_clock_set, round_tables_number

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PHONE = {"width": 390, "height": 844}
BIG = {"width": 1920, "height": 1080}


def _signed_in(browser, live_server, user, viewport):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, is_mobile=viewport == PHONE, has_touch=True)
    context.add_cookies(
        [{"name": "sessionid", "value": client.cookies["sessionid"].value, "url": live_server.url}]
    )
    return context


def test_the_round_counts_down_on_the_big_screen_and_a_club_checks_in(browser, live_server) -> None:
    s = make_fixture()
    fixture = s.fixture
    # The round started five minutes ago and lasts 45: about 40 minutes left.
    round_clock_set(
        stage=fixture.stage, round=fixture.round, starts_at=timezone.now() - timedelta(minutes=5), minutes=45
    )
    round_tables_number(stage=fixture.stage, round=fixture.round, first=4)
    fixture.refresh_from_db()
    slug = fixture.competition.slug
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    screen = browser.new_context(viewport=BIG)
    try:
        page = screen.new_page()
        page.goto(f"{live_server.url}/c/{slug}/screen/?seconds=3")
        countdown = page.get_by_test_id("screen-countdown")
        expect(countdown).to_be_visible()
        expect(countdown).to_have_text(re.compile(r"^League · Matchday 1: (40|39):\d\d left$"))
        expect(countdown).to_have_attribute("data-phase", "running")
        # It counts: the seconds move on without a new document.
        first = int(countdown.get_attribute("data-seconds") or 0)
        expect(countdown).not_to_have_attribute("data-seconds", str(first), timeout=3000)
        # A reload reads the server's clock again: the same count, not a fresh 45 minutes.
        page.reload()
        expect(countdown).to_have_attribute("data-seconds", re.compile(r"^2[34]\d\d$"))
        assert abs(int(countdown.get_attribute("data-seconds") or 0) - first) < 30
        # The next fixtures with their tables.
        expect(page.locator("body")).to_have_attribute("data-view", "upcoming", timeout=15000)
        expect(page.locator(".screen-fixtures__table").first).to_have_text(re.compile(r"^Table [4-9]$"))
        assert "Table 4" in page.locator(".screen-fixtures").inner_text()
        page.screenshot(path=str(SCREENSHOTS / "venue-big-screen-1920.png"))
    finally:
        screen.close()

    phone = _signed_in(browser, live_server, s.home_user, PHONE)
    try:
        page = phone.new_page()
        page.goto(f"{live_server.url}/c/{slug}/matches/{fixture.pk}/")
        expect(page.get_by_test_id("table")).to_have_text(f"Table {fixture.table_number}")
        clock = page.get_by_test_id("round-clock")
        expect(clock).to_have_text(re.compile(r": (40|39):\d\d left$"))
        button = page.get_by_test_id("check-in-button")
        box = button.bounding_box()
        assert box is not None and box["height"] >= 44 and box["x"] + box["width"] <= PHONE["width"]
        page.screenshot(path=str(SCREENSHOTS / "venue-check-in-phone.png"), full_page=True)
        button.tap()
        expect(page.get_by_test_id("checked-in")).to_contain_text(f"{fixture.home_team.name} checked in at")
        assert CheckIn.objects.filter(fixture=fixture, team=fixture.home_team).count() == 1
        page.screenshot(path=str(SCREENSHOTS / "venue-checked-in-phone.png"), full_page=True)
    finally:
        phone.close()

    # The organiser's phone: who has not checked in, and the way to the no-show decision.
    organiser = _signed_in(browser, live_server, AdminFactory(is_superuser=True), PHONE)
    try:
        page = organiser.new_page()
        page.goto(f"{live_server.url}/console/c/{slug}/venue/")
        row = page.get_by_test_id("venue-fixture").filter(has_text=f"Table {fixture.table_number}")
        expect(row.get_by_test_id("checked")).to_contain_text(fixture.home_team.name)
        expect(row.get_by_test_id("not-checked")).to_have_text(f"✗ {fixture.away_team.name}")
        page.screenshot(path=str(SCREENSHOTS / "venue-console-phone.png"), full_page=True)
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        row.get_by_test_id("no-show").tap()
        expect(page.locator("#id_action")).to_have_value("award")
        expect(page.locator("#id_award_to")).to_have_value("home")
    finally:
        organiser.close()


def test_a_spectator_steps_back_through_a_live_match_and_returns_to_live(browser, live_server) -> None:
    s = make_fixture()
    users = {"home": s.home_user, "away": s.away_user}
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    state = play(session.id, users, until=120)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/c/{s.fixture.competition.slug}/matches/{s.fixture.id}/")
        panel = page.get_by_test_id("live-panel")
        expect(panel).to_have_attribute("data-seq", str(state["seq"]))
        expect(panel).to_have_attribute("data-story", str(state["version"]))
        turn_now = state["state"]["turn"]
        page.get_by_test_id("live-prev").tap()
        expect(panel).to_have_attribute("data-at", re.compile(r"^\d+$"))
        moment = page.get_by_test_id("live-moment")
        expect(moment).to_have_text(re.compile(r"^Turn \d+ · "))
        stepped = int(page.get_by_test_id("live-turn").inner_text())
        assert stepped < turn_now
        # The feed as it stood then, that turn on top and marked.
        current = page.get_by_test_id("live-feed").locator("li").first
        expect(current).to_have_text(re.compile(rf"^Turn {stepped} · "))
        expect(current).to_have_class(re.compile("feed--current"))
        page.get_by_test_id("live-prev").tap()
        expect(page.get_by_test_id("live-turn")).not_to_have_text(str(stepped))
        assert int(page.get_by_test_id("live-turn").inner_text()) < stepped
        at = panel.get_attribute("data-at")
        back = page.get_by_test_id("live-back")
        expect(back).to_have_text("Back to live")

        # The table plays on: the entries are counted, the view does not move.
        state = play(session.id, users, until=state["seq"] + 3)
        expect(back).to_have_text("3 new — back to live", timeout=5000)
        expect(panel).to_have_attribute("data-at", at or "")
        assert int(page.get_by_test_id("live-turn").inner_text()) < stepped
        page.screenshot(path=str(SCREENSHOTS / "live-stepped-back-phone.png"), full_page=True)

        # Next moves forward a turn; one tap on the button is live again, at the newest entry.
        page.get_by_test_id("live-next").tap()
        expect(page.get_by_test_id("live-turn")).to_have_text(str(stepped))
        back.tap()
        expect(back).to_be_hidden()
        expect(moment).to_be_hidden()
        expect(page.get_by_test_id("live-turn")).to_have_text(str(state["state"]["turn"]))
        score = state["state"]["score"]
        expect(page.get_by_test_id("live-score")).to_have_text(f"{score[0]} – {score[1]}")
        expect(panel).to_have_attribute("data-story", str(state["version"]), timeout=5000)
        page.screenshot(path=str(SCREENSHOTS / "live-back-to-live-phone.png"), full_page=True)

        # The scorer at the table shows its round's countdown too, once the round has a clock.
        fixture = s.fixture
        round_clock_set(
            stage=fixture.stage,
            round=fixture.round,
            starts_at=timezone.now() + timedelta(minutes=2),
            minutes=30,
        )
        page.goto(f"{live_server.url}/score/{session.id}/")
        expect(page.get_by_test_id("sc-countdown")).to_have_text(re.compile(r"starts in [12]:\d\d$"))
        page.screenshot(path=str(SCREENSHOTS / "venue-scorer-countdown-phone.png"))
    finally:
        context.close()

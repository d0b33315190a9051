"""The match page lists a club's side branches (taps another phone's stretch left unused) to the
two clubs, readable at phone size and on a desktop (issue 31, item 3)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring import branches, services
from scoring.selectors import session_get, session_state
from tests.browser.conftest import SCREENSHOTS
from tests.scoring.helpers import make_fixture, play

pytestmark = pytest.mark.browser

PASSWORD = "side-branches-test-password"


def test_the_match_page_lists_the_side_branches_to_the_clubs(browser, live_server, settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture()
    s.away_user.set_password(PASSWORD)
    s.away_user.save()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    play(session.id, {"home": s.home_user, "away": s.away_user}, until=12)
    stored = services.scored_log(session_get(session_id=session.id))["events"]
    minute = str(session_state(session_get(session_id=session.id))["state"]["minute"])
    branches.side_branch_record(
        session_id=session.id,
        user=s.away_user,
        branch_id="b-page",
        from_seq=4,
        from_minute="1",
        events=[{"client_id": f"p{i}", "event": e} for i, e in enumerate(stored[3:11])],
        current_minute=minute,
    )
    url = f"{live_server.url}/c/{s.fixture.competition.slug}/matches/{s.fixture.pk}/"
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for name, viewport in (
        ("phone", {"width": 390, "height": 844}),
        ("desktop", {"width": 1280, "height": 900}),
    ):
        context = browser.new_context(viewport=viewport, is_mobile=name == "phone", has_touch=name == "phone")
        page = context.new_page()
        page.set_default_timeout(20000)
        try:
            page.goto(f"{live_server.url}/login/?next=/")
            page.fill("input[name=username]", s.away_user.username)
            page.fill("input[name=password]", PASSWORD)
            page.click("button[type=submit], input[type=submit]")
            page.wait_for_load_state()
            page.goto(url)
            section = page.get_by_test_id("side-branches")
            expect(section).to_contain_text(f"{s.fixture.away_team.name}'s phone")
            expect(section).to_contain_text("8 taps from 1'")
            section.get_by_test_id("side-branch").locator("summary").click()
            expect(section).to_contain_text("were not used: the other phone had already recorded")
            assert section.locator("ol li").count() == 8
            # nothing runs off the side of the screen
            overflow = page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
            assert overflow <= 0, overflow
            section.scroll_into_view_if_needed()
            page.screenshot(path=str(SCREENSHOTS / f"side-branches-{name}.png"))
        finally:
            context.close()

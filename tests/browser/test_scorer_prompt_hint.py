"""A prompt that does not say what "yes" does ("play second actions?") carries the server's hint
under the question in a few words, its chapter opened by a tap on it (issue 31, item 8), on a
390x844 phone; the hint is a thumb's target like the answers."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.test_scorer_small_things import _scorer, _session_at, _shots

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]


def test_second_actions_says_what_it_does_and_its_chapter_on_tap(browser, live_server, settings) -> None:
    settings.SCORER_LOCAL_ENGINE = False
    s, session = _session_at(settings, "second_actions")
    context, page = _scorer(browser, live_server, s.home_user, session.id)
    try:
        expect(page.get_by_test_id("sc-question")).to_contain_text("second actions")
        hint, chapter = page.get_by_test_id("sc-hint-text"), page.get_by_test_id("sc-hint-chapter")
        expect(hint).to_have_text("Each team plays one more action this turn, not the one it just played")
        expect(chapter).to_be_hidden()
        box = hint.bounding_box()
        assert box is not None and box["height"] >= 44, box
        hint.click()
        expect(chapter).to_be_visible()
        expect(chapter).to_have_text("FUBA rulebook, chapter 4.3.2")
        _shots(page, "q-second-actions-hint")
        # the answer goes on: the next question has no hint
        seq = page.locator("#scorer").get_attribute("data-seq")
        page.locator("#scorer .chip").first.click()
        expect(page.locator("#scorer")).not_to_have_attribute("data-seq", str(seq))
        expect(page.get_by_test_id("sc-question")).not_to_contain_text("second actions")
        expect(page.get_by_test_id("sc-hint")).to_be_hidden()
    finally:
        context.close()

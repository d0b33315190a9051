"""The tallest question of the tap bench fits a 390x844 phone with the pitch in view (issue 35):
"use a condition point?" (A1) with its hint, its "yes" chip and, beside the dock's "no", the
other team's next question and its actions ("Or Brazil: choose the action:"). With app dice it
ran past the bottom of the screen, so the player scrolled the pitch away to answer. Judged as
the tap bench judges every question (tests/browser/scorer_player.py), and at 1366x900 every
answer and the whole pitch in view without scrolling. With typed dice each action sits on a row
with its roll's faces, and at both sizes every chip shows its whole label: the rows cut them to
"a sho…", "move…", "posit…" on the phone."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from matchplay.scorer_view import pending_dict
from scoring import services
from tests.browser.scorer_player import READ, Player
from tests.browser.test_scorer_small_things import DESKTOP, PASSWORD, PHONE, _scorer, _shots, events_until
from tests.scoring.helpers import make_fixture, tap

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

# The chips on screen whose label does not fit their box (cut, or spilling out of it), and how many
# sit on a row of dice faces.
CUT_CHIPS = """() => {
  const chips = [...document.querySelectorAll("#scorer .chip")].filter((e) => e.getClientRects().length);
  return {
    cut: chips.filter((e) => e.scrollWidth > e.clientWidth || e.scrollHeight > e.clientHeight)
      .map((e) => [e.textContent, e.scrollWidth, e.clientWidth, e.scrollHeight, e.clientHeight]),
    onRows: chips.filter((e) => e.closest(".sc-act")).map((e) => e.textContent),
  };
}"""


def _to_use_cp_then_action(header: dict[str, Any], seed: int = 1) -> list[dict[str, Any]]:
    """The events of a seeded match up to its first "use a condition point?" whose dock answer
    ("no") is followed by the other team's choice of action, which the page offers beside it."""

    def stop(m: Any, p: Any) -> bool:
        if p.name != "use_cp":
            return False
        then = (pending_dict(m) or {}).get("then")
        return then is not None and then["name"] == "action" and then["actor"] != p.actor

    return events_until(header, seed, stop, "a use_cp question followed by an action")


@pytest.mark.parametrize("app_dice", [True, False], ids=["app", "typed"])
def test_use_a_condition_point_or_the_action_fits_the_phone(browser, live_server, settings, app_dice) -> None:
    settings.SCORER_LOCAL_ENGINE = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture(advanced_rules=["A1", "A11"], skills=1)
    users = {"home": s.home_user, "away": s.away_user}
    for user in users.values():
        user.set_password(PASSWORD)
        user.save()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    for i, event in enumerate(_to_use_cp_then_action(session.header)):
        tap(
            session.id,
            users["away" if event["by"] == "away" else "home"],
            {"client_id": f"fit{i}", "event": event},
        )
    if app_dice:  # from here on the app rolls: both clubs say so
        for user in users.values():
            services.session_dice(session_id=session.id, user=user, app_dice=True)
    context, page = _scorer(browser, live_server, s.home_user, session.id)
    try:
        expect(page.get_by_test_id("sc-then")).to_contain_text("choose the action")
        expect(page.get_by_test_id("sc-hint")).to_be_visible()
        player = Player(page, session.id, app_dice=app_dice)
        shown = player._settled()
        assert "use a condition point" in shown["question"], shown["question"]
        assert len(shown["chips"]) >= 3, shown  # "yes" and the other team's actions
        _shots(page, "q-use-cp-then-action-" + ("app" if app_dice else "typed"))
        player._measure(shown)
        assert not player.tally.misfits, shown
        # the hint and the question's line stay whole (not cut or hidden to make room)
        hint = page.get_by_test_id("sc-hint-text").bounding_box()
        assert hint is not None and hint["y"] >= 0 and hint["height"] >= 44, hint
        chips = page.evaluate(CUT_CHIPS)
        assert chips["cut"] == [], chips
        if not app_dice:  # the next team's actions, each on a row with the faces of its roll
            assert len(chips["onRows"]) >= 2 and "a shot at goal" in chips["onRows"], chips

        page.set_viewport_size(DESKTOP)
        page.evaluate("() => window.scrollTo(0, 0)")
        desk = page.evaluate(READ)
        assert desk["pitch"][0] >= 0 and desk["pitch"][1] <= desk["height"] + 1, desk
        assert all(c[0] >= 0 and c[1] <= desk["height"] + 1 for c in desk["controls"]), desk
        assert page.evaluate(CUT_CHIPS)["cut"] == []
        page.set_viewport_size(PHONE)
    finally:
        context.close()

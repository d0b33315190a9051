"""A whole FUBA match scored on phones (390×844): dice taps, "roll for me", undo, a reload, a second
club's device, a dropped connection with queued taps, the live panel of the match page, both
confirmations; the stored log validates and the standings change. Every
page runs under the strict Content-Security-Policy with no violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from matches.models import MatchLog, ResultAudit
from matches.standings import cache as standings_cache
from matches.standings import presentation
from rules_engine.api import validate_log
from scoring.models import ScoringSession
from tests.browser.conftest import SCREENSHOTS
from tests.scoring.helpers import make_fixture
from tournaments.models import Fixture

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
PASSWORD = "scorer-test-password"

# Answers what the page asks with its own controls: "roll for me" for dice, the one-tap default
# in the dock (a set-up's first preset as it stands), else the first chip, else the first
# highlighted area of the pitch (a tap there); waits for the server's answer (data-seq changes,
# nothing queued; a gesture that asks one more thing, such as "with the ball?" after a move, is a
# step too). Questions with one legal answer are answered by the page itself, so the loop also
# waits for those.
TAPS = """async ([n, stopAtRoll]) => {
  const root = document.getElementById("scorer");
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const settled = async () => {
    for (let t = 0; t < 1000 && root.dataset.queue !== "0"; t++) await sleep(5);
  };
  const tapArea = (a) => {
    const r = a.getBoundingClientRect();
    const at = { clientX: r.x + r.width / 2, clientY: r.y + r.height / 2, bubbles: true, pointerId: 1 };
    a.dispatchEvent(new PointerEvent("pointerdown", at));
    a.dispatchEvent(new PointerEvent("pointerup", at));
  };
  for (let i = 0; i < n; i++) {
    await settled();
    if (root.dataset.status !== "live") return "status:" + root.dataset.status;
    const seq = root.dataset.seq;
    let roll = null, b = null, area = null;
    for (let t = 0; t < 200; t++) {
      roll = root.querySelector('[data-testid="sc-roll-for-me"]');
      b = roll || root.querySelector('[data-testid="sc-default"]')
        || root.querySelector('[data-testid="sc-setup-use"]:not([disabled])')
        || root.querySelector('[data-testid="sc-option"]');
      area = b ? null : root.querySelector("[data-area].area--pick");
      if (b || area || root.dataset.seq !== seq || root.dataset.status !== "live") break;
      await sleep(10);
    }
    if (root.dataset.seq !== seq) continue;
    if (root.dataset.status !== "live") return "status:" + root.dataset.status;
    if (stopAtRoll && roll) return "roll";
    if (b) b.click();
    else if (area) {
      tapArea(area);
      const to = root.dataset.queue === "0" && root.querySelector("[data-area].area--target");
      if (to) tapArea(to);
    }
    else return "no button";
    for (let t = 0; t < 300 && (root.dataset.seq === seq || root.dataset.queue !== "0"); t++) await sleep(5);
    const error = root.querySelector('[data-testid="sc-error"]');
    if (root.dataset.seq === seq && !error.hidden) return "refused at " + seq + ": " + error.textContent;
  }
  return "ok";
}"""


# As tests/browser/test_csp_in_browser.py: chromium reports a blocked script, style or
# connection on the console and as a securitypolicyviolation event.
CSP_REPORTER = (
    "document.addEventListener('securitypolicyviolation', e => console.error("
    "'Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
)


def _watch_csp(context, violations: list[str]) -> None:
    context.add_init_script(CSP_REPORTER)
    context.on(
        "console",
        lambda msg: (
            violations.append(f"{msg.page.url if msg.page else ''}: {msg.text}")
            if "Content Security Policy" in msg.text
            else None
        ),
    )


def _login(context, live_server, user) -> object:
    page = context.new_page()
    page.set_default_timeout(20000)
    page.goto(f"{live_server.url}/login/?next=/")
    page.fill("input[name=username]", user.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.wait_for_load_state()
    return page


def _phone_shot(page, name: str) -> None:
    # what the phone shows (a full-page capture would draw the sticky score bar mid-page)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"{name}.png"))


def _seq(page) -> int:
    return int(page.locator("#scorer").get_attribute("data-seq") or 0)


def _taps(page, n: int, stop_at_roll: bool = False) -> str:
    return page.evaluate(TAPS, [n, stop_at_roll])


@pytest.mark.django_db(transaction=True)
def test_a_whole_match_scored_on_two_phones(browser, live_server, shot, settings) -> None:
    settings.SCORER_LOCAL_ENGINE = False  # the server-driven mode (the local engine's fallback)
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    s = make_fixture(advanced_rules=["A1", "A11"], skills=1)
    for user in (s.home_user, s.away_user):
        user.set_password(PASSWORD)
        user.save()
    fixture = s.fixture
    match_url = f"{live_server.url}/c/{fixture.competition.slug}/matches/{fixture.id}/"
    home_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    away_ctx = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    violations: list[str] = []
    _watch_csp(home_ctx, violations)
    _watch_csp(away_ctx, violations)
    try:
        home = _login(home_ctx, live_server, s.home_user)
        home.goto(match_url)
        home.get_by_test_id("score-live").click()
        home.wait_for_url("**/score/*/")
        scorer_url = home.url
        expect(home.get_by_test_id("sc-question")).to_contain_text("Both teams: roll for kick-off")
        # scripted dice taps: the faces the players rolled at the table
        home.locator('[data-die="0"][data-face="5"]').click()
        _phone_shot(home, "scorer-phone-dice")
        home.locator('[data-die="1"][data-face="2"]').click()
        # the roll goes out with its last die: no "enter" tap
        expect(home.get_by_test_id("sc-events")).to_contain_text("rolled for kick-off: 5 and 2")

        # the other club's phone sees the entries (polling, within 2 s)
        away = _login(away_ctx, live_server, s.away_user)
        away.goto(scorer_url)
        expect(away.get_by_test_id("sc-events")).to_contain_text("rolled for kick-off: 5 and 2", timeout=2000)
        assert _taps(home, 25) == "ok"
        expect(away.locator("#scorer")).to_have_attribute("data-seq", str(_seq(home)), timeout=2000)
        _phone_shot(home, "scorer-phone")

        # the away club enters events too
        assert _taps(away, 10) == "ok"
        expect(home.locator("#scorer")).to_have_attribute("data-seq", str(_seq(away)), timeout=2000)

        # the public follows on the match page: the live panel polls the same state
        spectator_ctx = browser.new_context(viewport={"width": 1280, "height": 900})
        _watch_csp(spectator_ctx, violations)
        try:
            spectator = spectator_ctx.new_page()
            response = spectator.goto(match_url)
            assert response is not None and "script-src 'self'" in response.headers["content-security-policy"]
            expect(spectator.get_by_test_id("live-panel")).to_be_visible()
            expect(spectator.get_by_test_id("live-panel")).to_have_attribute(
                "data-seq", str(_seq(home)), timeout=3000
            )
            latest = home.get_by_test_id("sc-events").locator("li").first.inner_text()
            expect(spectator.get_by_test_id("live-events").locator("li").first).to_have_text(latest)
            assert (
                spectator.get_by_test_id("live-score").inner_text()
                == home.get_by_test_id("sc-score").inner_text()
            )
        finally:
            spectator_ctx.close()

        # undo asks why beside the button after the tap; the reason is shown on both phones until
        # the next event
        before = _seq(home)
        home.get_by_test_id("sc-undo").click()
        home.get_by_test_id("sc-undo-reason").fill("wrong die")
        home.get_by_test_id("sc-undo").click()
        expect(home.locator("#scorer")).to_have_attribute("data-seq", str(before - 1))
        expect(home.get_by_test_id("sc-last-undo")).to_contain_text("wrong die")
        expect(away.get_by_test_id("sc-last-undo")).to_contain_text("wrong die", timeout=2000)
        assert _taps(home, 1) == "ok"
        expect(home.get_by_test_id("sc-last-undo")).to_be_hidden()

        # a reload in the middle resumes where the match is
        assert _taps(home, 20) == "ok"
        at = _seq(home)
        home.reload()
        expect(home.locator("#scorer")).to_have_attribute("data-seq", str(at))

        # the connection drops: taps queue on the phone and go out in order when it is back
        assert _taps(home, 200, stop_at_roll=True) == "roll"
        at = _seq(home)
        home_ctx.set_offline(True)
        home.locator('[data-die="0"][data-face="3"]').click()
        if home.locator('[data-die="1"]').count():
            home.locator('[data-die="1"][data-face="4"]').click()
        expect(home.get_by_test_id("sc-net")).to_contain_text("Offline · 1 tap waiting")
        _phone_shot(home, "scorer-phone-offline")
        home_ctx.set_offline(False)
        expect(home.locator("#scorer")).to_have_attribute("data-seq", str(at + 1), timeout=10000)
        expect(home.get_by_test_id("sc-net")).to_contain_text("Saved")

        # on to the final whistle
        result = _taps(home, 2000)
        assert result == "status:full_time", result
        expect(home.get_by_test_id("sc-final")).to_be_visible()
        _phone_shot(home, "scorer-phone-full-time")
        home.get_by_test_id("sc-confirm").click()
        expect(home.get_by_test_id("sc-final-text")).to_contain_text(
            f"Confirmed by: {fixture.home_team.name}"
        )
        expect(away.get_by_test_id("sc-final")).to_be_visible(timeout=3000)
        away.get_by_test_id("sc-confirm").click()
        expect(away.get_by_test_id("sc-final-text")).to_contain_text("Both clubs confirmed", timeout=10000)

        desktop = browser.new_context(viewport={"width": 1280, "height": 900})
        _watch_csp(desktop, violations)
        try:
            watcher = desktop.new_page()
            watcher.goto(scorer_url)
            expect(watcher.get_by_test_id("sc-final")).to_be_visible()
            shot(watcher, "scorer-desktop-final")
        finally:
            desktop.close()
    finally:
        home_ctx.close()
        away_ctx.close()
    assert violations == [], "\n".join(violations)

    session = ScoringSession.objects.get(fixture=fixture)
    assert session.status == ScoringSession.Status.SUBMITTED
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.CONFIRMED
    log = MatchLog.objects.get(fixture=fixture).data
    report = validate_log(log)
    assert report.valid, report.errors[:3]
    assert [fixture.result.home_goals, fixture.result.away_goals] == [
        report.result.to_dict()["score"]["home"],
        report.result.to_dict()["score"]["away"],
    ]
    assert ResultAudit.objects.filter(fixture=fixture, action=ResultAudit.Action.CONFIRM).exists()
    standings_cache.invalidate(fixture.competition_id)
    rows = {row.team: row for t in presentation.competition_tables(fixture.competition) for row in t.rows}
    assert rows[fixture.home_team.name].row.played == 1 and rows[fixture.away_team.name].row.played == 1

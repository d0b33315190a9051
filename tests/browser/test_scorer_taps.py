"""What scoring a match costs on the page (issue "a whole match in 10 taps a turn"): a scripted
player that chooses like the heuristic coach plays through the scorer at 390×844 and counts taps,
the text read per question and whether each question fits the screen with the pitch in view.

The default run plays the first turns (the fit, at most 8 text options, no area code, a wrong tap
explained); the whole matches, with app dice and with typed dice, run under the slow marker and
write var/bench/scorer_taps.json, which `make bench` prints (bench/bench_scorer_taps.py)."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from scoring.models import ScoringSession
from tests.browser.conftest import SCREENSHOTS
from tests.browser.scorer_player import Player, open_scorer

AREA_CODE = re.compile(r"\b(?:[HA]-(?:PEN|LC|RC|FRONT|LM|RM|LCK|RCK)|CENTRE)\b")
RESULTS = SCREENSHOTS.parent / "bench" / "scorer_taps.json"
# taps a turn and taps a match, by who rolls the dice (the targets, as in the bench)
TAP_TARGETS = {"app": (10.0, 400), "typed": (14.0, 550)}

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_the_first_turns_fit_the_phone_and_read_at_a_glance(browser, live_server, settings) -> None:
    # The scripted player follows the match as the server stores it, so the page runs in the
    # server-driven mode here (the phone's own engine is tested in test_offline_scorer_in_browser).
    settings.SCORER_LOCAL_ENGINE = False
    context, page, session = open_scorer(browser, live_server, settings)
    try:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        player = Player(page, session.id, app_dice=True, shots=SCREENSHOTS)
        tally = player.play(turns=3)
        summary = tally.summary()
        assert summary["questions"] >= 10, summary
        # Every question fits with the pitch in view, the set-up editor's too.
        assert not tally.misfits, tally.misfits
        assert summary["max_text_options"] <= 8, summary
        assert summary["median_chars"] <= 80, summary
        for text in tally.texts:
            assert not AREA_CODE.search(text), text

        # a tap on an area that answers nothing says why, in words (at the next move question)
        wrong = None
        for _ in range(80):
            wrong = page.evaluate(
                "() => { const r = document.getElementById('scorer');"
                " if (r.dataset.queue !== '0') return null;"
                " const rects = Array.from(r.querySelectorAll('rect[data-area]'));"
                " const pick = (e) => e.classList.contains('area--pick');"
                " if (!rects.some(pick)) return null;"
                " const a = rects.find((e) => !pick(e)); return a && a.dataset.area; }"
            )
            if wrong or not player.step():
                break
        assert wrong, "no question with an area that is not an answer"
        box = page.locator(f'[data-area="{wrong}"]').bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        error = page.get_by_test_id("sc-error")
        expect(error).to_be_visible()
        assert not AREA_CODE.search(error.inner_text()), error.inner_text()
        page.screenshot(path=str(SCREENSHOTS / "scorer-phone-wrong-tap.png"))

        body = page.locator("#scorer").inner_text()
        assert not AREA_CODE.search(body), AREA_CODE.search(body)

        # the same question at desktop size (the pitch beside the question and its answers)
        page.set_viewport_size({"width": 1366, "height": 900})
        page.screenshot(path=str(SCREENSHOTS / "scorer-desktop-question.png"))
        assert not AREA_CODE.search(page.locator("#scorer").inner_text())
    finally:
        context.close()


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("dice", ["app", "typed"])
def test_a_whole_match_costs_few_taps(browser, live_server, settings, dice) -> None:
    # The scripted player follows the match as the server stores it, so the page runs in the
    # server-driven mode here (the phone's own engine is tested in test_offline_scorer_in_browser).
    settings.SCORER_LOCAL_ENGINE = False
    context, page, session = open_scorer(browser, live_server, settings)
    try:
        tally = Player(page, session.id, app_dice=dice == "app").play()
    except Exception:
        page.screenshot(path=str(SCREENSHOTS / f"scorer-taps-{dice}-stuck.png"))
        raise
    finally:
        context.close()
    summary = tally.summary()
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    results = json.loads(RESULTS.read_text()) if RESULTS.exists() else {}
    results[dice] = summary
    RESULTS.write_text(json.dumps(results, indent=2))
    # The targets `make bench` prints (bench/bench_scorer_taps.py TARGETS) are held here too.
    assert ScoringSession.objects.get(id=session.id).status == ScoringSession.Status.FULL_TIME
    assert summary["median_chars"] <= 80 and summary["max_text_options"] <= 8, summary
    per_turn, per_match = TAP_TARGETS[dice]
    assert summary["taps_per_turn"] <= per_turn and summary["taps"] <= per_match, summary

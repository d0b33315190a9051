"""The scorer played the way its record broke (issue 31, item 9): through the real page in
Chromium, every shortcut taken as soon as it is offered (an answer with its roll's first die, the
usual answer with the next decision's chip, the page's own answers), no wait for the server
between taps, random offline windows and reloads (tests/browser/chaos_player.py).

Checked: a lone phone's taps are all stored, in order, as the phone holds them (no 409, no 422,
no side branch, nothing undone); the server and the phone hold the same events at the end; the
result is confirmed; no answer to anyone carries anything that determines a roll. Two phones
taking turns online conflict only where both really recorded the same stretch. The default run
is one seeded end of a match (from 84'); whole matches run under ``slow`` and in
bench/bench_scorer_chaos.py."""

from __future__ import annotations

import json
import os
import random
import time

import pytest

from scoring.models import ScoringEvent, ScoringSession, ScoringSideBranch
from tests.browser.chaos_player import Outcome, Plan, run, said_taps
from tests.browser.conftest import SCREENSHOTS

pytestmark = pytest.mark.browser


def _lone_phone_holds(outcome, session_id: int) -> None:
    assert outcome.status == ScoringSession.Status.SUBMITTED, outcome
    assert outcome.refusals_409 == 0 and outcome.refusals_422 == 0, outcome
    assert outcome.side_branches == 0, outcome
    assert outcome.same_events, outcome
    assert outcome.seeds == [], outcome
    assert not ScoringEvent.objects.filter(session_id=session_id, undone_at__isnull=False).exists()


def _two_phones_hold(outcome: Outcome, session_id: int) -> None:
    """A 409 and a side branch only where the other phone really recorded the same stretch, one
    each, the branch holding the second phone's events not used and its line saying its taps."""
    assert outcome.status == ScoringSession.Status.SUBMITTED, outcome
    assert outcome.refusals_422 == 0 and outcome.same_events and outcome.seeds == [], outcome
    real = [c for c in outcome.conflicts if c["conflict"]]
    assert outcome.refusals_409 == len(real) and outcome.side_branches == len(real), outcome
    branches = list(ScoringSideBranch.objects.filter(session_id=session_id).order_by("id"))
    for c, branch in zip(real, branches, strict=True):
        assert [e["client_id"] for e in branch.events] == c["client_ids"], (c, branch.events)
        assert branch.from_seq == c["from_seq"] and branch.side == "away", c
        assert said_taps(c["said"]) == (c["taps"], c["minute"]) and c["taps"] >= 1, c


@pytest.mark.django_db(transaction=True)
def test_two_phones_offline_over_the_same_stretch_make_one_side_branch_said_right(
    browser, live_server, settings
) -> None:
    outcome, session_id = run(
        browser,
        live_server,
        settings,
        Plan(
            seed=int(os.environ.get("CHAOS_SEED", "32")), phones=2, app_dice=False, from_minute=86,
            offline_share=0.0, reload_share=0.0, same_stretch=6, stretch_at=3,
        ),
    )  # fmt: skip
    assert [c["conflict"] for c in outcome.conflicts] == [True], outcome
    _two_phones_hold(outcome, session_id)


@pytest.mark.django_db(transaction=True)
def test_a_lone_phone_taking_every_shortcut_offline_and_reloaded_loses_nothing(
    browser, live_server, settings
) -> None:
    outcome, session_id = run(
        browser,
        live_server,
        settings,
        Plan(
            seed=int(os.environ.get("CHAOS_SEED", "31")), app_dice=True, offline_share=0.15, reload_share=0.05
        ),
    )
    _lone_phone_holds(outcome, session_id)
    assert outcome.taps >= 5 and outcome.retaps == 0, outcome


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("app_dice", [True, False], ids=["app", "typed"])
def test_a_whole_match_on_a_lone_phone_in_chaos(browser, live_server, settings, app_dice) -> None:
    outcome, session_id = run(
        browser, live_server, settings, Plan(seed=7, app_dice=app_dice, from_minute=0, offline_share=0.05)
    )
    _lone_phone_holds(outcome, session_id)
    assert outcome.retaps == 0, outcome


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_two_phones_taking_turns_online_never_conflict(browser, live_server, settings) -> None:
    outcome, session_id = run(
        browser,
        live_server,
        settings,
        Plan(seed=11, phones=2, from_minute=60, offline_share=0.0, reload_share=0.02),
    )
    _two_phones_hold(outcome, session_id)


# `make bench` (bench/bench_scorer_chaos.py): 20 whole matches, half on two phones taking turns
# and once both offline over the same stretch, half on one phone with long offline stretches;
# each run adds its row to the bench's file. A shorter configuration for a quick look:
# CHAOS_MATCHES and CHAOS_FROM_MINUTE.
BENCH = SCREENSHOTS.parent / "bench" / "scorer_chaos.json"
MATCHES = int(os.environ.get("CHAOS_MATCHES", "20"))
FROM_MINUTE = int(os.environ.get("CHAOS_FROM_MINUTE", "0"))


def bench_plan(n: int) -> Plan:
    two = n % 2 == 0
    return Plan(
        seed=1000 + n,
        app_dice=n % 4 < 2,
        phones=2 if two else 1,
        from_minute=FROM_MINUTE,
        offline_share=0.0 if two else 0.06,
        reload_share=0.01,
        long_offline=not two,
        max_taps=4000,
        # two phones: both offline over the same stretch once, somewhere in the match
        same_stretch=8 if two else 0,
        stretch_at=random.Random(n).randrange(10, 200),
    )


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("n", range(MATCHES))
def test_chaos_bench_match(browser, live_server, settings, n) -> None:
    plan = bench_plan(n)
    row = {"match": n, "phones": plan.phones, "dice": "app" if plan.app_dice else "typed", "error": ""}
    started = time.monotonic()
    try:
        outcome, session_id = run(browser, live_server, settings, plan)
        row.update(outcome.row())
    except Exception as exc:
        row["error"] = f"{type(exc).__name__}: {str(exc)[:200]}"
        raise
    finally:
        row["seconds"] = round(time.monotonic() - started, 1)
        BENCH.parent.mkdir(parents=True, exist_ok=True)
        rows = json.loads(BENCH.read_text()) if BENCH.exists() else []
        BENCH.write_text(json.dumps([r for r in rows if r["match"] != n] + [row], indent=2))
    if plan.phones == 1:
        _lone_phone_holds(outcome, session_id)
    else:
        _two_phones_hold(outcome, session_id)

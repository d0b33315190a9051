"""The phone's engine (matchplay/scorer_local.py, the scorer's Web Worker) and the server's
(scoring/session_engine.py) judge the same taps the same way, the shortcuts included, because both
call the one apply (matchplay/tap.py).

Issue 31: a lone phone got a 422 from the server for a tap its own engine had accepted ("expected a
'movement' roll by away, got a 'use_cp' decision"). One disagreement behind it: a tap the phone
refused (the page answers a question with one answer once per redraw, and redraws once per event of
the tap before: the usual answer and the next answer, an answer and its roll) had taken the
defaults before it (Match.apply) and the phone kept them, while the server drops a refused event's
defaults. The phone then showed a question its engine no longer asked and judged the next taps on a
match the server did not have. A tap is now applied all or none on both sides, the match as before
the tap when refused.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from matchplay import scorer_local
from matchplay.engine_door import Match, new_match
from scoring import session_engine

NAMES = {"home": "Brazil", "away": "Canada"}


def _header(home: str, away: str) -> dict[str, Any]:
    return {
        "advanced_rules": "all",
        "teams": {
            "home": {"name": "Brazil", "formation": home},
            "away": {"name": "Canada", "formation": away},
        },
    }


def _dice(rng: random.Random, roll: dict[str, Any]) -> dict[str, Any]:
    return {
        "roll": roll["name"],
        "by": roll["actor"],
        "dice": [rng.randint(1, roll["sides"]) for _ in range(roll["dice"])],
    }


def _decide(p: dict[str, Any], choice: Any) -> dict[str, Any]:
    return {"decide": p["name"], "by": p["actor"], "choice": choice}


def _tap(rng: random.Random, p: dict[str, Any], app_dice: bool = False) -> list[dict[str, Any]]:
    """What a thumb taps on the question ``p`` as the page shows it: typed dice or the app's roll,
    the page's own answer, the usual answer with the next answer (``then``), an answer with its
    roll (``rolls``, typed dice only), or one answer."""
    if p["kind"] == "roll":
        return [{"roll_for_me": True}] if app_dice else [_dice(rng, p)]
    if p.get("auto_answer") is not None:
        return [_decide(p, p["auto_answer"])]
    if p.get("then") and rng.random() < 0.6:
        then = p["then"]
        return [_decide(p, p["default"]), _decide(then, rng.choice(then["options"])["value"])]
    if p.get("rolls") and not app_dice and rng.random() < 0.6:
        follow = rng.choice(p["rolls"])
        return [_decide(p, follow["choice"]), _dice(rng, follow["roll"])]
    if p.get("default") is not None and rng.random() < 0.4:
        return [_decide(p, p["default"])]
    return [_decide(p, rng.choice(p["options"])["value"])]


def _phone(tap: list[dict[str, Any]], seed: int = 0) -> dict[str, Any]:
    entries = [e if "roll_for_me" in e else {"client_id": "", "event": e} for e in tap]
    return json.loads(scorer_local.apply(json.dumps({"events": entries, "seed": seed})))


def _same_question(phone: dict[str, Any], server: Match) -> None:
    p = server.pending()
    mine = phone["pending"]
    assert (mine is None) == (p is None)
    if p is not None:
        assert (mine["kind"], mine["name"], mine["actor"], mine["turn"], mine["stage"]) == (
            p.kind,
            p.name,
            p.actor,
            p.turn,
            p.stage,
        )


def _play(seed: int, header: dict[str, Any], events: int, *, app_dice: bool) -> dict[str, int]:
    rng = random.Random(seed)
    page = json.loads(scorer_local.open_match(json.dumps({"header": header, "names": NAMES, "events": []})))[
        "view"
    ]
    server = new_match(dict(header))
    seen = {"taps": 0, "shortcuts": 0, "repeats": 0, "refused": 0}
    redraws = 1
    while page["pending"] is not None and len(server.events) < events:
        scorer_local.prepare()  # the copies the phone makes while the scorer reads the question
        p = page["pending"]
        tap = _tap(rng, p, app_dice)
        taps = [tap]
        if (p["kind"] == "decision" and p.get("auto_answer") is not None) or (
            p["kind"] == "roll" and app_dice
        ):
            # the page answers it (rolls the app's dice) once per redraw, and it redraws once per
            # event of the last tap
            taps = [tap] * redraws
        redraws = 0
        for n, tap in enumerate(taps):
            seen["taps"] += 1
            seen["shortcuts"] += len(tap) > 1
            seen["repeats"] += n > 0
            phone = _phone(tap, rng.getrandbits(32))
            if not phone["ok"]:
                seen["refused"] += 1
                # a repeated roll says what the match waits for, never "There is no roll to make now."
                assert "no roll to make" not in phone["error"]["message"]
                assert phone["error"]["turn"] is not None and phone["error"]["reason"]
                # refused whole, the phone's match as before the tap: the question the server asks
                _same_question(json.loads(scorer_local.view())["view"], server)
                continue
            page = phone["view"]  # the page draws the question the tap leads to
            redraws += len(phone["stored"])
            stored = session_engine.apply_tap(server, phone["stored"])
            assert [s["event"] for s in stored] == [s["event"] for s in phone["stored"]]
            _same_question(page, server)
        redraws = max(redraws, 1)
    assert json.loads(scorer_local.log())["events"] == [e for e in server.to_log(compact=False)["events"]]
    return seen


@pytest.mark.parametrize(
    ("seed", "home", "away", "app_dice"), [(4, "4-4-2", "3-5-2", True), (9, "4-3-3", "5-3-2", False)]
)
def test_phone_and_server_judge_every_tap_alike_shortcuts_and_repeats_included(
    seed: int, home: str, away: str, app_dice: bool
) -> None:
    seen = _play(seed, _header(home, away), events=260, app_dice=app_dice)
    # the run took the shortcuts; with app dice it met the page's repeated rolls, which the phone refused
    assert seen["shortcuts"] >= 10, seen
    assert not app_dice or (seen["repeats"] >= 3 and seen["refused"] >= 3), seen


def test_a_tap_is_refused_whole_with_the_same_error_on_phone_and_server() -> None:
    header = _header("4-4-2", "4-4-2")
    rng = random.Random(3)
    scorer_local.open_match(json.dumps({"header": header, "names": NAMES, "events": []}))
    server = new_match(dict(header))
    # play on to a question whose answer the engine follows at once by a roll
    while True:
        view = json.loads(scorer_local.view())["view"]
        p = view["pending"]
        if p["kind"] == "decision" and p.get("rolls"):
            break
        tap = _tap(rng, p)
        phone = _phone(tap)
        assert phone["ok"], phone
        session_engine.apply_tap(server, phone["stored"])
    follow = p["rolls"][0]
    roll = follow["roll"]
    tap = [
        _decide(p, follow["choice"]),
        {"roll": roll["name"], "by": roll["actor"], "dice": [7] * roll["dice"]},
    ]
    refused = _phone(tap)
    assert refused["ok"] is False
    assert refused["error"]["index"] == 1 and refused["error"]["code"] == "illegal_event"
    assert refused["error"]["rule"] and refused["error"]["turn"] == p["turn"]
    # nothing of the tap was applied: not even its first, legal answer
    assert json.loads(scorer_local.view())["view"] == view
    before = len(server.events)
    with pytest.raises(session_engine.IllegalEvent) as server_refusal:
        session_engine.apply_tap(server, [{"client_id": "", "event": e} for e in tap])
    assert server_refusal.value.details == {
        k: v for k, v in refused["error"].items() if k not in ("code", "message")
    }
    assert server_refusal.value.message == refused["error"]["message"]
    assert (
        len(server.events) > before
    )  # the server's copy moved on, so the server drops it (scoring.selectors)

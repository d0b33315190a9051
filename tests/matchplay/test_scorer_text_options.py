"""No question of the scorer shows more than 8 text options (issue 20): moves, places and set-ups
are made on the pitch, the rest are chips and the dock's usual answer. The A3 `substitution`
(up to 12 options in FUBA 3: three fresh-player lines, three booked-player lines, six formation
changes; 11 in FUBA 2 with "done") is shown in two steps, its kinds then the tapped kind's options
(matchplay.scorer_view groups them, static/scoring/js/groups.js follows), with the engine's values.

Checked over simulated matches with every advanced rule on, as the page would show each question:
`shown` reads the narrated question the way answer.js (choices, addThen) and groups.js (chipRow)
do."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from matchplay.scorer_view import MAX_TEXT_OPTIONS, narrated_pending, pending_dict, state
from rules_engine.api import Decision, Event, Match, SimulationOptions, TeamSetup, play_match

NAMES = {"home": "Brazil", "away": "Argentina"}
AREA = re.compile(r"^(?:[HA]-[A-Z]+|CENTRE)$")
MOVE = re.compile(r"^[A-Z]+(?:-[A-Z]+)?>[A-Z]+(?:-[A-Z]+)?(?:\+ball)?$")
FORMATION = re.compile(r"^\d-\d-\d$")
KINDS = ("fresh player", "replace a booked player", "formation")


def _on_pitch(value: Any, board: dict[str, Any] | None) -> bool:
    if not isinstance(value, str):
        return False
    if board is not None:
        return value in (board.get("areas") or ()) or bool(MOVE.match(value))
    return bool(AREA.match(value) or MOVE.match(value))


def shown(p: dict[str, Any]) -> list[list[str]]:
    """The screens of text options the page shows for the narrated question ``p``: the first one,
    then one per kind of answer (the kind's chip, pressed, and its options)."""
    board = p.get("board")
    options = p.get("options") or []
    if (board or {}).get("kind") == "setup" or any(isinstance(o["value"], dict) for o in options):
        return [[]]  # the set-up editor (tests/browser/test_scorer_setup_editor.py)
    default = p.get("default")
    chips = [
        o
        for o in options
        if not (default is not None and o["value"] == default) and not _on_pitch(o["value"], board)
    ]
    dock = [str(p["default_label"])] if default is not None else []
    then = p.get("then")
    later: list[str] = []
    if then and dock and not then.get("board") and len(then.get("options") or []) + len(chips) <= 7:
        later = [o["label"] for o in then["options"]]
    # groups.js: a kind's chip where its first option stands, the other options as they come
    first = list(dict.fromkeys(o.get("group") or o["label"] for o in chips)) + later + dock
    kinds = list(dict.fromkeys(o["group"] for o in chips if o.get("group")))
    return [first] + [[k, *(o["short"] for o in chips if o.get("group") == k), *later, *dock] for k in kinds]


def _play(ruleset: str, coach: str, seed: int, seen: Counter[str], subs: list[dict[str, Any]]) -> None:
    def look(m: Match, ev: Event) -> None:
        if not isinstance(ev, Decision):
            return
        st = state(m)
        formations = {side: str(st["teams"][side]["formation"]) for side in ("home", "away")}
        p = narrated_pending(pending_dict(m), NAMES, formations)
        assert p is not None
        screens = shown(p)
        widest = max(len(s) for s in screens)
        assert widest <= MAX_TEXT_OPTIONS, (ruleset, p["name"], screens)
        seen[p["name"]] = max(seen[p["name"]], widest)
        if p["name"] == "substitution" and len(p["options"]) > MAX_TEXT_OPTIONS:
            subs.append({"pending": p, "engine": list(m.pending().options), "screens": screens})  # type: ignore[union-attr]

    skills = () if ruleset == "fuba-2" else ("runner", "tackler")
    play_match(
        TeamSetup("Brazil", "4-4-2", skills=skills),
        TeamSetup("Argentina", "3-5-2", skills=skills),
        SimulationOptions(advanced_rules="all", home_coach=coach, away_coach=coach, ruleset=ruleset),
        seed=seed,
        observer=look,
    )


def test_no_question_shows_more_than_eight_text_options_with_every_advanced_rule() -> None:
    seen: Counter[str] = Counter()
    subs: list[dict[str, Any]] = []
    runs = (("fuba-3", "heuristic", 0), ("fuba-3", "random", 1), ("fuba-2", "random", 0))
    for ruleset, coach, seed in runs:
        _play(ruleset, coach, seed, seen, subs)
    # the long questions were met: the substitution (grouped), the half-time formations, the actions
    assert {"substitution", "half_time_formation", "action", "substitutions"} <= set(seen), seen
    assert subs, "no substitution question of more than 8 options was asked"
    assert any(len(s["engine"]) == 12 for s in subs), [len(s["engine"]) for s in subs]
    for sub in subs:
        p, screens = sub["pending"], sub["screens"]
        # Every answer of the engine is still offered, with its own value (the log is unchanged):
        # on the first screen or in exactly one kind.
        values = [o["value"] for o in p["options"]]
        assert values == sub["engine"]
        kinds = [o.get("group") for o in p["options"]]
        assert set(filter(None, kinds)) <= set(KINDS), kinds
        # the kinds in the engine's order, a kind of one option (a booked player replaced in the
        # first half) as that option; FUBA 2's "done" in the dock
        first = [x for x in screens[0] if x != "done"]
        assert first == [k for k in KINDS if k in first], first
        assert {"fresh player", "formation"} <= set(first), first
        for o in p["options"]:
            if o.get("group") == "formation":
                assert FORMATION.match(o["short"]) and o["label"] == f"formation {o['short']}", o
            elif o.get("group") == "fresh player":
                assert o["short"] in ("defence", "midfield", "attack") and o["label"].endswith(o["short"]), o
        alone = [o["label"] for o in p["options"] if not o.get("group") and o["value"] != p.get("default")]
        assert all(label in first for label in alone), (alone, first)


def _prompt(name: str, prompt: str, rule: str) -> dict[str, Any]:
    return {
        "kind": "decision",
        "name": name,
        "actor": "home",
        "turn": 4,
        "stage": 3,
        "rule": rule,
        "prompt": prompt,
        "options": ["yes", "no"],
        "default": "no",
    }


def test_each_advanced_rule_prompt_says_what_it_does_with_its_chapter() -> None:
    cases = [
        (_prompt("use_cp", "use a condition point for one more step?", "A1"), "one step more", "(A1)"),
        (_prompt("use_cp", "use a condition point to use the higher die?", "A1"), "higher die", "(A1)"),
        (_prompt("second_actions", "play second actions?", "4.3.2"), "one more action", "(4.3.2)"),
        (_prompt("play_fiery_coach", "play the coach?", "A11"), "coach is sent off", "(A11)"),
    ]
    for pending, what, chapter in cases:
        hint = narrated_pending(dict(pending), NAMES)["hint"]
        assert what in hint and hint.endswith(chapter) and len(hint) <= 90, hint
    # a question that says what it does by itself gets no hint
    assert narrated_pending(_prompt("target_area", "", "4.1.1"), NAMES)["hint"] is None

"""Typed-dice questions read short (issue 31 item 8: median ≤ 80 characters; a tester read a median
of 93 when the face rows carried long labels). Measured over simulated matches with every advanced
rule on, every roll as the scorer shows it with dice typed at the table: the question line
(panels.js bar: the question, then "rule 4.6" or "advanced rule A1") and the names of its face rows
(answer.js dieName, pinned by tests/js/answer.test.js), which the eye reads with it."""

from __future__ import annotations

import statistics
from typing import Any

from matchplay.scorer_view import narrated_pending, pending_dict
from rules_engine.api import Event, Match, SimulationOptions, TeamSetup, play_match

NAMES = {"home": "Brazil", "away": "Argentina"}


def die_names(p: dict[str, Any]) -> list[str]:
    """answer.js dieName: the teams for a kick-off of both, ball and defence for another roll of
    both, else "Die 1", "Die 2" (one die: "Die")."""
    dice = int(p.get("dice") or 1)
    if p.get("actor") == "both" and dice == 2:
        return [NAMES["home"], NAMES["away"]] if p["name"] == "kick_off" else ["Ball", "Defence"]
    return [f"Die {i + 1}" for i in range(dice)] if dice > 1 else ["Die"]


def shown(p: dict[str, Any]) -> str:
    rule = str(p.get("rule") or "")
    line = p["text"] + (" " + ("advanced rule " if rule.startswith("A") else "rule ") + rule if rule else "")
    return " ".join([line, *die_names(p)])


def _questions(ruleset: str, coach: str, seed: int) -> list[str]:
    seen: list[str] = []

    def look(m: Match, ev: Event) -> None:
        p = narrated_pending(pending_dict(m), NAMES)
        if p is not None and p["kind"] == "roll":
            seen.append(shown(p))

    skills = () if ruleset == "fuba-2" else ("runner", "tackler")
    play_match(
        TeamSetup("Brazil", "4-4-2", skills=skills),
        TeamSetup("Argentina", "3-5-2", skills=skills),
        SimulationOptions(advanced_rules="all", home_coach=coach, away_coach=coach, ruleset=ruleset),
        seed=seed,
        observer=look,
    )
    return seen


def test_typed_dice_questions_read_a_median_of_at_most_80_characters() -> None:
    questions = _questions("fuba-3", "random", 0) + _questions("fuba-2", "random", 0)
    assert len(questions) > 100, len(questions)
    # the rolls of both teams and of the advanced rules were met, the longest lines
    assert any(q.startswith("Both teams: roll for kick-off") for q in questions)
    assert any("advanced rule A" in q for q in questions)
    lengths = [len(q) for q in questions]
    assert statistics.median(lengths) <= 80, sorted(set(questions), key=len)[-5:]
    # none runs past two lines of a 390 px phone (about 45 characters a line)
    assert max(lengths) <= 90, max(questions, key=len)

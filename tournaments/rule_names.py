"""Rulebook 3's advanced rules by name, with their chapter, for every organiser-facing place."""

from __future__ import annotations

from typing import Final

# Chapter titles of FUBA rulebook 3. A12 is referred to in the text but has no chapter of its own;
# docs/rules-interpretations.md reads the references as A13 (special events).
ADVANCED_RULE_NAMES: Final = {
    "A1": "Team condition and tiredness",
    "A2": "Advanced formations: player roles",
    "A3": "Player substitutions",
    "A4": "Injuries",
    "A5": "Goalkeeper charge",
    "A6": "Aggressive pressing",
    "A7": "Advanced offside: offside risk",
    "A8": "Slowing down game play",
    "A9": "Weather",
    "A10": "V.A.R.",
    "A11": "Skills",
    "A12": "Special events as referred to under A12 (the chapter is missing; read as A13)",
    "A13": "Special events",
}


def advanced_rule_label(code: str) -> str:
    """ "Aggressive pressing (rulebook 3, chapter A6)"."""
    return f"{ADVANCED_RULE_NAMES.get(code, code)} (rulebook 3, chapter {code})"

"""The advanced rules of each rulebook by name, with their chapter, for every organiser-facing place.

The chapter codes of rulebook 3 and rulebook 2.0 overlap but do not mean the same rules: A5 is the
goalkeeper charge in 3 and the advanced goalkeeper in 2.0, A6 aggressive pressing in 3 and the
playing styles in 2.0; so a label always names its game system's rulebook.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from tournaments.game_systems import FUBA_2, FUBA_3, game_system_rules

# Chapter titles of FUBA rulebook 3. A12 is referred to in the text (4.2.1) but has no chapter of its
# own; docs/rules-interpretations.md (I-12) reads the references as A13, special events.
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
    "A12": "Special events (as rule 4.2.1 refers to them)",
    "A13": "Special events",
}

# Chapter titles of FUBA rulebook 2.0 ("ADVANCED RULES", seeds 000/001).
ADVANCED_RULE_NAMES_2: Final = {
    "A1": "Condition points and tiredness",
    "A2": "Advanced formations: players' roles",
    "A3": "Player substitutions",
    "A4": "Injuries",
    "A5": "Advanced goalkeeper",
    "A6": "Playing styles",
}

_NAMES: Final[Mapping[str, Mapping[str, str]]] = {FUBA_3: ADVANCED_RULE_NAMES, FUBA_2: ADVANCED_RULE_NAMES_2}
_RULEBOOK: Final = {FUBA_3: "rulebook 3", FUBA_2: "rulebook 2.0"}


def advanced_rule_label(code: str, game_system: str = FUBA_3) -> str:
    """ "Aggressive pressing (rulebook 3, chapter A6)", "Playing styles (rulebook 2.0, chapter A6)"."""
    name = _NAMES.get(game_system, {}).get(code, code)
    return f"{name} ({_RULEBOOK.get(game_system, 'rulebook 3')}, chapter {code})"


# Codes the rulebook uses for another chapter's rule: a place that offers rules by name offers the
# chapter itself only (I-12: A12 is A13).
ALIASES: Final = {FUBA_3: {"A12": "A13"}}


def advanced_rule_names(game_system: str) -> list[tuple[str, str]]:
    """The rules to choose from by name, chapter as a hint: ("A6", "Aggressive pressing · chapter A6")."""
    aliases = ALIASES.get(game_system, {})
    names = _NAMES.get(game_system, {})
    return [
        (code, f"{names.get(code, code)} · chapter {code}")
        for code in game_system_rules(game_system).advanced_rules
        if code not in aliases
    ]


def advanced_rule_choices(game_system: str) -> list[tuple[str, str]]:
    """The advanced rules a competition of this game system may put in force, as form choices."""
    return [
        (code, advanced_rule_label(code, game_system))
        for code in game_system_rules(game_system).advanced_rules
    ]

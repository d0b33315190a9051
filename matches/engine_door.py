"""The one door from the league into the rules engine.

Every Django module that validates, replays or simulates a match imports the
engine from here, and this module imports only ``rules_engine.api`` (an
import-linter contract in ``.importlinter`` keeps it so).  The engine is a
plain library installed with the project: there is no "engine missing" case.
"""

from __future__ import annotations

from typing import Any

from rules_engine.api import (
    AREAS,
    COACH_KINDS,
    PENALTY_SIDES,
    PENALTY_TABLE,
    ROLE_KEYS,
    Decision,
    Dice,
    Event,
    FubaError,
    HeaderError,
    IllegalEventError,
    LastAction,
    Match,
    MatchResult,
    MatchSnapshot,
    Pending,
    PitchInput,
    Roll,
    SetupCheck,
    SimulationError,
    SimulationOptions,
    TeamSetup,
    TeamSnapshot,
    ValidationReport,
    after_default,
    area_name,
    area_place,
    auto_answer,
    board,
    board_areas,
    clock,
    event_from_dict,
    event_to_dict,
    in_words,
    log_of,
    new_match,
    only_answer,
    parse,
    pitch_input,
    play_match,
    setup_check,
    simulate_match,
    skill_weight,
    snapshot,
    towards_goal,
    validate_log,
)

__all__ = [
    "AREAS",
    "COACH_KINDS",
    "PENALTY_SIDES",
    "PENALTY_TABLE",
    "ROLE_KEYS",
    "Decision",
    "Dice",
    "Event",
    "FubaError",
    "HeaderError",
    "IllegalEventError",
    "LastAction",
    "Match",
    "MatchResult",
    "MatchSnapshot",
    "Pending",
    "PitchInput",
    "Roll",
    "SetupCheck",
    "SimulationError",
    "SimulationOptions",
    "TeamSetup",
    "TeamSnapshot",
    "ValidationReport",
    "after_default",
    "area_name",
    "area_place",
    "auto_answer",
    "board",
    "board_areas",
    "clock",
    "error_summary",
    "event_from_dict",
    "event_to_dict",
    "in_words",
    "log_of",
    "new_match",
    "only_answer",
    "parse",
    "pitch_input",
    "play_match",
    "setup_check",
    "simulate_match",
    "skill_weight",
    "snapshot",
    "towards_goal",
    "validate_log",
]


def error_summary(error: FubaError) -> dict[str, Any]:
    """Where and why a log is wrong, as stored with a submission: turn, stage, rule, reason, path."""
    data = error.to_dict()
    return {k: data[k] for k in ("turn", "stage", "rule", "reason", "path")}

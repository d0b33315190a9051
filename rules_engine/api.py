"""Public API of the FUBA rules engine (rulebook 3).  Pure Python, no Django.

Everything outside the engine (the league's Django apps through their single
adapter ``matchplay.engine_door``, the benchmarks, the tests of the public API)
imports from here: validation, replay, simulation, coaches, the result
classes, the errors, event (de)serialisation, the board tables (``board``), the
names of the board's areas (``board_areas``, ``area_name``: the one vocabulary every page
uses) and one snapshot of a match's state for the pages (``snapshot``).

Validate a submitted log::

    from rules_engine.api import validate_log
    report = validate_log(json_text_or_dict)
    report.valid, report.result, report.errors   # errors: turn/stage/rule/reason/path

Drive a match (simulator, web scorer)::

    from rules_engine.api import new_match, Decision, Roll, Dice
    m = new_match({"advanced_rules": "all",
                   "teams": {"home": {"name": "Blue", "formation": "4-4-2"},
                             "away": {"name": "Yellow", "formation": "3-5-2"}}})
    dice = Dice(seed=42)
    while (p := m.pending()) is not None:
        if p.kind == "roll":                      # dice: from an injected RNG ...
            m.apply(dice.roll_for(p))             # ... or Roll(p.name, p.actor, (5, 2))
        else:                                     # a decision: pick one of p.options
            m.apply(Decision(p.name, p.actor, p.options[0]))
    m.result()     # the derived MatchResult (as ValidationReport.result); .to_dict() for JSON
    m.to_log()     # the fuba-log/1 document of everything applied

``Pending`` (returned by ``Match.pending()``; None when the match is over):

    kind     "decision" | "roll"
    name     what is asked, e.g. "target_area", "action", "move", "situation"
    actor    "home" | "away" | "both" (rolls by both teams, e.g. "kick_off")
    turn, stage, rule   where we are and the rulebook-3 chapter asking
    dice, sides         for rolls: how many dice, sides per die (6 except the
                        random skill draws of A13)
    options             for decisions: tuple of every legal choice; for
                        "setup" decisions (open=True) a few legal set-ups,
                        any other legal set-up is accepted as well
    default             "done" (optional move sequences) / "no" (yes/no
                        questions, skill offers) / None; a log may leave a
                        decision with a default out (Match.apply takes it when
                        the next event answers something else)
    describe()          JSON-friendly dict of the above

For pages (the scorer, the live panel, the replay): ``snapshot(m)`` is the state as they draw
it (a frozen :class:`MatchSnapshot`, ``to_dict()`` for JSON), ``board_areas(home, away)`` and
``area_name`` the one vocabulary of the areas, ``pitch_input(m)`` what a tap on the pitch may
answer to the pending decision (with reasons for the other areas), ``setup_check(m, choice)``
every problem of a proposed set-up, ``auto_answer(p)`` the answer a page may post itself,
``after_default(m)`` / ``rolls_after(m)`` what the engine asks right after an answer (one tap for both;
:class:`Copies` of the match made ahead make those forks cheap),
``extra_time_answers(m, tie)`` / ``verify_extra_time(m, tie, event)`` the answers a knockout
:class:`Tie` leaves at the extra-time question (I-38).

``Match.apply(event)`` applies a :class:`Decision` or :class:`Roll` or raises
:class:`IllegalEventError` (subclass of :class:`FubaError`; attributes
``turn``, ``stage``, ``rule``, ``reason``, ``message``) and leaves the state
unchanged.  See docs/turn-log-format.md for every decision name and choice.
"""

from __future__ import annotations

from typing import Any

from . import board, decisions
from .areas import AREAS, Area, area_name, area_place, board_areas, in_words, towards_goal
from .autoplay import example_log, play_random
from .coaches import Coach, HeuristicCoach, RandomCoach, make_coach
from .errors import (
    AnnotationMismatchError,
    FubaError,
    HeaderError,
    IllegalEventError,
    IncompleteLogError,
    MalformedLogError,
    MatchOverError,
    SimulationError,
    SimulationLimitError,
    UnexpectedEventError,
)
from .events import Decision, Event, Pending, Roll
from .logformat import ROLE_KEYS, event_to_dict, header_from_dict, parse, parse_event
from .lookahead import Copies, after_default, rolls_after
from .machine import Match
from .pitch_input import PitchInput, SetupCheck, auto_answer, only_answer, pitch_input, setup_check
from .result import GoalScored, MatchResult, TeamResult
from .rng import Dice, app_roll
from .rules import PENALTY_SIDES, PENALTY_TABLE
from .simulate import (
    COACH_KINDS,
    SimulationOptions,
    SimulationStats,
    TeamSetup,
    log_of,
    play_match,
    play_with_stats,
    simulate_match,
    versus_random,
)
from .skills import SKILL_NAMES, skill_weight
from .snapshot import Injury, LastAction, MatchSnapshot, TeamSnapshot, clock, snapshot
from .state import Header
from .tie import Tie, extra_time_answers, tie_from_dict, tie_level, verify_extra_time
from .validator import ValidationReport, validate_log

__all__ = [
    "AREAS",
    "COACH_KINDS",
    "PENALTY_SIDES",
    "PENALTY_TABLE",
    "ROLE_KEYS",
    "SKILL_NAMES",
    "AnnotationMismatchError",
    "Area",
    "Coach",
    "Copies",
    "Decision",
    "Dice",
    "Event",
    "FubaError",
    "GoalScored",
    "Header",
    "HeaderError",
    "HeuristicCoach",
    "IllegalEventError",
    "IncompleteLogError",
    "Injury",
    "LastAction",
    "MalformedLogError",
    "Match",
    "MatchOverError",
    "MatchResult",
    "MatchSnapshot",
    "Pending",
    "PitchInput",
    "RandomCoach",
    "Roll",
    "SetupCheck",
    "SimulationError",
    "SimulationLimitError",
    "SimulationOptions",
    "SimulationStats",
    "TeamResult",
    "TeamSetup",
    "TeamSnapshot",
    "Tie",
    "UnexpectedEventError",
    "ValidationReport",
    "after_default",
    "app_roll",
    "area_name",
    "area_place",
    "auto_answer",
    "board",
    "board_areas",
    "clock",
    "decisions",
    "event_from_dict",
    "event_to_dict",
    "example_log",
    "extra_time_answers",
    "in_words",
    "log_of",
    "make_coach",
    "new_match",
    "only_answer",
    "parse",
    "pitch_input",
    "play_match",
    "play_random",
    "play_with_stats",
    "rolls_after",
    "setup_check",
    "simulate_match",
    "skill_weight",
    "snapshot",
    "tie_from_dict",
    "tie_level",
    "towards_goal",
    "validate_log",
    "verify_extra_time",
    "versus_random",
]


def new_match(header: dict[str, Any] | Header) -> Match:
    """Start a match.  ``header`` is the header part of a fuba-log/1 document
    (``advanced_rules`` and ``teams``; ``format``/``ruleset`` may be omitted)
    or a :class:`Header`.  Raises :class:`HeaderError` for an illegal header."""
    return Match(header if isinstance(header, Header) else header_from_dict(header))


def event_from_dict(data: dict[str, Any]) -> Event:
    """Build an event from its fuba-log/1 JSON form; raises MalformedLogError."""
    errors: list[FubaError] = []
    ev = parse_event(data, "$", errors)
    if ev is None:
        raise errors[0]
    return ev

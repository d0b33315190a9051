"""Simulated FUBA 2 matches (ruleset ``fuba-2``, rulebook 2.0) validate: the FUBA 2 coaches answer
every question legally and the log they write is accepted by ``validate_log`` with the same
result (issue 24, point 3).  50 matches here (both builds: ``make test`` runs the engine tests on
the compiled and the plain-Python engine), 1,000 in the slow suite."""

from __future__ import annotations

import itertools
import random

import pytest

from rules_engine.api import validate_log
from rules_engine.coaches import Fuba2HeuristicCoach, HeuristicCoach, RandomCoach, make_coach
from rules_engine.simulate import SimulationOptions, TeamSetup, play_match, simulate_match

ALL_2 = ("A1", "A2", "A3", "A4", "A5", "A6")
PAIRS = [
    (TeamSetup("Heidi", "4-4-2"), TeamSetup("Otto", "4-5-1")),
    (
        TeamSetup("Blues", "3-5-2", styles=(("midfield", "aggressive"), ("forward", "easy"))),
        TeamSetup("Yellows", "4-3-3", styles=(("defence", "aggressive"),)),
    ),
    (TeamSetup("Reds", "5-3-2", styles=(("defence", "easy"),)), TeamSetup("Greens", "4-4-2")),
]
# the coaches and the advanced rules of a series: both heuristic, both random, one of each
SETTINGS = [
    SimulationOptions(advanced_rules=ALL_2, ruleset="fuba-2"),
    SimulationOptions(advanced_rules=ALL_2, ruleset="fuba-2", home_coach="random", away_coach="random"),
    SimulationOptions(advanced_rules=(), ruleset="fuba-2", home_coach="heuristic", away_coach="random"),
    SimulationOptions(advanced_rules=("A1", "A3", "A6"), ruleset="fuba-2", home_coach="random"),
]


def _series(n: int, seed0: int) -> list[str]:
    """The problems of ``n`` simulated matches (none when every log validates to its result)."""
    problems = []
    played = 0
    series = itertools.cycle(itertools.product(PAIRS, SETTINGS))
    for i, (pair, options) in zip(range(n), series, strict=False):
        seed = seed0 + i
        match = play_match(pair[0], pair[1], options, seed)
        log = match.to_log()
        assert log["ruleset"] == "fuba-2"
        report = validate_log(log)
        if not report.valid:
            problems.append(f"seed {seed}: {report.errors[0]}")
        elif report.result is None or report.result.score != match.result().score:
            problems.append(f"seed {seed}: the log's result differs from the match's")
        played += 1
    assert played == n
    return problems


def test_50_simulated_fuba_2_matches_validate() -> None:
    assert _series(50, 0) == []


@pytest.mark.slow
def test_1000_simulated_fuba_2_matches_validate() -> None:
    assert _series(1000, 10_000) == []


def test_the_coach_follows_the_ruleset_of_the_header() -> None:
    rng = random.Random(1)
    assert isinstance(make_coach("heuristic", rng, None, "fuba-2"), Fuba2HeuristicCoach)
    assert isinstance(make_coach("heuristic", rng, None, "fuba-3"), HeuristicCoach)
    assert isinstance(make_coach("random", rng, None, "fuba-2"), RandomCoach)


def test_a_simulated_fuba_2_match_is_reproducible_and_carries_the_styles() -> None:
    home, away = PAIRS[1]
    options = SETTINGS[0]
    log = simulate_match(home, away, options, seed=7)
    assert log == simulate_match(home, away, options, seed=7)
    assert log["teams"]["home"]["styles"] == {
        "defence": "normal",
        "midfield": "aggressive",
        "forward": "easy",
    }
    assert "skills" not in log["teams"]["home"]

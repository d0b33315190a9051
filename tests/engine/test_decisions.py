"""Every decision the engine asks for is named in ``rules_engine.decisions``."""

from __future__ import annotations

from typing import Any

from rules_engine import decisions as D
from rules_engine.autoplay import EXAMPLE_HEADER, play_random
from rules_engine.coaches import HeuristicCoach
from rules_engine.events import Decision
from rules_engine.logformat import DEFAULT_CHOICES
from rules_engine.simulate import SimulationOptions, TeamSetup, simulate_match

# A second team sheet whose skills ask what the example's do not: the counter-press and its
# aggressive variant, the coach played on a spent point, the wing backs' ball move; extra time.
SKILLED: dict[str, Any] = {
    "advanced_rules": "all",
    "extra_time": True,
    "teams": {
        side: {
            "name": side,
            "formation": formation,
            "skills": ["gegenpressing", "fiery_coach", "skilled_wing_backs"],
        }
        for side, formation in (("home", "4-4-2"), ("away", "3-5-2"))
    },
}


def test_random_matches_ask_exactly_the_named_decisions() -> None:
    """Every name of ``decisions.ALL`` is asked by some match and nothing else is: a decision
    the engine asks without naming it, or a name no rule asks any more, fails."""
    asked: set[str] = set()
    for seed in range(1, 9):
        for header in (EXAMPLE_HEADER, SKILLED):
            m = play_random(header, seed)
            asked |= {ev.name for ev in m.events if isinstance(ev, Decision)}
    assert asked == D.ALL, {"not named": asked - D.ALL, "never asked": D.ALL - asked}


def test_simulated_match_asks_only_named_decisions() -> None:
    log = simulate_match(
        TeamSetup("Blues", "4-4-2", skills=("runner", "tackler", "great_condition")),
        TeamSetup("Yellows", "3-5-2", skills=("dribbler", "stopper", "midfield_general")),
        SimulationOptions(),
        seed=7,
    )
    asked = {e["decide"] for e in log["events"] if "decide" in e}
    assert asked, "the simulated match asked no decision"
    assert asked <= D.ALL, asked - D.ALL


def test_coach_and_log_format_use_named_decisions() -> None:
    import random

    coach = HeuristicCoach(random.Random(0))
    assert set(coach._dispatch) <= D.ALL
    assert set(DEFAULT_CHOICES) <= D.ALL
    assert D.MULTI_MOVE_DECISIONS < D.MOVE_DECISIONS

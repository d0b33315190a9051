"""Every decision the engine asks for is named in ``rules_engine.decisions``."""

from __future__ import annotations

import pytest

from rules_engine import decisions as D
from rules_engine.autoplay import EXAMPLE_HEADER, play_random
from rules_engine.coaches import HeuristicCoach
from rules_engine.events import Decision
from rules_engine.logformat import DEFAULT_CHOICES
from rules_engine.simulate import SimulationOptions, TeamSetup, simulate_match


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_matches_ask_only_named_decisions(seed: int) -> None:
    m = play_random(EXAMPLE_HEADER, seed)
    asked = {ev.name for ev in m.events if isinstance(ev, Decision)}
    assert asked, "the match asked no decision"
    assert asked <= D.ALL, asked - D.ALL


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

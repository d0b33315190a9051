"""The target areas' scan (``coaches/targets.py``): the areas are scored best bound first, at an
equal bound the higher area first, also when one scan hands on its runner-up."""

from __future__ import annotations

import random

import pytest

import rules_engine
from rules_engine import board as B
from rules_engine import decisions as D
from rules_engine.coaches import HeuristicCoach
from rules_engine.coaches import targets as T
from rules_engine.events import Decision
from rules_engine.logformat import header_from_dict
from rules_engine.machine import Match
from rules_engine.rng import Dice
from rules_engine.simulate import SimulationOptions, TeamSetup, header_for

pytestmark = pytest.mark.skipif(rules_engine.NATIVE, reason="reads the scan through a plain-Python hook")


def test_areas_are_scored_best_bound_first_ties_to_the_higher_area(monkeypatch: pytest.MonkeyPatch) -> None:
    taken: list[str] = []
    insert = T._insert

    def record(scores: list[float], names: list[str], score: float, name: str) -> None:
        taken.append(name)
        insert(scores, names, score, name)

    monkeypatch.setattr(T, "_insert", record)
    home, away = TeamSetup("Blues", "4-4-2"), TeamSetup("Yellows", "3-5-2")
    match = Match(header_from_dict(header_for(home, away, SimulationOptions())))
    dice = Dice("dice:7")
    coaches = (HeuristicCoach(random.Random(7)), HeuristicCoach(random.Random(8)))
    rnd = random.Random(1)
    decisions = several = 0
    while (p := match.pending()) is not None:
        if p.kind == "roll":
            match.apply(dice.roll_for(p))
            continue
        team = 0 if p.actor == "home" else 1
        if p.name == D.TARGET_AREA:
            coach = coaches[team]
            bounds = [0.0] * B.N_AREAS
            reach = T._target_bounds(match.st, team, coach.style, rnd.random, bounds)
            bounds = [round(b, 1) for b in bounds]  # (ties: equal bounds)
            taken.clear()
            T._scored_targets(match.st, team, bounds, reach, 0.5, [])
            keys = [(bounds[B.INDEX[n]], B.INDEX[n]) for n in taken]
            assert keys == sorted(keys, reverse=True), taken
            assert all(reach >> B.INDEX[n] & 1 for n in taken)
            several += len(taken) >= 3
            decisions += 1
        match.apply(Decision(p.name, p.actor, coaches[team].choose(match, p)))
    assert decisions >= 30 and several >= 5, (decisions, several)

"""The set-up adjustment's check (3.3): every candidate move is judged on the team's own field,
moved and put back, so checking leaves the set-up as it was and judges as the listed options do."""

from __future__ import annotations

import random

import pytest

from rules_engine import decisions as D
from rules_engine.coaches import HeuristicCoach
from rules_engine.coaches.tables import MOVE_NAME
from rules_engine.errors import IllegalEventError
from rules_engine.events import Decision
from rules_engine.logformat import header_from_dict
from rules_engine.machine import Match
from rules_engine.rng import Dice
from rules_engine.simulate import SimulationOptions, TeamSetup, header_for

HOME = TeamSetup("Blues", "4-4-2", skills=("runner", "tackler", "great_condition"))
AWAY = TeamSetup("Yellows", "3-5-2", skills=("dribbler", "stopper", "midfield_general"))


@pytest.mark.parametrize("seed", [3, 4])
def test_checking_every_adjustment_leaves_the_set_up_and_agrees_with_the_options(seed: int) -> None:
    match = Match(header_from_dict(header_for(HOME, AWAY, SimulationOptions())))
    dice = Dice(f"dice:{seed}")
    coaches = (HeuristicCoach(random.Random(seed)), HeuristicCoach(random.Random(seed + 1)))
    asked = legal = 0
    while (p := match.pending()) is not None and asked < 12:
        if p.kind == "roll":
            match.apply(dice.roll_for(p))
            continue
        if p.name == D.SETUP_ADJUST:
            check, verify = p.check_fn, p.verify_fn
            assert check is not None and verify is not None
            ts = match.st.teams[0 if p.actor == "home" else 1]
            field, gk = list(ts.field), ts.gk
            opts = set(p.options)
            for move in MOVE_NAME:
                why = check(move)
                assert ts.field == field and ts.gk == gk, move
                assert (why is None) == (move in opts), move
                if why is None:
                    legal += 1
                    verify(move)
                else:
                    with pytest.raises(IllegalEventError):
                        verify(move)
            asked += 1
        match.apply(Decision(p.name, p.actor, coaches[0 if p.actor == "home" else 1].choose(match, p)))
    assert asked >= 6 and legal > asked

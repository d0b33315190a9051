"""The action request's cheap check (4.3, ``Pending.check_fn``): the verdict and reason of its
``verify_fn`` without raising, and the heuristic coach's choice through it the same as among
the listed options."""

from __future__ import annotations

import random

import pytest

from rules_engine import decisions as D
from rules_engine.actions import ACTIONS
from rules_engine.coaches import HeuristicCoach
from rules_engine.errors import IllegalEventError
from rules_engine.events import Decision, Pending
from rules_engine.logformat import header_from_dict
from rules_engine.machine import Match
from rules_engine.rng import Dice
from rules_engine.simulate import SimulationOptions, TeamSetup, header_for

HOME = TeamSetup("Reds", "4-5-1", (("attacking_midfielders", 2),), ("catenaccio", "crossing", "il_mediano"))
AWAY = TeamSetup("Greens", "4-3-3", skills=("gegenpressing", "tackler", "sweeper_keeper"))
# every action, a non-action and a non-string: each is judged by check and verify alike
PROBES = (*ACTIONS, "shoot", 3)


def _listed(p: Pending) -> Pending:
    """The same request without its check: the coach then chooses among the listed options."""
    return Pending(p.kind, p.name, p.actor, p.turn, p.stage, p.rule, p.prompt, options_fn=p.options_fn,
                   verify_fn=p.verify_fn)  # fmt: skip


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_action_check_agrees_with_verify_options_and_the_listed_choice(seed: int) -> None:
    match = Match(header_from_dict(header_for(HOME, AWAY, SimulationOptions())))
    dice = Dice(f"dice:{seed}")
    coaches = (HeuristicCoach(random.Random(seed)), HeuristicCoach(random.Random(seed + 1)))
    asked = refused = 0
    while (p := match.pending()) is not None:
        if p.kind == "roll":
            match.apply(dice.roll_for(p))
            continue
        coach = coaches[0 if p.actor == "home" else 1]
        if p.name == D.ACTION:
            check, verify = p.check_fn, p.verify_fn
            assert check is not None and verify is not None
            opts = p.options
            for c in PROBES:
                why = check(c)
                if why is None:
                    verify(c)
                    assert c in opts
                else:
                    refused += 1
                    with pytest.raises(IllegalEventError) as e:
                        verify(c)
                    assert e.value.reason == why
                    assert c not in opts or len(opts) == 1  # (a forced action is listed unchecked)
            listed = coach.choose(match, _listed(p))
            choice = coach.choose(match, p)
            assert choice == listed
            assert p.vouched is None or p.vouched is choice
            asked += 1
        else:
            choice = coach.choose(match, p)
        match.apply(Decision(p.name, p.actor, choice))
    assert asked > 50 and refused > asked


def test_a_users_illegal_action_is_refused_with_the_rule_and_reason() -> None:
    """A user's answer goes through verify: refused with the chapter and the same reason."""
    match = Match(header_from_dict(header_for(HOME, AWAY, SimulationOptions())))
    dice = Dice("dice:21")
    coaches = (HeuristicCoach(random.Random(1)), HeuristicCoach(random.Random(2)))
    while (p := match.pending()) is not None:
        if p.kind == "roll":
            match.apply(dice.roll_for(p))
            continue
        if p.name == D.ACTION and p.check_fn is not None and p.check_fn("pressing") is not None:
            why = p.check_fn("pressing")
            with pytest.raises(IllegalEventError) as e:
                match.apply(Decision(p.name, p.actor, "pressing"))
            assert e.value.reason == why and e.value.rule in ("4.7", "4.3.2", "5.2.2")
            return
        match.apply(Decision(p.name, p.actor, coaches[0 if p.actor == "home" else 1].choose(match, p)))
    raise AssertionError("no action request refusing a pressing")

"""A team's previous set-up of the same kind is offered again as a preset while it is legal
(3.3, 3.3.1, 5.x): tables set up as they did before, and on the scorer's board editor a preset is
one tap where a set-up made by hand costs a tap per player moved. The editor starts from it
(``pitch_input(m).start``), so a table that sets up as before only confirms."""

from __future__ import annotations

import random
from typing import Any

from rules_engine import decisions as D
from rules_engine.api import Decision, Dice, FubaError, HeuristicCoach, new_match, pitch_input

from .helpers import header


def test_the_previous_set_up_of_a_kind_is_offered_again_while_it_is_legal() -> None:
    offered = 0
    for seed in range(3):
        m = new_match(header(["A1", "A11"]))
        dice = Dice(seed=seed)
        coaches = {s: HeuristicCoach(random.Random(f"{s}:{seed}")) for s in ("home", "away")}
        last: dict[tuple[str, str], Any] = {}
        while (p := m.pending()) is not None:
            if p.kind == "roll":
                m.apply(dice.roll_for(p))
                continue
            choice = coaches[p.actor].choose(m, p)
            if p.name == D.SETUP:
                before = last.get((p.actor, p.rule))
                legal = before is not None and p.verify_fn is not None
                if legal:
                    try:
                        p.verify_fn(before)
                    except FubaError:
                        legal = False
                board = pitch_input(m)
                assert board is not None
                if legal:
                    assert before in p.options, (before, p.options)
                    assert p.options[-1] == before or before in p.options[:-1]
                    assert p.options[board.start] == before  # the editor's starting point
                    offered += 1
                elif before is None:
                    assert board.start == 0  # a first set-up starts from the first preset
                last[(p.actor, p.rule)] = choice
            m.apply(Decision(p.name, p.actor, choice))
    assert offered > 5

"""Random legal play: a seeded driver choosing uniformly among the options of
``pending()`` (used by tests, the benchmark and to produce example logs).
It is not the simulator of issue 4, only the simplest client of the API."""

from __future__ import annotations

from typing import Any

from .events import Decision
from .logformat import header_from_dict
from .machine import Match
from .rng import Dice
from .state import Header


def play_random(header: Header | dict[str, Any], seed: int | str = 0, annotate: bool = False) -> Match:
    """Play a whole match with random legal decisions and seeded dice."""
    h = header_from_dict(header) if isinstance(header, dict) else header
    m = Match(h)
    dice = Dice(seed)
    while True:
        p = m.pending()
        if p is None:
            return m
        if p.kind == "roll":
            ev = dice.roll_for(p)
        else:
            opts = p.options
            if not opts:
                raise RuntimeError(f"no options for {p.describe()}")
            if p.name in ("move", "free_move", "goal_kick_move", "quick_free_kick_move", "setup_adjust"):
                # stop moving now and then so that sequences stay short
                if "done" in opts and dice.random() < 0.35:
                    ev = Decision(p.name, p.actor, "done")
                    m.apply(_annotated(m, ev) if annotate else ev)
                    continue
            ev = Decision(p.name, p.actor, dice.choice(opts))
        if annotate:
            m.apply(ev)
            _annotate_last(m)
        else:
            m.apply(ev)


def _annotated(m: Match, ev: Decision) -> Decision:
    return ev


def _annotate_last(m: Match) -> None:
    """Attach the state after the last event as a written-down check."""
    st = m.st
    from .board import NAMES
    from .events import Roll

    ev = m.events[-1]
    check = {
        "score": st.score(),
        "minute": st.minute_label(),
        "ball": st.value,
        "area": NAMES[st.ball],
        "control": ("home", "away")[st.ct],
        "half": st.half,
    }
    if isinstance(ev, Roll):
        m.events[-1] = Roll(ev.name, ev.by, ev.dice, check)
    else:
        m.events[-1] = Decision(ev.name, ev.by, ev.choice, check)

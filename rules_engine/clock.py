"""The game clock (4.2.1) and slowing down game play (A8)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from . import decisions as D
from .cards import give_yellow
from .context import MatchContext
from .events import Event, Pending, answer_choice, answer_dice

Flow = Generator[Pending, Event, Any]


def advance_clock(m: MatchContext, minutes: int) -> int:
    """Move the time marker outside stoppage time; returns squares moved.
    Reaching the first stoppage square stops the marker there (4.2.1.2); in
    extra time, reaching minute 15 of the half ends it with the turn (I-38)."""
    st = m.st
    if st.stoppage:
        return 0
    before = st.clock
    st.clock += minutes
    if st.half > 2 and st.clock >= st.half_length:
        # I-38: no stoppage time in extra time; the half ends with the turn that reaches 15
        st.clock = st.half_length
        st.half_over_at_turn_end = True
        return st.half_length - before
    if st.clock > st.half_length:
        st.clock = st.half_length
        st.stoppage = 1
        return st.half_length + 1 - before
    return minutes


def restart_time(m: MatchContext, rule: str = "4.2.1.1") -> Flow:
    """+1 minute at the beginning of a goal kick, free kick, corner or penalty
    (4.2.1.1) and the option to slow the game down (A8)."""
    st = m.st
    if st.stoppage:
        return  # "This rule has no affect during stoppage time"
    advance_clock(m, 1)
    if st.uses("A8") and not st.stoppage:
        team = st.ct
        c = answer_choice((yield m.ask_yes_no(D.SLOW_PLAY, team, "A8", "slow down the restart?")))
        if c == "yes":
            advance_clock(m, 1)
            d = answer_dice((yield m.roll("slow_play", team, 2, "A8", "delaying the restart: two dice x10")))
            if (d[0] + d[1]) * 10 < st.minute():
                yield from give_yellow(
                    m, team, "deliberately delaying the restart (A8)", red_test_always=True
                )

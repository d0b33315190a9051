"""Weather (A9): the first-half weather by the kick-off double, and its change at half time."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from .context import MatchContext
from .events import Event, Pending, answer_dice

Flow = Generator[Pending, Event, Any]


WEATHER_BY_DOUBLE: Final = {1: "heat", 2: "sunshine", 3: "sunshine", 4: "windy", 5: "rain", 6: "cold"}


def second_half_weather(m: MatchContext) -> Flow:
    """A9: heat, wind and rain may end or get worse at the start of the 2nd half."""
    st = m.st
    if st.weather not in ("heat", "windy", "rain"):
        if st.weather == "sunshine":
            st.weather = ""  # sunshine affects the first half only
        return
    d = answer_dice((yield m.roll("weather_change", st.ct, 1, "A9", "weather change")))[0]
    if d == 1:
        m.note("weather", weather="none", was=st.weather)
        st.weather = ""
    elif d == 6:
        st.weather = {"heat": "extreme_heat", "windy": "storm", "rain": "storm"}[st.weather]
        m.note("weather", weather=st.weather)

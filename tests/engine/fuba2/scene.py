"""Scenario helpers for FUBA 2 flow tests: start a match, put the ball and the pieces where a
rulebook 2.0 example has them (``m.extra`` is the flow's ``fuba2.turnstate.F2``)."""

from __future__ import annotations

from typing import Any

from rules_engine import board as B
from rules_engine.api import Decision, Match, new_match
from tests.engine.helpers import dec, pend, roll


def header2(adv: Any = (), home: str = "4-4-2", away: str = "4-4-2", **teams: Any) -> dict[str, Any]:
    h: dict[str, Any] = {"name": "Heidi", "formation": home, **teams.get("home_extra", {})}
    a: dict[str, Any] = {"name": "Otto", "formation": away, **teams.get("away_extra", {})}
    return {
        "ruleset": "fuba-2",
        "advanced_rules": adv if isinstance(adv, str) else list(adv),
        "teams": {"home": h, "away": a},
    }


def start2(hdr: dict[str, Any] | None = None, ct: str = "home") -> Match:
    """A match at the first target-area decision of turn 1 (``ct`` kicked off)."""
    m = new_match(hdr or header2())
    roll(m, "kick_off", 6, 1)
    dec(m, "kick_off_team", ct)
    for _ in range(2):
        p = m.pending()
        assert p is not None and p.name == "setup"
        m.apply(Decision("setup", p.actor, p.options[0]))
    dec(m, "setup_adjust", "done")
    assert pend(m) == ("decision", "target_area", ct), m.pending()
    return m


def scene(
    m: Match,
    ball: str,
    value: int,
    restart: str = "",
    last_first: str | None = None,
    last_moved: tuple[int, int] = (0, 0),
) -> None:
    """At a target-area decision: the ball in `ball` (the start area) with `value`; the turn
    started with `restart` ("" an ordinary turn); who acted first and moved how many last turn."""
    st = m.st
    g = m.extra
    st.ball = B.INDEX[ball]
    st.value = value
    g.turn.start = st.ball
    g.turn.target = st.ball
    g.turn.restart = restart
    g.turn.ct_at_start = st.ct
    g.last_first = -1 if last_first is None else B.TEAM_NAMES.index(last_first)
    g.last_moved = last_moved

"""Condition points and tiredness (A1)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from . import board as B
from . import decisions as D
from .context import MatchContext
from .events import Event, Pending, answer_choice, answer_dice
from .state import TeamState

Flow = Generator[Pending, Event, Any]


def add_cp(ts: TeamState, zone: int, n: int = 1) -> int:
    """Add up to n points to a zone: at most six per zone, ten in total (A3)."""
    added = 0
    for _ in range(n):
        if ts.cp[zone] < 6 and ts.cp_total() < 10:
            ts.cp[zone] += 1
            added += 1
    return added


def cp_plan(ts: TeamState, zone: int, amount: int = 1) -> list[tuple[int, int]] | None:
    """Where the points come from: the ball zone, else two per point from an
    adjacent zone (A1 "Using a condition point", I-15)."""
    if ts.cp[zone] >= amount:
        return [(zone, amount)]
    if ts.cp[zone] == 0 or amount == 1:
        adj = [z for z in (zone - 1, zone + 1) if 0 <= z <= 2 and ts.cp[z] >= 2 * amount]
        if adj:
            adj.sort(key=lambda z: (-ts.cp[z], z))
            return [(adj[0], 2 * amount)]
    return None


def can_spend(m: MatchContext, team: int, amount: int = 1) -> bool:
    st = m.st
    if not st.uses("A1"):
        return False
    if st.flags.free_cp == team and amount == 1:
        return True
    return cp_plan(st.teams[team], B.zone_of(team, st.ball), amount) is not None


def spend(m: MatchContext, team: int, amount: int = 1, for_action: bool = True, area: int = -1) -> Flow:
    """Spend condition points (A1) from the zone of the ball (or of `area`, where
    the ball was when the point was used); the free point of a terrace chant first."""
    st = m.st
    ts = st.teams[team]
    if coach_asked(m, team, amount, for_action):
        # "can be played when the team spends a condition point": the team may decline (I-16).
        # The default "yes" replays the logs written when the coach was always played.
        assert cp_plan(ts, B.zone_of(team, st.ball if area < 0 else area), amount) is not None
        ev = yield m.ask(D.PLAY_FIERY_COACH, team, "A11", _yes_no, None, "play the coach?", default="yes")
        if answer_choice(ev) == "yes":
            d = answer_dice((yield m.roll("fiery_coach", team, 1, "A11", "fiery coach")))[0]
            if d >= 4:
                return
            if d == 1:
                ts.coach_sent_off = True
                m.note("coach_sent_off", team=B.TEAM_NAMES[team])
    pay(m, team, amount, for_action, area)


def coach_asked(m: MatchContext, team: int, amount: int = 1, for_action: bool = True) -> bool:
    """Whether spending asks about the fiery coach first (A11); when not, ``pay`` is the whole
    of ``spend``: a plain call, no generator, for the commonest case."""
    st = m.st
    ts = st.teams[team]
    return (
        for_action
        and "fiery_coach" in ts.skills
        and not (st.flags.free_cp == team and amount == 1)
        and not ts.coach_sent_off
        and st.uses("A11")
    )


def pay(m: MatchContext, team: int, amount: int = 1, for_action: bool = True, area: int = -1) -> None:
    """``spend`` without the fiery coach's question."""
    st = m.st
    ts = st.teams[team]
    if for_action and st.flags.free_cp == team and amount == 1:
        st.flags.free_cp = -1
        return
    plan = cp_plan(ts, B.zone_of(team, st.ball if area < 0 else area), amount)
    assert plan is not None
    for z, n in plan:
        ts.cp[z] -= n


def _yes_no() -> tuple[str, ...]:
    return ("yes", "no")


def tiredness_tests(m: MatchContext) -> Flow:
    """A1 tiredness test for both teams (controlling team first)."""
    st = m.st
    for team in (st.ct, st.dt):
        ts = st.teams[team]
        d = answer_dice((yield m.roll("tiredness", team, 2, "A1", "tiredness test: two dice x10")))
        total = d[0] + d[1] - (2 if st.weather == "extreme_heat" else 0)
        if total * 10 < st.minute():
            zone = B.zone_of(team, st.ball)
            if ts.cp[zone] > 0:
                ts.cp[zone] -= 1
            else:
                for _ in range(2):
                    zs = [z for z in range(3) if ts.cp[z] > 0]
                    if zs:
                        zs.sort(key=lambda z: (-ts.cp[z], z))
                        ts.cp[zs[0]] -= 1
        # "If a team has no condition points left after a tiredness test" (A1): passed or failed,
        # a team left without points is tired from then on.
        if ts.cp_total() == 0 and not ts.tired:
            ts.tired = True
            m.note("tired", team=B.TEAM_NAMES[team])

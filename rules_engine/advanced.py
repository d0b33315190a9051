"""Advanced rules A1 (condition points, tiredness), A3 (substitutions),
A8 (slowing down game play) and A9 (weather), plus the game clock (4.2.1)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any, Final

from . import board as B
from .discipline import give_yellow
from .events import Event, Pending, answer_choice, answer_dice
from .state import TeamState

if TYPE_CHECKING:
    from .machine import Match

Flow = Generator[Pending, Event, Any]
ZONE_KEYS: Final = B.ZONE_NAMES
FORMATION_CHANGES: Final = tuple(f"{a}>{b}" for a in ZONE_KEYS for b in ZONE_KEYS if a != b)

# --------------------------------------------------------------- the clock


def advance_clock(m: Match, minutes: int) -> int:
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


def restart_time(m: Match, rule: str = "4.2.1.1") -> Flow:
    """+1 minute at the beginning of a goal kick, free kick, corner or penalty
    (4.2.1.1) and the option to slow the game down (A8)."""
    st = m.st
    if st.stoppage:
        return  # "This rule has no affect during stoppage time"
    advance_clock(m, 1)
    if st.uses("A8") and not st.stoppage:
        team = st.ct
        c = answer_choice((yield m.ask_yes_no("slow_play", team, "A8", "slow down the restart?")))
        if c == "yes":
            advance_clock(m, 1)
            d = answer_dice((yield m.roll("slow_play", team, 2, "A8", "delaying the restart: two dice x10")))
            if (d[0] + d[1]) * 10 < st.minute():
                yield from give_yellow(
                    m, team, "deliberately delaying the restart (A8)", red_test_always=True
                )


# ------------------------------------------------------ condition points (A1)


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


def can_spend(m: Match, team: int, amount: int = 1) -> bool:
    st = m.st
    if not st.uses("A1"):
        return False
    if st.flags.free_cp == team and amount == 1:
        return True
    return cp_plan(st.teams[team], B.zone_of(team, st.ball), amount) is not None


def spend(m: Match, team: int, amount: int = 1, for_action: bool = True, area: int = -1) -> Flow:
    """Spend condition points (A1) from the zone of the ball (or of `area`, where
    the ball was when the point was used); the free point of a terrace chant first."""
    st = m.st
    ts = st.teams[team]
    if for_action and st.flags.free_cp == team and amount == 1:
        st.flags.free_cp = -1
        return
    plan = cp_plan(ts, B.zone_of(team, st.ball if area < 0 else area), amount)
    assert plan is not None
    if for_action and "fiery_coach" in ts.skills and not ts.coach_sent_off and st.uses("A11"):
        # "can be played when the team spends a condition point": the team may decline (I-16).
        # The default "yes" replays the logs written when the coach was always played.
        ev = yield m.ask("play_fiery_coach", team, "A11", _yes_no, None, "play the coach?", default="yes")
        if answer_choice(ev) == "yes":
            d = answer_dice((yield m.roll("fiery_coach", team, 1, "A11", "fiery coach")))[0]
            if d >= 4:
                return
            if d == 1:
                ts.coach_sent_off = True
                m.note("coach_sent_off", team=B.TEAM_NAMES[team])
    for z, n in plan:
        ts.cp[z] -= n


def _yes_no() -> tuple[str, ...]:
    return ("yes", "no")


def tiredness_tests(m: Match) -> Flow:
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
            if ts.cp_total() == 0 and not ts.tired:
                ts.tired = True
                m.note("tired", team=B.TEAM_NAMES[team])


# --------------------------------------------------------- substitutions (A3)


def _const(options: tuple[Any, ...]) -> Callable[[], tuple[Any, ...]]:
    def get() -> tuple[Any, ...]:
        return options

    return get


def _sub_options(m: Match, team: int) -> tuple[str, ...]:
    st = m.st
    ts = st.teams[team]
    out = [f"fresh:{z}" for z in ZONE_KEYS]
    if ts.yellows:
        out += [f"yellow:{z}" for z in ZONE_KEYS] if st.half >= 2 else ["yellow"]
    if not ts.coach_sent_off:
        f = ts.formation
        out += [f"formation:{c}" for c in FORMATION_CHANGES if f[ZONE_KEYS.index(c.split(">")[0])] > 0]
    return tuple(out)


def change_formation(ts: TeamState, change: str) -> tuple[int, int]:
    a, b = change.split(">")
    za, zb = ZONE_KEYS.index(a), ZONE_KEYS.index(b)
    ts.formation[za] -= 1
    ts.formation[zb] += 1
    return za, zb


def substitutions(m: Match, at_setup: bool) -> Flow:
    """A3: at the end of a turn with the ball in the midfield zone (controlling
    team first, defending team only if it did), or when a new set-up occurs
    (both teams, controlling team first) - interpretation I-13."""
    st = m.st
    if not st.uses("A3"):
        return
    if not at_setup and st.ball not in B.MIDFIELD_ZONE:
        return
    ct_made = 0
    for team in (st.ct, st.dt):
        ts = st.teams[team]
        left = 3 - ts.subs_used
        if left <= 0 or (team == st.dt and not at_setup and ct_made == 0):
            continue
        opts = tuple(range(left + 1))
        n = answer_choice(
            (yield m.ask("substitutions", team, "A3", _const(opts), None, "how many substitutions?"))
        )
        if team == st.ct:
            ct_made = n
        for _ in range(n):
            sopts = _sub_options(m, team)
            c = answer_choice(
                (yield m.ask("substitution", team, "A3", _const(sopts), None, "substitution type"))
            )
            ts.subs_used += 1
            kind, _, arg = c.partition(":")
            if kind == "fresh":
                d = answer_dice((yield m.roll("fresh_player", team, 2, "A3", "fresh player: two dice x10")))
                total = d[0] + d[1]
                if "strength_in_depth" in ts.skills and st.uses("A11"):
                    total -= 2
                if ts.coach_sent_off:
                    total += 2
                gained = 1 if total * 10 > st.minute() else 2
                add_cp(ts, ZONE_KEYS.index(arg), gained)
            elif kind == "yellow":
                ts.yellows -= 1
                if st.half >= 2:  # the second half or extra time
                    add_cp(ts, ZONE_KEYS.index(arg))
            else:
                _, zb = change_formation(ts, arg)
                if st.half >= 2:  # the second half or extra time
                    add_cp(ts, zb)
            m.note("substitution", team=B.TEAM_NAMES[team], type=c)


def half_time_changes(m: Match) -> Flow:
    """2.2: during half time each team can change the position of one player."""
    st = m.st
    for team in (st.ct, st.dt):
        ts = st.teams[team]
        if ts.coach_sent_off:
            continue
        f = ts.formation
        opts = ("none", *(c for c in FORMATION_CHANGES if f[ZONE_KEYS.index(c.split(">")[0])] > 0))
        c = answer_choice((yield m.ask("half_time_formation", team, "2.2", _const(opts), None)))
        if c != "none":
            change_formation(ts, c)


# ------------------------------------------------------------- weather (A9)

WEATHER_BY_DOUBLE: Final = {1: "heat", 2: "sunshine", 3: "sunshine", 4: "windy", 5: "rain", 6: "cold"}


def second_half_weather(m: Match) -> Flow:
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

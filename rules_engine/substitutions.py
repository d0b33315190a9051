"""Substitutions (A3) and the half-time position change (2.2)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Final

from . import board as B
from . import decisions as D
from .condition import add_cp
from .context import MatchContext
from .events import Event, Pending, answer_choice, answer_dice
from .state import TeamState

Flow = Generator[Pending, Event, Any]
ZONE_KEYS: Final = B.ZONE_NAMES
FORMATION_CHANGES: Final = tuple(f"{a}>{b}" for a in ZONE_KEYS for b in ZONE_KEYS if a != b)


def _const(options: tuple[Any, ...]) -> Callable[[], tuple[Any, ...]]:
    def get() -> tuple[Any, ...]:
        return options

    return get


# the answers to "how many substitutions?" with k left, built once (asked at most turns' end)
_COUNTS: Final = tuple(_const(tuple(range(k + 1))) for k in range(4))


# the answers naming a kind of substitution, built once (asked at every substitution): fresh
# player and yellow card by zone, each formation change with the zone it takes a player from
_FRESH: Final = tuple(f"fresh:{z}" for z in ZONE_KEYS)
_YELLOW: Final = tuple(f"yellow:{z}" for z in ZONE_KEYS)
_FORMATION: Final = tuple((f"formation:{c}", ZONE_KEYS.index(c.split(">")[0])) for c in FORMATION_CHANGES)


def _sub_options(m: MatchContext, team: int) -> tuple[str, ...]:
    st = m.st
    ts = st.teams[team]
    out = list(_FRESH)
    if ts.yellows:
        out += _YELLOW if st.half >= 2 else ("yellow",)
    if not ts.coach_sent_off:
        f = ts.formation
        out += [c for c, zone in _FORMATION if f[zone] > 0]
    return tuple(out)


def change_formation(ts: TeamState, change: str) -> tuple[int, int]:
    a, b = change.split(">")
    za, zb = ZONE_KEYS.index(a), ZONE_KEYS.index(b)
    ts.formation[za] -= 1
    ts.formation[zb] += 1
    return za, zb


def substitutions(m: MatchContext, at_setup: bool, first: int = -1) -> Flow:
    """A3: at the end of a turn with the ball in the midfield zone (controlling
    team first, defending team only if it did), or when a new set-up occurs
    (both teams, controlling team first: ``first``, the team taking the restart) - I-13."""
    st = m.st
    if not st.uses("A3"):
        return
    if not at_setup and st.ball not in B.MIDFIELD_ZONE:
        return
    ct_made = 0
    lead = first if at_setup and first >= 0 else st.ct
    for team in (lead, 1 - lead):
        ts = st.teams[team]
        left = 3 - ts.subs_used
        if left <= 0 or (team != lead and not at_setup and ct_made == 0):
            continue
        n = answer_choice(
            (yield m.ask(D.SUBSTITUTIONS, team, "A3", _COUNTS[left], None, "how many substitutions?"))
        )
        if team == lead:
            ct_made = n
        for _ in range(n):
            sopts = _sub_options(m, team)
            c = answer_choice(
                (yield m.ask(D.SUBSTITUTION, team, "A3", _const(sopts), None, "substitution type"))
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


def half_time_changes(m: MatchContext) -> Flow:
    """2.2: during half time each team can change the position of one player."""
    st = m.st
    for team in (st.ct, st.dt):
        ts = st.teams[team]
        if ts.coach_sent_off:
            continue
        f = ts.formation
        opts = ("none", *(c for c in FORMATION_CHANGES if f[ZONE_KEYS.index(c.split(">")[0])] > 0))
        c = answer_choice((yield m.ask(D.HALF_TIME_FORMATION, team, "2.2", _const(opts), None)))
        if c != "none":
            change_formation(ts, c)

"""The heuristic coach's target area (4.1.1): where to play the ball.

For every reachable area, the chance to keep the ball (control check against the modified ball
value, 4.1.2/4.2.2; no risk in an easy situation) times the threat from there, minus the chance to
lose it times the threat the opponent would have from there.  Upper bounds come first (no risk of
losing the ball), then the exact score (it needs the modified ball value) only while an area can
still win.  The modified ball value is the engine's ``ball_value_after_target`` computed with the
per-decision parts hoisted out of the loop (the engine's own crossing and offside-risk functions
are called only for the long passes and the offside candidates).

The areas are taken best bound first (at an equal bound the higher area first): a dozen areas are
reachable and two or three scored, so the next best is picked in turn (a scan finds the best and
the runner-up), not sorted, and a scored area is put in its place among the few scored before it
(the order sorting (score, name) pairs in reverse would give).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..errors import FubaError
from ..events import Pending
from ..rules import crossing_applies, offside_risk_increase, second_last_area
from ..state import MatchState
from .style import Style
from .tables import (
    ADJ_MASK,
    AREA_OF,
    BEYOND,
    DIST,
    N_AREAS,
    NAMES,
    OPP_HALF,
    P_KEEP,
    THREAT,
)


def target_area(
    st: MatchState, pending: Pending, team: int, style: Style, risk: float, rnd: Callable[[], float]
) -> Any:
    """The best legal target area: the best scored areas are checked with the engine's legality
    check (``verify_fn``, which defines ``options``); the options are listed only as a fallback.
    ``risk`` weighs the opponent's threat when the ball is lost; ``rnd`` breaks ties."""
    bounds: list[float] = [0.0] * N_AREAS
    reach = _target_bounds(st, team, style, rnd, bounds)
    names: list[str] = []
    _scored_targets(st, team, bounds, reach, risk, names)
    verify = pending.verify_fn
    if verify is not None:
        for name in names[:4]:
            try:
                verify(name)
            except FubaError:
                continue
            pending.vouched = name  # (the match need not check it again)
            return name
    opts = pending.options
    for name in names:
        if name in opts:
            return name
    return opts[0]


def _target_bounds(
    st: MatchState,
    team: int,
    style: Style,
    rnd: Callable[[], float],
    bounds: list[float],
) -> int:
    """The upper bound of the score of every reachable area, written to ``bounds`` (by area):
    the threat from there, a little more near the start or where the team outnumbers, and a
    tie-breaking jitter (one ``rnd()`` an area, in area order). Returns the bit mask of the
    reachable areas. The players in an area are counted as 1.4.1 counts them (goalkeeper
    included, at most six) where they are read, from the fields: a table of the counts of every
    area cost more than the rest of the decision."""
    start_a = AREA_OF[st.flags.start]
    us, them = st.teams[team], st.teams[1 - team]
    uf, ug, tf, tg = us.field, us.gk, them.field, them.gk
    attack = style.attack
    dist_short = DIST[start_a]
    # 4.1.1: a player there or in an adjacent area
    reach = 1 << start_a
    for t in range(N_AREAS):
        if uf[t] or ug == t:
            reach |= ADJ_MASK[t] | 1 << t
    gains = style.target_gain
    g0 = gains[team]
    if g0 is None:
        threat_us = THREAT[team]
        g0 = gains[team] = [threat_us[t] * (1.0 + 0.4 * attack) for t in range(N_AREAS)]
    for t in range(N_AREAS):
        if not reach >> t & 1:
            continue
        o = uf[t] + 1 if ug == t else uf[t]
        gain = g0[t] + (0.05 if o and dist_short[t] <= 1 else 0.0)
        d = tf[t] + 1 if tg == t else tf[t]
        if (o if o < 6 else 6) > (d if d < 6 else 6):
            gain += 0.03
        gain += rnd() * 0.01
        bounds[t] = gain
    return reach


def _scored_targets(
    st: MatchState, team: int, bounds: list[float], reach: int, risk: float, names: list[str]
) -> None:
    """The names of the areas whose bound can still beat the best exact score, best score first
    (at an equal score the greater name first), to ``names`` (see the module docstring)."""
    start = st.flags.start
    start_a = AREA_OF[start]
    us, them = st.teams[team], st.teams[1 - team]
    uf, ug, tf, tg = us.field, us.gk, them.field, them.gk
    threat_them = THREAT[1 - team]
    near_theirs = _near(tf, tg)
    # the per-decision part of ball_value_after_target (4.1.2, A7)
    restart = st.flags.restart
    v0 = st.value
    if restart not in ("free_kick", "corner", "goal_kick") and start < N_AREAS and not them.has(start):
        v0 -= 1  # no defender in the start area (4.1.2.1)
    per = 2 if st.weather in ("windy", "storm") else 1
    dist_long = DIST[start]
    offside = st.uses("A7") and restart not in ("goal_kick", "corner")
    beyond_start = BEYOND[team][start_a]
    opp_half = OPP_HALF[team]
    scores: list[float] = []  # (by ``names``)
    best_exact = -1e9
    cross: bool | None = None
    sl: int | None = -2
    risk_up: int | None = None
    left = reach  # the areas not taken yet
    nxt, nxt_gain = -1, 0.0  # the runner-up of the last scan: taken next without a scan
    while left:
        if nxt >= 0:
            gain, t, nxt = nxt_gain, nxt, -1
        else:
            gain, t = 0.0, -1
            for a in range(N_AREAS):
                if left >> a & 1:
                    g = bounds[a]
                    if t < 0 or g >= gain:  # (a grows: at an equal bound the higher area first)
                        nxt_gain, nxt = gain, t
                        gain, t = g, a
                    elif nxt < 0 or g >= nxt_gain:
                        nxt_gain, nxt = g, a
        left &= ~(1 << t)
        if gain < best_exact and len(scores) >= 2:
            break
        c = uf[t] + 1 if ug == t else uf[t]
        c = 6 if c > 6 else c
        d = tf[t] + 1 if tg == t else tf[t]
        d = 6 if d > 6 else d
        v = v0
        steps = dist_long[t] - 1
        if steps > 0:
            if cross is None:  # the same for every long pass
                cross = crossing_applies(st, team, start, t)
            if cross:
                steps -= 1
            if steps:
                v += per * steps
                if c >= 6 and d >= 6:
                    v += 1  # crowded target area
        if c > d:
            v -= 1
        elif d > c:
            v += 1
        if offside and c and opp_half[t] and beyond_start[t]:
            # A7: the increase is the same for every target beyond the
            # second-last defender, 0 for the others
            if sl == -2:
                sl = second_last_area(them, 1 - team)
            if sl is not None and BEYOND[team][sl][t]:
                if risk_up is None:
                    risk_up = offside_risk_increase(st, team, start, t)
                v += risk_up
        if v > 6 and t != start_a:
            continue  # 4.1.2
        v = 6 if v > 6 else (1 if v < 1 else v)
        p = 1.0 if not d and not near_theirs >> t & 1 else P_KEEP[v]
        score = p * gain - (1.0 - p) * threat_them[t] * risk
        if score > best_exact:
            best_exact = score
        _insert(scores, names, score, NAMES[t])


def _near(tf: list[int], tg: int) -> int:
    """The bit mask of the areas next to one of the opponents' (their field and goalkeeper)."""
    near = 0
    for a in range(N_AREAS):
        if tf[a] or tg == a:
            near |= ADJ_MASK[a]
    return near


def _insert(scores: list[float], names: list[str], score: float, name: str) -> None:
    """Put (score, name) in its place in the pairs ordered as ``sorted(reverse=True)`` orders
    them: the greater score first, at an equal score the greater name."""
    k = 0
    for s in scores:
        if score > s or (score == s and name > names[k]):
            break
        k += 1
    scores.insert(k, score)
    names.insert(k, name)

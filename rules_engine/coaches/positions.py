"""How the heuristic coach values a placement of its players: the value of one player in each
playing area given the ball (by style, cached per process) and the local contests (the ball area
and the penalty areas) that the moves and the set-ups both score."""

from __future__ import annotations

from collections.abc import Sequence

from .. import board as B
from ..state import MatchState, TeamState
from .style import Style
from .tables import OPP_HALF, play_area, stack_value


def position_weights(st: MatchState, team: int, style: Style, cache: dict[int, list[float]]) -> list[float]:
    """Value of one player of `team` in each playing area, given the ball."""
    ball = play_area(st.ball)
    ct = st.ct == team
    ts = st.teams[team]
    form = ts.formation
    # the cache key packs (team, ball, ct, formation) in one int (a tuple key is built and hashed
    # on every move decision); a line holds at most ten players, so six bits a line are plenty
    key = team | ball << 1 | ct << 5
    shift = 6
    for n in form:
        if not 0 <= n < 64:
            return _compute_weights(team, ball, ct, ts, style)  # (never: not packable, not cached)
        key |= n << shift
        shift += 6
    key |= len(form) << shift
    cached = cache.get(key)
    if cached is not None:
        return cached
    cached = _compute_weights(team, ball, ct, ts, style)
    if len(cache) > 4096:
        cache.clear()
    cache[key] = cached
    return cached


def _compute_weights(team: int, ball: int, ct: bool, ts: TeamState, style: Style) -> list[float]:
    # the coach's bias pushes up in attack and presses high, but does not
    # pull a defence out of its own half (formations keep their depth)
    push = style.attack if ct or OPP_HALF[team][ball] else style.deep
    dist = B.DIST[ball]
    form = ts.formation
    tot = max(1, sum(form))
    own_pen = B.PEN[team]
    opp_pen = B.PEN[1 - team]
    out = [0.0] * B.N_AREAS
    for a in range(B.N_AREAS):
        d = dist[a]
        w = (3.0, 1.6, 0.7, 0.3, 0.15, 0.1, 0.1, 0.1)[d] if d < 8 else 0.1
        depth = B.depth_from(team, a) / 10.5
        # an attacking style pushes up (and stays up without the ball),
        # a defensive style drops deep (and supports attacks less)
        if ct:
            w += (1.4 + 2.0 * push) * depth
            if a == opp_pen and B.DIST[ball][opp_pen] <= 3:
                w += 1.2 + 2.0 * push
        else:
            w += (1.2 - 2.0 * push) * (1.0 - depth)
            if a == own_pen and B.DIST[ball][own_pen] <= 3:
                w += 1.6 - push
        w += 1.5 * form[B.zone_of(team, a)] / tot
        if a == own_pen:
            w -= 0.6 if ct else 0.0
        out[a] = w
    return out


def placement_utility(st: MatchState, team: int, field: Sequence[int], gk: int, w: Sequence[float]) -> float:
    """Value of a whole placement (set-ups): positions plus the contests."""
    u = 0.0
    for a in range(B.N_AREAS):
        n = field[a]
        if n:
            u += w[a] * stack_value(n)
    ball = play_area(st.ball)
    own_pen, opp_pen = B.PEN[team], B.PEN[1 - team]
    return u + contest_value(
        st,
        team,
        field[ball] + (1 if gk == ball else 0),
        field[opp_pen],
        field[own_pen] + (1 if gk == own_pen else 0),
        gk == own_pen,
    )


def contest_value(
    st: MatchState, team: int, at_ball: int, at_opp_pen: int, at_own_pen: int, gk_home: bool
) -> float:
    """Value of the local contests: the ball area (pressing needs as many
    players, outnumbering lowers ball values and allows free moves) and the
    penalty areas (goal attempt modifiers, rebounds)."""
    opp = st.teams[1 - team]
    ball = play_area(st.ball)
    ours = 6 if at_ball > 6 else at_ball
    theirs = opp.count(ball)
    u = 0.0
    if st.ct == team:
        if ours > theirs:
            u += 2.2
        elif ours == theirs:
            u += 0.8
        opp_pen = B.PEN[1 - team]
        if B.DIST[ball][opp_pen] <= 2:
            o = 6 if at_opp_pen > 6 else at_opp_pen
            t = opp.count(opp_pen)
            u += 1.2 if o > t else (0.4 if o == t else 0.0)
    else:
        if ours >= theirs:
            u += 2.6
        if ours > theirs:
            u += 0.8
        own_pen = B.PEN[team]
        if B.DIST[ball][own_pen] <= 2:
            o = 6 if at_own_pen > 6 else at_own_pen
            u += 1.4 if o >= opp.count(own_pen) else 0.0
    # the goalkeeper belongs in its penalty area (+4 for the opponent otherwise)
    if not gk_home:
        u -= 6.0
    return u

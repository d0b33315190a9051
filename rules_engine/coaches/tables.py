"""Tables of the heuristic coach computed once per process (dice odds, the
threat of each area, move names and their ranks, adjacency bit masks,
contest and slow-play tables) and the odds of a goal attempt now."""

from __future__ import annotations

from typing import Final

from .. import board as B
from ..rules import can_attempt_from, goal_attempt_modifier
from ..state import MatchState

# P(at least one of two dice >= v): the controlling team keeps the ball (4.2.2)
P_KEEP: Final[tuple[float, ...]] = (1.0, 1.0, 35 / 36, 32 / 36, 27 / 36, 20 / 36, 11 / 36, 0.0, 0.0)
# P(at least one of two dice < v): pressing wins the ball (4.7)
P_PRESS: Final[tuple[float, ...]] = (0.0, 0.0, 11 / 36, 20 / 36, 27 / 36, 32 / 36, 35 / 36, 1.0, 1.0)
# P(at least one of two dice <= v): aggressive pressing wins (A6)
P_AGGR: Final[tuple[float, ...]] = (0.0, 11 / 36, 20 / 36, 27 / 36, 32 / 36, 35 / 36, 1.0, 1.0, 1.0)

# How dangerous the ball is for the home team's opponent in each playing area
# (chance of a goal coming from there soon); the away team uses the mirror.
_THREAT_HOME = (0.01, 0.03, 0.03, 0.04, 0.07, 0.07, 0.14, 0.26, 0.26, 0.62, 0.36, 0.36, 0.85)
MIRROR: Final[tuple[int, ...]] = (
    B.A_PEN, B.A_LC, B.A_RC, B.A_FRONT, B.A_LM, B.A_RM, B.CENTRE,
    B.H_LM, B.H_RM, B.H_FRONT, B.H_LC, B.H_RC, B.H_PEN,
)  # fmt: skip
THREAT: Final[tuple[tuple[float, ...], ...]] = (
    _THREAT_HOME,
    tuple(_THREAT_HOME[MIRROR[a]] for a in range(B.N_AREAS)),
)
# diminishing value of the k-th player of a team in one area (1-based k).  Not Final:
# mypyc then leaves it unset for stack_value() ("value for final name was not set")
_STACK = (0.0, 1.0, 1.6, 1.96, 2.18, 2.31, 2.39, 2.39, 2.39, 2.39, 2.39, 2.39)


# value added by the (n+1)-th player in an area
STACK_GAIN: Final = tuple(_STACK[i + 1] - _STACK[i] for i in range(len(_STACK) - 1)) + (0.0,) * 20


def stack_value(n: int) -> float:
    return _STACK[n] if n < len(_STACK) else _STACK[-1]


AREA_OF: Final = tuple(B.CORNER_OF_SPOT.get(a, a) for a in range(B.N_LOC))
# adjacent playing areas (no corner-kick spots) of every location
ADJ_PLAY: Final = tuple(tuple(d for d in B.ADJ[a] if d < B.N_AREAS) for a in range(B.N_LOC))


def play_area(a: int) -> int:
    """A corner-kick spot counts as its corner area."""
    return AREA_OF[a]


# ---- move names, built once: a candidate move is a (gain, rank) pair of
# numbers; the rank orders the move names like the strings themselves, so
# sorting the pairs ranks the moves exactly as sorting (gain, name) would.
def _move_names() -> tuple[str, ...]:
    names = B.NAMES
    out = {f"GK>{names[d]}" for d in range(B.N_AREAS)}
    for s in range(B.N_LOC):
        for d in ADJ_PLAY[s]:
            out.add(f"{names[s]}>{names[d]}")
            out.add(f"{names[s]}>{names[d]}+ball")
    return tuple(sorted(out))


MOVE_NAME: Final[tuple[str, ...]] = _move_names()  # rank -> move name
_RANK = {n: i for i, n in enumerate(MOVE_NAME)}
# rank of "SRC>DST", "SRC>DST+ball" (indexed [src][dst]) and "GK>DST"
_MV_RANK = tuple(
    tuple(_RANK.get(f"{B.NAMES[s]}>{B.NAMES[d]}", -1) for d in range(B.N_LOC)) for s in range(B.N_LOC)
)
DRIB_RANK: Final = tuple(
    tuple(_RANK.get(f"{B.NAMES[s]}>{B.NAMES[d]}+ball", -1) for d in range(B.N_LOC)) for s in range(B.N_LOC)
)
GK_RANK: Final = tuple(_RANK[f"GK>{B.NAMES[d]}"] for d in range(B.N_AREAS))
# free moves that are not from an outnumbering area: straight away from a goal line (4.3.1)
_AWAY_DST = tuple(
    tuple(d for d in ADJ_PLAY[s] if B.away_from_goal_line(AREA_OF[s], d)) for s in range(B.N_LOC)
)
N_LOC: Final = B.N_LOC
N_AREAS: Final = B.N_AREAS
PEN: Final = B.PEN
DIST: Final = B.DIST
CORNER_SPOTS: Final = B.CORNER_SPOTS
NAMES: Final = B.NAMES
ADJ_MASK: Final = tuple(sum(1 << x for x in ADJ_PLAY[a]) for a in range(B.N_AREAS))
# [team][s][t]: area t is entirely beyond area s for team (5.1, A7)
BEYOND: Final = tuple(
    tuple(tuple(B.beyond(team, t, s) for t in range(B.N_AREAS)) for s in range(B.N_AREAS)) for team in (0, 1)
)
OPP_HALF: Final = tuple(tuple(B.in_opp_half_entirely(team, a) for a in range(B.N_AREAS)) for team in (0, 1))


# (destination, rank) of the moves from each location: all / free moves straight off a goal line
_PAIRS = tuple(tuple((d, _MV_RANK[s][d]) for d in ADJ_PLAY[s]) for s in range(B.N_LOC))
_AWAY_PAIRS = tuple(tuple((d, _MV_RANK[s][d]) for d in _AWAY_DST[s]) for s in range(B.N_LOC))
# the single moves of a source: source id = location (every adjacent playing
# area) or N_LOC + location (a free move straight away from the goal line only)
SRC_AREA: Final = tuple(AREA_OF[s] for s in range(B.N_LOC)) * 2
SRC_PAIRS: Final = tuple(tuple((d, _MV_RANK[s][d]) for d in ADJ_PLAY[s]) for s in range(B.N_LOC)) + tuple(
    tuple((d, _MV_RANK[s][d]) for d in _AWAY_DST[s]) for s in range(B.N_LOC)
)
# the same pairs as two flat tables of plain ints (destinations, ranks): the compiled coach reads
# an int from a tuple of ints without unpacking a pair object per move
SRC_DST: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(d for d, _ in p) for p in SRC_PAIRS)
SRC_RANK: Final[tuple[tuple[int, ...], ...]] = tuple(tuple(r for _, r in p) for p in SRC_PAIRS)


def _contest_part_tables() -> tuple[list[list[list[float]]], list[list[list[float]]]]:
    """``_contest_value`` split in its ball-area part [ct][theirs][ours] and its
    penalty-area part [ct][theirs][ours] (players up to 40, counted up to six),
    each computed exactly as ``_contest_value`` adds them up."""
    ball: list[list[list[float]]] = [[], []]
    pen: list[list[list[float]]] = [[], []]
    for ct in (0, 1):
        for theirs in range(7):
            bl, pl = [], []
            for n in range(41):
                o = 6 if n > 6 else n
                u = 0.0
                if ct:
                    if o > theirs:
                        u += 2.2
                    elif o == theirs:
                        u += 0.8
                    pl.append(1.2 if o > theirs else (0.4 if o == theirs else 0.0))
                else:
                    if o >= theirs:
                        u += 2.6
                    if o > theirs:
                        u += 0.8
                    pl.append(1.4 if o >= theirs else 0.0)
                bl.append(u)
            ball[ct].append(bl)
            pen[ct].append(pl)
    return ball, pen


_PARTS: Final = _contest_part_tables()
BALL_PART: Final = _PARTS[0]
PEN_PART: Final = _PARTS[1]
NO_PEN_PART: Final[list[float]] = [0.0] * 41


IS_GOAL_LINE: Final = tuple(AREA_OF[s] in B.GOAL_LINE_AREAS for s in range(B.N_LOC))
# P(card) of slow play (A8) for each minute: P(two dice x 10 < minute + 1)
P_SLOW_CARD: Final = tuple(
    sum(1 for a in range(1, 7) for b in range(1, 7) if (a + b) * 10 < minute + 1) / 36
    for minute in range(200)
)


def _contest_value(
    ct: bool, at_ball: int, theirs: int, near_pen: bool, at_pen: int, theirs_pen: int, gk_home: bool
) -> float:
    """``positions.contest_value`` from precomputed counts: ``at_ball`` / ``theirs``
    players in the ball area, ``at_pen`` / ``theirs_pen`` in the penalty area that
    matters (the opponent's when in control, else the own; ``near_pen``: it is
    within two areas of the ball)."""
    ours = 6 if at_ball > 6 else at_ball
    u = 0.0
    if ct:
        if ours > theirs:
            u += 2.2
        elif ours == theirs:
            u += 0.8
        if near_pen:
            o = 6 if at_pen > 6 else at_pen
            u += 1.2 if o > theirs_pen else (0.4 if o == theirs_pen else 0.0)
    else:
        if ours >= theirs:
            u += 2.6
        if ours > theirs:
            u += 0.8
        if near_pen:
            o = 6 if at_pen > 6 else at_pen
            u += 1.4 if o >= theirs_pen else 0.0
    # the goalkeeper belongs in its penalty area (+4 for the opponent otherwise)
    if not gk_home:
        u -= 6.0
    return u


# weights of one player per area (positions.position_weights), by style (deep, attack)
WEIGHT_CACHE: Final[dict[tuple[float, float], dict[int, list[float]]]] = {}


def goal_odds(st: MatchState, team: int, free_kick: bool = False) -> tuple[float, float]:
    """(P(goal), P(corner or rebound)) of a goal attempt from the ball area now."""
    area = play_area(st.ball)
    am = B.area_modifier(team, area)
    if am is None or not can_attempt_from(st, team, area):
        return 0.0, 0.0
    mod = goal_attempt_modifier(st, team, area, free_kick)
    opp = st.teams[1 - team]
    two = st.uses("A11") and "shot_stopper" in opp.skills and opp.cp_total() > 0
    need = st.value - mod  # goal if die > need
    if need >= 6:
        p6 = 1 / 36 if two else 1 / 6
        return p6 * max(0.0, (6 + am) / 6), p6 * (1 / 6)
    if need < 1:
        return 1.0, 0.0

    def p_above(k: int) -> float:
        q = min(1.0, max(0.0, (6 - k) / 6))
        return q * q if two else q

    pg = p_above(need)
    psoft = p_above(need - 1) - pg
    if need >= 2 and st.teams[team].has(B.PEN[1 - team]):
        psoft += p_above(need - 2) - p_above(need - 1)
    return pg, psoft

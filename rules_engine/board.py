"""The FUBA board as data (rulebook 3, chapters 1.4, 1.5, 3.3.1 and 5.3).

The pictures of the rulebook are lost; the layout is reconstructed from the
text (see docs/rules-interpretations.md, "Board").  Rows are levels along the
pitch, row 0 at the home goal line, row 11 at the away goal line.  Columns are
0 (left, seen from the home goal), 1 (centre) and 2 (right).  Two areas are
adjacent when their cells share an edge.  The four corner-kick spots of 5.3
are separate "areas" adjacent only to their corner area.

Home defends the H end (rows 0..) for the whole match.
"""

from __future__ import annotations

from typing import Final

HOME: Final = 0
AWAY: Final = 1
# (tuples indexed by a team or a zone are typed tuple[X, ...]: mypyc keeps a fixed-length tuple
# unboxed and builds a new Python tuple for every index by a variable)
TEAM_NAMES: Final[tuple[str, ...]] = ("home", "away")

# name, column, first row, last row  (corner spots get the goal-line row)
_AREAS: Final = (
    ("H-PEN", 1, 0, 1),
    ("H-LC", 0, 0, 2),
    ("H-RC", 2, 0, 2),
    ("H-FRONT", 1, 2, 3),
    ("H-LM", 0, 3, 5),
    ("H-RM", 2, 3, 5),
    ("CENTRE", 1, 4, 7),
    ("A-LM", 0, 6, 8),
    ("A-RM", 2, 6, 8),
    ("A-FRONT", 1, 8, 9),
    ("A-LC", 0, 9, 11),
    ("A-RC", 2, 9, 11),
    ("A-PEN", 1, 10, 11),
    ("H-LCK", 0, 0, 0),
    ("H-RCK", 2, 0, 0),
    ("A-LCK", 0, 11, 11),
    ("A-RCK", 2, 11, 11),
)

NAMES: Final[tuple[str, ...]] = tuple(a[0] for a in _AREAS)
INDEX: Final[dict[str, int]] = {n: i for i, n in enumerate(NAMES)}
N_AREAS: Final = 13  # playing areas (1.4); indexes 13..16 are corner spots
N_LOC: Final[int] = 17
COL: Final[tuple[int, ...]] = tuple(a[1] for a in _AREAS)
LO: Final[tuple[int, ...]] = tuple(a[2] for a in _AREAS)
HI: Final[tuple[int, ...]] = tuple(a[3] for a in _AREAS)

H_PEN: Final = 0
H_LC: Final = 1
H_RC: Final = 2
H_FRONT: Final = 3
H_LM: Final = 4
H_RM: Final = 5
CENTRE: Final = 6
A_LM: Final = 7
A_RM: Final = 8
A_FRONT: Final = 9
A_LC: Final = 10
A_RC: Final = 11
A_PEN: Final = 12
H_LCK: Final = 13
H_RCK: Final = 14
A_LCK: Final = 15
A_RCK: Final = 16
CORNER_SPOTS: Final[tuple[int, ...]] = (H_LCK, H_RCK, A_LCK, A_RCK)
CORNER_OF_SPOT: Final[dict[int, int]] = {H_LCK: H_LC, H_RCK: H_RC, A_LCK: A_LC, A_RCK: A_RC}
HALFWAY: Final = 6  # the halfway line lies between row 5 and row 6 (1.4.2)


def _adjacent(a: int, b: int) -> bool:
    if a == b:
        return False
    if a in CORNER_OF_SPOT or b in CORNER_OF_SPOT:
        return CORNER_OF_SPOT.get(a) == b or CORNER_OF_SPOT.get(b) == a
    if COL[a] == COL[b]:
        return HI[a] + 1 == LO[b] or HI[b] + 1 == LO[a]
    if abs(COL[a] - COL[b]) == 1:
        return LO[a] <= HI[b] and LO[b] <= HI[a]
    return False


ADJ: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(b for b in range(N_LOC) if _adjacent(a, b)) for a in range(N_LOC)
)
ADJ_SET: Final[tuple[frozenset[int], ...]] = tuple(frozenset(x) for x in ADJ)


def _distances() -> tuple[tuple[int, ...], ...]:
    out = []
    for a in range(N_LOC):
        dist = [99] * N_LOC
        dist[a] = 0
        frontier = [a]
        while frontier:
            nxt = []
            for x in frontier:
                for y in ADJ[x]:
                    if dist[y] == 99:
                        dist[y] = dist[x] + 1
                        nxt.append(y)
            frontier = nxt
        out.append(tuple(dist))
    return tuple(out)


DIST: Final[tuple[tuple[int, ...], ...]] = _distances()

PEN: Final[tuple[int, ...]] = (H_PEN, A_PEN)  # a team's own penalty area
FRONT: Final[tuple[int, ...]] = (H_FRONT, A_FRONT)
GOAL_LINE_AREAS: Final[frozenset[int]] = frozenset({H_PEN, H_LC, H_RC, A_PEN, A_LC, A_RC})
TOUCHLINE_AREAS: Final = frozenset(i for i in range(N_AREAS) if COL[i] != 1)
SIDE_AREAS: Final = TOUCHLINE_AREAS  # "side area" of A7 (interpretation I-7)
MIDFIELD_ZONE: Final = frozenset({H_LM, H_RM, CENTRE, A_LM, A_RM})  # 1.5
# 1.5: defence zone of home == attack zone of away and vice versa
_H_END: Final = frozenset({H_PEN, H_LC, H_RC, H_FRONT, H_LCK, H_RCK})
_A_END: Final = frozenset({A_PEN, A_LC, A_RC, A_FRONT, A_LCK, A_RCK})
DEFENCE_ZONE: Final[tuple[frozenset[int], ...]] = (_H_END, _A_END)
ATTACK_ZONE: Final[tuple[frozenset[int], ...]] = (_A_END, _H_END)

ZONE_DEF: Final = 0
ZONE_MID: Final = 1
ZONE_FWD: Final = 2
ZONE_NAMES: Final[tuple[str, ...]] = ("defence", "midfield", "forward")


def zone_of(team: int, area: int) -> int:
    """Zone (defence/midfield/forward) of `area` relative to `team` (1.5)."""
    if area in MIDFIELD_ZONE:
        return ZONE_MID
    return ZONE_DEF if area in DEFENCE_ZONE[team] else ZONE_FWD


def in_own_half_partly(team: int, area: int) -> bool:
    """Area at least partly in the team's own half (3.3.1, 5.2.3, 5.6.1)."""
    return LO[area] < HALFWAY if team == HOME else HI[area] >= HALFWAY


def in_opp_half_entirely(team: int, area: int) -> bool:
    """Area entirely in the opponent's half (4.4, 5.1)."""
    return LO[area] >= HALFWAY if team == HOME else HI[area] < HALFWAY


# depth_from of every area for each team, computed once (the coaches score every move with it)
_DEPTH: Final[tuple[tuple[float, ...], ...]] = (
    tuple((lo + hi) / 2 for lo, hi in zip(LO, HI, strict=True)),
    tuple(11 - (lo + hi) / 2 for lo, hi in zip(LO, HI, strict=True)),
)


def depth_from(team: int, area: int) -> float:
    """How far `area` is from `team`'s own goal line (centre of its rows)."""
    return _DEPTH[0][area] if team == HOME else _DEPTH[1][area]


def beyond(team: int, a: int, b: int) -> bool:
    """True if area `a` is entirely closer to the goal line `team` attacks than
    area `b` (no row of `a` is at the same level as, or behind, any row of `b`)."""
    return LO[a] > HI[b] if team == HOME else HI[a] < LO[b]


def straight(a: int, b: int) -> bool:
    """Move stays in the same column ("straight forward/backward", 4.3.1)."""
    return COL[a] == COL[b]


def backward(team: int, a: int, b: int) -> bool:
    """Move from a to b goes straight backwards towards the team's goal (4.5.1)."""
    if COL[a] != COL[b]:
        return False
    return HI[b] < LO[a] if team == HOME else LO[b] > HI[a]


def away_from_goal_line(a: int, b: int) -> bool:
    """Straight move from a goal-line area one area away from that goal line."""
    if a not in GOAL_LINE_AREAS or not straight(a, b) or b not in ADJ_SET[a]:
        return False
    return LO[b] > HI[a] if LO[a] == 0 else HI[b] < LO[a]


def attack_corner_spots(team: int) -> tuple[int, int]:
    return (A_LCK, A_RCK) if team == HOME else (H_LCK, H_RCK)


def area_modifier(team: int, area: int) -> int | None:
    """Goal attempt area modifier (4.4 table, 0/2/4/5/6); None = no attempt possible.

    Values -6 are the starred areas usable only when the goalkeeper is out of
    the penalty area (4.4.3)."""
    opp_pen = PEN[1 - team]
    if area == opp_pen:
        return 0
    if area == FRONT[1 - team]:
        return -2
    if area in GOAL_LINE_AREAS and area in DEFENCE_ZONE[1 - team]:
        return -4
    if area in MIDFIELD_ZONE:
        return -5 if in_opp_half_entirely(team, area) else -6
    return None

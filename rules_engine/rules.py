"""Pure rule computations of rulebook 3 (no state changes here).

Every function quotes the chapter it implements.  Interpretations of unclear
text are numbered I-n and explained in docs/rules-interpretations.md.
"""

from __future__ import annotations

from typing import Final

from . import board as B
from .condition import cp_plan
from .state import MatchState, TeamState

# 5.5.2 penalty table (lost in rulebook 3; the grid of the 2.x text, interpretation I-9):
# required die result for a goal, indexed [shot][goalkeeper] ("left" = the same side for both):
# 6 when the keeper is where the ball goes, 2 otherwise.
PENALTY_SIDES = ("left", "middle", "right")
PENALTY_TABLE: Final[dict[str, dict[str, int]]] = {
    "left": {"left": 6, "middle": 2, "right": 2},
    "middle": {"left": 2, "middle": 6, "right": 2},
    "right": {"left": 2, "middle": 2, "right": 6},
}


def second_last_area(dt: TeamState, dt_team: int) -> int | None:
    """Area of the defending team's second closest player to its own goal line,
    the goalkeeper included (5.1).  Ties are broken by the area centre (I-5)."""
    seen = 0
    field = dt.field
    gk = dt.gk
    for a in _BY_DEPTH[dt_team]:
        seen += field[a] + (1 if gk == a else 0)
        if seen >= 2:
            return a
    return None


# playing areas ordered by distance from each team's own goal line (centre of their rows, I-5)
_BY_DEPTH: Final[tuple[tuple[int, ...], tuple[int, ...]]] = (
    tuple(sorted(range(B.N_AREAS), key=lambda a: (B.depth_from(0, a), a))),
    tuple(sorted(range(B.N_AREAS), key=lambda a: (B.depth_from(1, a), a))),
)


def offside_position(st: MatchState, team: int, area: int, ball_area: int) -> bool:
    """Is a player of `team` (the controlling team) in `area` in an offside
    position (5.1)?"""
    if area == B.CENTRE or area >= B.N_AREAS:
        return False
    if not B.in_opp_half_entirely(team, area):
        return False
    if not B.beyond(team, area, ball_area if ball_area < B.N_AREAS else B.CORNER_OF_SPOT[ball_area]):
        return False  # at the same level as, or behind, the ball (5.1)
    sl = second_last_area(st.teams[1 - team], 1 - team)
    if sl is None:
        return False
    return B.beyond(team, area, sl)


def long_pass_steps(start: int, target: int) -> int:
    """Areas between start and target (4.1.2.2)."""
    d = B.DIST[start][target]
    return d - 1 if d > 1 else 0


def is_backward_pass(team: int, start: int, target: int) -> bool:
    """5.1: "Offside has no effect when passing backwards towards your own goal line"."""
    s = B.CORNER_OF_SPOT.get(start, start)
    return B.beyond(1 - team, target, s)


def offside_risk_increase(st: MatchState, team: int, start: int, target: int) -> int:
    """A7 offside risk: ball value increase for playing into `target`, 0 if the
    rule does not apply."""
    ts, ds = st.teams[team], st.teams[1 - team]
    if not ts.has(target) or not B.in_opp_half_entirely(team, target):
        return 0
    if st.flags.restart in ("goal_kick", "corner"):
        return 0
    s = B.CORNER_OF_SPOT.get(start, start)
    if not B.beyond(team, target, s):
        return 0  # "exactly at the same level as, or closer to ... than the start area"
    sl = second_last_area(ds, 1 - team)
    if sl is None or not B.beyond(team, target, sl):
        return 0
    if sl in B.SIDE_AREAS:
        return 0
    limit = ds.formation[0] - (1 if ds.tired else 0)  # A1 tiredness affects advanced offside
    n = ds.count(sl)
    if _affordable(st, 1 - team, "skilled_full_back"):
        n += sum(1 for a in B.ADJ[sl] if a in B.SIDE_AREAS and ds.has(a))
    return max(0, min(n, limit))


def _affordable(st: MatchState, team: int, skill: str) -> bool:
    """The team has `skill` and can pay its condition point now (A11)."""
    if not st.uses("A11") or skill not in st.teams[team].skills:
        return False
    return cp_plan(st.teams[team], B.zone_of(team, st.ball), 1) is not None


def crossing_applies(st: MatchState, team: int, start: int, target: int) -> bool:
    """Crossing (A11): a long pass from a midfield side area or a corner kick
    ignores one area."""
    if long_pass_steps(start, target) == 0:
        return False
    if start not in (B.H_LM, B.H_RM, B.A_LM, B.A_RM) and start < B.N_AREAS:
        return False
    return _affordable(st, team, "crossing")


def skilled_full_back_applies(st: MatchState, team: int, start: int, target: int) -> bool:
    """Skilled full back (A11) changes the offside-risk increase of this pass."""
    if not _affordable(st, 1 - team, "skilled_full_back"):
        return False
    with_skill = offside_risk_increase(st, team, start, target)
    skills = st.teams[1 - team].skills
    skills.remove("skilled_full_back")
    try:
        without = offside_risk_increase(st, team, start, target)
    finally:
        skills.append("skilled_full_back")
    return with_skill != without


def ball_value_after_target(
    st: MatchState, team: int, start: int, target: int, explain: bool = True
) -> tuple[int, list[str]]:
    """Raw (unclamped) ball value after the stage-1 modifications (4.1.2) and
    the list of applied modifiers for messages (left empty unless ``explain``)."""
    ts, ds = st.teams[team], st.teams[1 - team]
    v = st.value
    notes: list[str] = []
    if (
        st.flags.restart not in ("free_kick", "corner", "goal_kick")
        and start < B.N_AREAS
        and not ds.has(start)
    ):
        v -= 1
        if explain:
            notes.append("-1 no defender in start area (4.1.2.1)")
    steps = long_pass_steps(start, target)
    if crossing_applies(st, team, start, target):
        steps -= 1
    if steps:
        per = 2 if st.weather in ("windy", "storm") else 1
        v += per * steps
        if explain:
            notes.append(f"+{per * steps} long pass (4.1.2.2)")
    if steps and ts.count(target) >= 6 and ds.count(target) >= 6:
        v += 1
        if explain:
            notes.append("+1 crowded target area (4.1.2.2)")
    c, d = ts.count(target), ds.count(target)
    if c > d:
        v -= 1
        if explain:
            notes.append("-1 more players in target area (4.1.2.3)")
    elif d > c:
        v += 1
        if explain:
            notes.append("+1 more opponents in target area (4.1.2.3)")
    if st.uses("A7"):
        r = offside_risk_increase(st, team, start, target)
        if r:
            v += r
            if explain:
                notes.append(f"+{r} offside risk (A7)")
    return v, notes


def goal_attempt_modifier(st: MatchState, team: int, area: int, free_kick: bool) -> int:
    """Sum of the Goal Attempt Modifiers Table (4.4) for an attempt from `area`."""
    ts, ds = st.teams[team], st.teams[1 - team]
    opp_pen = B.PEN[1 - team]
    am = B.area_modifier(team, area)
    mod = am if am is not None else 0
    if area != opp_pen and not free_kick:
        c, d = ts.count(area), ds.count(area)
        if c > d:
            mod += 1
        elif d > c:
            mod -= 1
    c = ts.count(opp_pen)
    if c and area != opp_pen and offside_position(st, team, opp_pen, area):
        c = 0  # footnote (2): players in offside positions are not counted
    d = ds.count(opp_pen)
    if c > d:
        mod += 1
    elif d > c:
        mod -= 1
    if ds.gk != opp_pen:
        mod += 4
    mod += st.flags.attempt_bonus[team]
    mod += ds.attempt_bonus_for_opponent
    return mod


def can_attempt_from(st: MatchState, team: int, area: int) -> bool:
    """4.4 / 4.4.3: where a goal attempt can be made from."""
    am = B.area_modifier(team, area)
    if am is None:
        return False
    if am == -6:
        return st.teams[1 - team].gk != B.PEN[1 - team]
    return True


def yellow_from_test(die: int, team: int, target: int) -> bool:
    """5.6.1 yellow card test."""
    if die <= 2:
        return False
    if die == 3:
        return B.in_own_half_partly(team, target)
    return True


def closest_areas(ts: TeamState, target: int, include_gk: bool = False) -> list[int]:
    """Areas holding the team's closest player(s) to `target` (4.2.2.1)."""
    best = 99
    out: list[int] = []
    for a in range(B.N_LOC):
        if ts.field[a] > 0 or (include_gk and ts.gk == a):
            d = B.DIST[a][target]
            if d < best:
                best, out = d, [a]
            elif d == best:
                out.append(a)
    return out

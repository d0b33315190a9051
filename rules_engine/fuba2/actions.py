"""Rulebook 2.0's team action stage (4.6): "1. Goal attempt (optional, only controlling teams)
2. Player movement 3. Ball value adjustment 4. Pressing (optional, only passive teams)
5. Player substitution (optional)", with the goal attempt and its rebound (4.7), the movement
options, condition points and free movements (4.8, A1.1), the advanced goalkeeper (A5),
the ball value adjustment (4.9) and pressing (4.9.1)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from .. import board as B
from .. import decisions as D
from ..context import MatchContext
from ..errors import IllegalEventError
from ..events import Event, Pending, answer_choice, answer_dice
from . import names as N
from .ball import adjusted_value, can_press, pressing_die, pressing_wins
from .condition import condition_point_moves
from .goal import (
    CORNER_KICK,
    GOAL,
    MISS,
    REBOUND,
    area_modifier,
    attempt_modifier,
    attempt_outcome,
    difficult_outcome,
    is_difficult,
    rebound_outcome,
)
from .movement import DEFENCE, OPTIONS, moves_allowed
from .moveseq import FREE, MIXED, OPTION, Moves, closest_player, move_seq
from .restarts import CORNER, attempt_possible, goal, goal_kick, return_injured, substitution
from .turnstate import F2, NO_TEAM, players, side

Flow = Generator[Pending, Event, Any]
GK_POSITIONS: Final = (N.INSIDE, N.OUTSIDE)


def interrupted(m: MatchContext) -> bool:
    """A goal, a corner kick or the end of the half stops the turn (4.7, 5.2, 4.3.1)."""
    st = m.st
    return st.pending_restart is not None or st.half_over


# ---------------------------------------------------------------- goal attempt
def goal_attempt(m: MatchContext, g: F2, team: int, free_kick: bool) -> Flow:
    """4.7: the die plus the Goal Attempt Modifiers Table against the ball value; 4.7.1 the
    difficult attempt; 4.7.3 the rebound; a miss is a goal kick (5.3)."""
    st = m.st
    opp = 1 - team
    area = st.ball
    ct, pt = side(st, team), side(st, opp)
    a5 = st.uses("A5") and g.gk_outside[opp]
    mod = attempt_modifier(ct, pt, area, free_kick, a5)
    value = st.value
    die = answer_dice((yield m.roll(N.GOAL_ATTEMPT, team, 1, "4.7", "goal attempt")))[0]
    if is_difficult(value, mod):
        second = None
        if die == 6:
            second = answer_dice((yield m.roll(N.DIFFICULT_ATTEMPT, team, 1, "4.7.1", "difficult attempt")))[
                0
            ]
        area_mod = area_modifier(team, area, pt.gk == B.PEN[opp]) or 0
        outcome = difficult_outcome(die, second, area_mod)
    else:
        outcome = attempt_outcome(die, value, mod, ct.players(B.PEN[opp]))
    m.note("goal_attempt", team=B.TEAM_NAMES[team], area=B.NAMES[area], die=die, modifier=mod, ball=value)
    if outcome == REBOUND:
        d = answer_dice(
            (yield m.roll(N.REBOUND, None, 2, "4.7.3", "rebound: controlling, passive team's die"))
        )
        ct_die, pt_die = d[0], d[1]
        pen = B.PEN[opp]
        outcome = rebound_outcome(ct_die, pt_die, players(st, team, pen), st.teams[opp].field[pen])
        if outcome not in (GOAL, CORNER_KICK):
            # "the passive team regains possession ... The new ball value is the die score the
            # new passive player rolled for their rebound roll"
            st.ball = pen
            st.ct = opp
            st.value = ct_die
            yield from closest_player(m, g, opp, True)
            return
    if outcome == GOAL:
        goal(m, team)
    elif outcome == CORNER_KICK:
        st.pending_restart = (CORNER, team, -1)
    else:
        assert outcome == MISS
        goal_kick(m, g, opp)


# -------------------------------------------------------------------- movement
def movement(m: MatchContext, g: F2, team: int) -> Flow:
    """4.8: "The team must choose one (only one) option and make all moves according to the
    chosen option's rules", as many players as its formation has in that line (A1.3: one fewer
    when tired) less the closest player's move (4.4.2); A1.1: a condition point from the ball's
    zone mixes the movement types; then the free movements (4.8.7)."""
    st = m.st
    return_injured(m, team)  # A4, I2-22: at the beginning of the team's own movement stage
    ts = st.teams[team]
    formation = (ts.formation[0], ts.formation[1], ts.formation[2])
    zone = B.zone_of(team, st.ball) if st.ball < B.N_AREAS else B.ZONE_FWD
    used = g.turn.moved[team]
    mv: Moves
    if st.uses("A1") and ts.cp[zone] > 0:
        c = answer_choice((yield m.ask_yes_no(D.USE_CP, team, "A1.1", "use a condition point?")))
        if c == "yes":
            ts.cp[zone] -= 1
            if ts.cp_total() == 0:
                ts.tired = True  # A1.2: "If a team runs out of condition points"
            die = answer_dice((yield m.roll(N.CONDITION_POINT, team, 1, "A1.1", "condition point")))[0]
            n = condition_point_moves(die, moves_allowed(formation, OPTIONS[zone], ts.tired))
            mv = Moves(m, g, team, MIXED, "", "A1.1")
            yield from move_seq(m, mv, D.MOVE, max(0, n - used), f"move up to {n - used} players (any type)")
            yield from _after_moves(m, g, team, mv)
            return
    banned = DEFENCE if g.turn.no_defence == team else ""
    opts = tuple(o for o in OPTIONS if o != banned)

    def verify(c: Any) -> None:
        if c == banned:
            raise IllegalEventError(
                "the passive team may not choose defence movement this turn", rule="4.4.3"
            )
        if c not in OPTIONS:
            raise IllegalEventError(
                f"{c!r} is not a movement option; options: {', '.join(OPTIONS)}", rule="4.8"
            )

    option = str(
        answer_choice((yield m.ask(D.MOVEMENT_OPTION, team, "4.8", lambda: opts, verify, "movement")))
    )
    n = moves_allowed(formation, option, ts.tired) - used
    mv = Moves(m, g, team, OPTION, option, "4.8")
    yield from move_seq(m, mv, D.MOVE, max(0, n), f"{option} movement: up to {n} players")
    yield from _after_moves(m, g, team, mv)


def _after_moves(m: MatchContext, g: F2, team: int, mv: Moves) -> Flow:
    st = m.st
    ts = st.teams[team]
    if st.uses("A5") and ts.gk == B.PEN[team] and not mv.gk_moved:
        # A5: "A goal keeper can freely change the position when the team makes movements if
        # the goal keeper is not otherwise moved"
        now = GK_POSITIONS[1 if g.gk_outside[team] else 0]
        c = answer_choice(
            (
                yield m.ask(
                    D.GOALKEEPER_POSITION, team, "A5", lambda: GK_POSITIONS, None, "goalkeeper", False, now
                )
            )
        )
        g.gk_outside[team] = c == N.OUTSIDE
    free = Moves(m, g, team, FREE, "", "4.8.7")
    free.arrived = mv.arrived
    yield from move_seq(m, free, D.FREE_MOVE, 99, "free movements (4.8.7)")


# ---------------------------------------------------------------- action stage
def action_stage(m: MatchContext, g: F2, team: int, attempt: bool = False) -> Flow:
    """4.6: one team's action stage; ``attempt``: the free kick's goal attempt (5.1)."""
    st = m.st
    if team == st.ct and attempt_possible(m, team):
        c = "yes"
        if not attempt:
            c = answer_choice((yield m.ask_yes_no(D.GOAL_ATTEMPT, team, "4.7", "goal attempt?")))
        if c == "yes":
            yield from goal_attempt(m, g, team, attempt)
            if interrupted(m):
                return
    yield from movement(m, g, team)
    # 4.9: "After the team has finished it moves the ball value is adjusted"
    if st.ball < B.N_AREAS:
        st.value = adjusted_value(st.value, players(st, st.ct, st.ball), players(st, st.dt, st.ball))
    if team == st.dt and can_press(players(st, team, st.ball), g.before_goal_kick):
        c = answer_choice((yield m.ask_yes_no(D.PRESSING, team, "4.9.1", "pressing?")))
        if c == "yes":
            yield from pressing(m, g, team)
    if st.uses("A3"):
        while st.teams[team].subs_used < 3 and (yield from substitution(m, team)):
            pass


def pressing(m: MatchContext, g: F2, team: int) -> Flow:
    """4.9.1: one die; below the ball value the team wins the ball at that value; otherwise "the
    opponent will automatically pass the control check in the next turn"; A5's -1 (I2-14)."""
    st = m.st
    die = answer_dice((yield m.roll(N.PRESSING, team, 1, "4.9.1", "pressing")))[0]
    die = pressing_die(die, st.uses("A5") and g.gk_outside[team] and st.teams[team].gk == B.PEN[team])
    if pressing_wins(die, st.value):
        st.ct = team
        st.value = die
        g.press_failed_by = NO_TEAM
        m.note("pressing_won", team=B.TEAM_NAMES[team], area=B.NAMES[st.ball])
    else:
        g.press_failed_by = team

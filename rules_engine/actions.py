"""Actions of the action stage (4.3-4.7, A6) as verify_*/can_*/action trios,
and the action stage itself (order, free movements 4.3.1, second actions 4.3.2).

``verify_X(m, team)`` raises IllegalEventError with the reason and chapter;
``can_X(m, team)`` returns a bool; ``X(m, team)`` is the generator that plays
the action (asking for its dice and decisions).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from . import board as B
from . import decisions as D
from .cards import give_yellow, yellow_test
from .condition import can_spend, coach_asked, pay, spend
from .context import MatchContext
from .errors import IllegalEventError
from .events import Event, Pending, answer_choice, answer_dice
from .free_moves import free_movements
from .moves import MoveCtx, closest_player, move_seq
from .rules import can_attempt_from, goal_attempt_modifier, offside_position
from .setpieces import goal
from .skill_hooks import player_count, spend_skill
from .skills import CATALOGUE, any_skill, attempt_skills, keeper_alone, offer, skill_active

Flow = Generator[Pending, Event, Any]
ACTIONS: Final[tuple[str, ...]] = (
    "goal_attempt",
    "movement",
    "positioning",
    "pressing",
    "aggressive_pressing",
)


def interrupted(m: MatchContext) -> bool:
    st = m.st
    return st.pending_restart is not None or st.half_over


def _illegal(reason: str, rule: str) -> IllegalEventError:
    return IllegalEventError(reason, rule=rule)


# ---------------------------------------------------------------- goal attempt
def goal_attempt_problem(m: MatchContext, team: int) -> str | None:
    st = m.st
    if team != st.ct:
        return "only the controlling team can make a goal attempt"
    if not can_attempt_from(st, team, st.ball):
        gk_out = st.teams[1 - team].gk != B.PEN[1 - team]
        return f"no goal attempt is possible from {B.NAMES[st.ball]}" + (
            "" if gk_out else " while the goalkeeper is in the penalty area (4.4.3)"
        )
    return None


def verify_goal_attempt(m: MatchContext, team: int) -> None:
    why = goal_attempt_problem(m, team)
    if why:
        raise _illegal(why, "4.4")


def can_goal_attempt(m: MatchContext, team: int) -> bool:
    return goal_attempt_problem(m, team) is None


def goal_attempt(m: MatchContext, team: int, free_kick: bool = False) -> Flow:
    """4.4 goal attempt, 4.4.1 rebound, 4.4.2 difficult goal attempt."""
    st = m.st
    area = st.ball
    opp = 1 - team
    mod = goal_attempt_modifier(st, team, area, free_kick)
    if any_skill(m, _ATTEMPT_SKILLS):
        mod += yield from _attempt_skills(m, team, area)
    n = 2 if st.flags.shot_stopper else 1
    dice = answer_dice((yield m.roll("goal_attempt", team, n, "4.4", "goal attempt")))
    d = min(dice)
    if st.flags.aggressive_striker and d <= 2:
        yield from give_yellow(m, team, "aggressive striker (A11)")
        st.pending_restart = ("free_kick", opp, area)
        return
    v = st.value
    total = d + mod
    am = B.area_modifier(team, area) or 0
    m.note("goal_attempt", team=B.TEAM_NAMES[team], area=B.NAMES[area], die=d, modifier=mod, ball=v)
    if v - mod >= 6 and d == 6:
        # 4.4.2 difficult goal attempt: a 6 allows a second roll against the area modifier
        r = answer_dice((yield m.roll("difficult_goal_attempt", team, 1, "4.4.2", "second roll")))[0]
        if r > -am:
            yield from goal(m, team, area)
        elif r == -am:
            st.pending_restart = ("corner", team, area)
        else:
            st.pending_restart = ("goal_kick", opp, B.PEN[opp])
        return
    if total > v:
        yield from goal(m, team, area)
    elif total == v:
        st.pending_restart = ("corner", team, area)
    elif total == v - 1 and st.teams[team].has(B.PEN[opp]):
        yield from rebound(m, team)
    else:
        st.pending_restart = ("goal_kick", opp, B.PEN[opp])


# the skills attempt_skills offers (any_skill: not entered without one)
_ATTEMPT_SKILLS: Final = frozenset(
    ("clinical_finisher", "aggressive_striker", "trained_special_event", "shot_stopper", "leading_goalkeeper")
)


def _attempt_skills(m: MatchContext, team: int, area: int) -> Generator[Pending, Event, int]:
    return (yield from attempt_skills(m, team, area))


def rebound(m: MatchContext, team: int) -> Flow:
    """4.4.1: both roll; + players in the penalty area (defending goalkeeper not counted)."""
    st = m.st
    opp = 1 - team
    pen = B.PEN[opp]
    d = answer_dice(
        (yield m.roll("rebound", None, 2, "4.4.1", "rebound: controlling team die, defending team die"))
    )
    a = d[0] + st.teams[team].count(pen)
    b = d[1] + min(6, st.teams[opp].field[pen])
    if a > b:
        yield from goal(m, team, pen)
    elif a == b:
        st.pending_restart = ("corner", team, pen)
    else:
        # I-34: the rebound happens in the penalty area; the ball stays there
        st.ct = opp
        st.value = d[1]
        st.ball = pen
        if not st.teams[opp].has(pen):
            yield from closest_player(m, opp)


# -------------------------------------------------------------------- pressing
def pressing_problem(m: MatchContext, team: int, aggressive: bool = False) -> tuple[str, str] | None:
    """(reason, rule) why the team cannot press now, or None."""
    st = m.st
    if team != st.dt:
        return "only the defending team can press", "4.7"
    ours, theirs = player_count(m, team, st.ball), player_count(m, 1 - team, st.ball)
    if aggressive:
        if "A6" not in st.advanced:
            return "aggressive pressing is not used in this match", "A6"
        if not can_spend(m, team, _aggr_cost(m)):
            return "aggressive pressing needs a condition point from the ball zone (A1)", "A6"
        if ours < theirs - 1:
            return (
                "aggressive pressing needs at most one player fewer than the opponent in the ball area",
                "A6",
            )
    elif ours < theirs:
        return (
            f"pressing needs at least as many players as the opponent in {B.NAMES[st.ball]} "
            f"({ours} against {theirs})",
            "4.7",
        )
    return None


def verify_pressing(m: MatchContext, team: int, aggressive: bool = False) -> None:
    why = pressing_problem(m, team, aggressive)
    if why:
        raise _illegal(*why)


def can_pressing(m: MatchContext, team: int, aggressive: bool = False) -> bool:
    return pressing_problem(m, team, aggressive) is None


def _aggr_cost(m: MatchContext) -> int:
    return 2 if m.st.weather in ("heat", "extreme_heat") else 1


def pressing(m: MatchContext, team: int, aggressive: bool = False, free: bool = False) -> Flow:
    """4.7 pressing; A6 aggressive pressing; A10 V.A.R. after a won ball in a penalty area."""
    st = m.st
    if aggressive and not free:
        if coach_asked(m, team, _aggr_cost(m)):
            yield from spend(m, team, _aggr_cost(m))
        else:
            pay(m, team, _aggr_cost(m))
    # midfield pressing changes nothing in an aggressive pressing (A6 already wins on an equal
    # die, and a failure is a free kick): its point is not paid there
    mid_press = not aggressive and skill_active(m, team, "midfield_pressing") and st.ball in B.MIDFIELD_ZONE
    if mid_press:
        pay(m, team, 1, for_action=False)
    d = answer_dice((yield m.roll("pressing", team, 2, "A6" if aggressive else "4.7", "pressing")))
    v = st.value
    eq = aggressive or mid_press
    won = [x for x in d if x < v or (eq and x == v)]
    if won:
        st.ct = team
        # 4.7: "If both dice values are lower than the ball value, the lower pressing die value
        # becomes the new ball value. If only one die was lower, the higher pressing die value
        # becomes the new ball value." A die equal to the ball value wins an aggressive or
        # midfield pressing (A6 "successful if the die result equals the ball value") but is not lower.
        st.value = min(d) if d[0] < v and d[1] < v else max(d)
        m.note("pressing_won", team=B.TEAM_NAMES[team], area=B.NAMES[st.ball])
        if not st.teams[team].has(st.ball):
            # I-18: won with no player there (aggressive pressing one fewer): 4.2.2.1 applies
            yield from closest_player(m, team)
        if (
            "A11" in st.advanced
            and not free
            and (
                "skilled_wing_backs" in st.teams[team].skills or "gegenpressing" in st.teams[1 - team].skills
            )
        ):
            yield from after_pressing(m, team)
        if "A10" in st.advanced and st.ball in B.PEN:
            vd = answer_dice((yield m.roll("var", team, 2, "A10", "V.A.R. check of the pressing")))
            if vd == (6, 6):
                yield from yellow_test(m, team, "V.A.R. (A10)")
                st.pending_restart = ("free_kick", 1 - team, st.ball)
        return
    if aggressive:
        tackler = (
            skill_active(m, team, "tackler")
            and B.zone_of(team, st.ball) == B.ZONE_DEF
            and not keeper_alone(m, team, st.ball)
        )
        if tackler and d[0] != d[1]:
            return
        yield from yellow_test(m, team, "failed aggressive pressing (A6)")
        st.pending_restart = ("free_kick", 1 - team, st.flags.target)
    elif not mid_press:
        st.value = max(1, v - 1)


# ----------------------------------------------------------------- positioning
def after_pressing(m: MatchContext, presser: int) -> Flow:
    """Skilled wing backs (the presser) and gegenpressing (the team that lost the ball)."""
    st = m.st
    if B.zone_of(presser, st.ball) == B.ZONE_DEF:
        cands = tuple(B.NAMES[a] for a in B.ADJ[st.ball] if a < B.N_AREAS and st.teams[presser].has(a))
        if cands and (
            "skilled_wing_backs" in m.st.teams[presser].skills
            and (yield from offer(m, presser, "skilled_wing_backs"))
        ):
            c = answer_choice(
                (yield m.ask(D.SKILL_BALL_AREA, presser, "A11", lambda: cands, None, "move the ball"))
            )
            st.ball = B.INDEX[c]
    loser = 1 - presser
    # "a successful pressing action in an area that is fully on their side of the pitch":
    # on the pressing team's side, so never in the centre area nor in the loser's half
    if not B.in_opp_half_entirely(loser, st.ball):
        return
    if st.pending_restart is None and (
        "gegenpressing" in m.st.teams[loser].skills
        and _counter_press_possible(m, loser)
        and (yield from offer(m, loser, "gegenpressing"))
    ):
        aggressive = (
            can_pressing(m, loser, True)
            and answer_choice(
                (yield m.ask_yes_no(D.GEGENPRESSING_AGGRESSIVE, loser, "A11", "aggressive counter-press?"))
            )
            == "yes"
        )
        if aggressive or can_pressing(m, loser):
            yield from pressing(m, loser, aggressive=aggressive)


def _counter_press_possible(m: MatchContext, team: int) -> bool:
    """Gegenpressing "is done according to the pressing rule" (A11): it is offered only when an
    ordinary pressing is possible, or an aggressive one with the skill's point paid as well."""
    if can_pressing(m, team):
        return True
    return can_pressing(m, team, True) and can_spend(m, team, CATALOGUE["gegenpressing"][0] + _aggr_cost(m))


def positioning(m: MatchContext, team: int, mediano: bool = False) -> Flow:
    """4.6 positioning (A1: a condition point adds one step, max two steps;
    A11 il mediano: one extra step in a repeated positioning)."""
    st = m.st
    if mediano:
        spend_skill(m, team, "il_mediano")
    d = answer_dice((yield m.roll("positioning", team, 2, "4.6", "positioning")))
    v = st.value
    ours, theirs = player_count(m, team, st.ball), player_count(m, 1 - team, st.ball)
    # (counted in a loop, not sum() over a generator: a generator per roll in plain Python)
    steps = 0
    if team == st.dt:
        sign = 1
        for x in d:
            if x > v:
                steps += 1
    else:
        sign = -1
        for x in d:
            if x < v:
                steps += 1
    if ours > theirs and steps < 2:
        steps += 1
    if ours == 0:
        steps = max(0, steps - 1)
    limit = 2
    if (steps < 2 or _limit_lifted(m, team)) and can_spend(m, team):
        # a step the ball value cannot take (it is at 1 or 6 already, or the limit of two steps
        # holds) changes nothing in play: the question is moot (a page answers "no" itself,
        # pending.moot); it is still asked, since a team may spend the point all the same
        bonus = 1 if mediano else 0
        lifted = 6 if _limit_lifted(m, team) else limit
        without = min(6, max(1, v + sign * min(steps + bonus, limit)))
        moot = without == min(6, max(1, v + sign * min(steps + 1 + bonus, lifted)))
        c = answer_choice(
            (yield m.ask_yes_no(D.USE_CP, team, "A1", "use a condition point for one more step?", moot))
        )
        if c == "yes":
            if coach_asked(m, team):
                yield from spend(m, team)
            else:
                pay(m, team)
            steps += 1
            if _limit_lifted(m, team):
                limit = 6
    if mediano:
        steps += 1
    st.value = min(6, max(1, v + sign * min(steps, limit)))


def _limit_lifted(m: MatchContext, team: int) -> bool:
    st = m.st
    zone = B.zone_of(team, st.ball)
    if (
        team == st.dt
        and zone == B.ZONE_DEF
        and skill_active(m, team, "doubling_up")
        and not keeper_alone(m, team, st.ball)
    ):
        return True
    return team == st.ct and zone == B.ZONE_MID and skill_active(m, team, "short_passes")


# -------------------------------------------------------------------- movement
def movement(m: MatchContext, team: int) -> Flow:
    """4.5 movement action: lower die moves (A1: higher die for a point), at
    least the formation line of the ball zone; 4.5.1 offside; 4.5.2 dribbling."""
    st = m.st
    ts = st.teams[team]
    d = answer_dice((yield m.roll("movement", team, 2, "4.5", "movement")))
    lo, hi = min(d), max(d)
    zone = B.zone_of(team, st.ball)
    if ts.formation[zone] == 0:
        lo, hi = lo - 1, hi - 1
    minimum = ts.formation[zone] - (1 if ts.tired else 0)
    n = lo
    if hi > max(lo, minimum) and can_spend(m, team):
        c = answer_choice(
            (yield m.ask_yes_no(D.USE_CP, team, "A1", "use a condition point to use the higher die?"))
        )
        if c == "yes":
            if coach_asked(m, team):
                yield from spend(m, team)
            else:
                pay(m, team)
            n = hi + (1 if skill_active(m, team, "great_condition") else 0)
    n = max(n, minimum, 0)

    start_counts = (ts.count(st.ball), st.teams[1 - team].count(st.ball))

    def dribble(src: int, dst: int) -> str | None:
        dribbler_ok = (
            skill_active(m, team, "dribbler")
            and src in B.MIDFIELD_ZONE
            and start_counts[0] >= start_counts[1]
            and not st.teams[1 - team].has(dst)
        )
        if st.teams[1 - team].has(src) and st.flags.momentum != team and not dribbler_ok:
            return f"there are defending players in {B.NAMES[src]} (4.5.2)"
        if ts.field[src] - st.flags.moved_turn[team][src] <= 0:
            return "every player of yours there has already moved this turn (4.5.2)"
        return None

    ctx = MoveCtx(m, team, "4.5", dribble=dribble if team == st.ct else None)
    yield from move_seq(m, ctx, D.MOVE, n, f"move up to {n} players one area")
    src = ctx.dribble_src
    if ctx.dribbled and st.teams[1 - team].has(src) and st.flags.momentum != team:
        spend_skill(m, team, "dribbler", area=src)


# ---------------------------------------------------------------- action stage
def _mediano(m: MatchContext, team: int, exclude: str) -> bool:
    """Il mediano (A11): the defending team may repeat positioning as its second action."""
    st = m.st
    return (
        exclude == "positioning"
        and team == st.dt
        and st.ball in B.MIDFIELD_ZONE
        and skill_active(m, team, "il_mediano")
    )


def action_options(m: MatchContext, team: int, exclude: str = "") -> tuple[str, ...]:
    out = []
    for a in ACTIONS:
        if a == exclude and a == "positioning" and _mediano(m, team, exclude):
            out.append(a)
            continue
        if a == exclude or (exclude in ("pressing", "aggressive_pressing") and a.endswith("pressing")):
            continue
        if a == "goal_attempt" and not can_goal_attempt(m, team):
            continue
        if a == "pressing" and not can_pressing(m, team):
            continue
        if a == "aggressive_pressing" and not can_pressing(m, team, True):
            continue
        out.append(a)
    return tuple(out)


def _action_problem(m: MatchContext, team: int, exclude: str, forced: str, c: Any) -> tuple[str, str] | None:
    """(reason, rule) why ``c`` cannot answer the action request, or None: the one check behind
    both the request's ``verify`` (a user's answer) and its ``check`` (an engine coach's probe)."""
    if forced and c != forced:
        return f"the first action must be a {forced}", "5.2.2"
    if c not in ACTIONS:
        return f"{c!r} is not an action; actions: {', '.join(ACTIONS)}", "4.3"
    if c == exclude and _mediano(m, team, exclude):
        return None
    if c == exclude or (exclude.endswith("pressing") and str(c).endswith("pressing")):
        return f"a second action must differ from the first ({exclude})", "4.3.2"
    if c == "goal_attempt":
        why = goal_attempt_problem(m, team)
        return None if why is None else (why, "4.4")
    if c == "pressing" or c == "aggressive_pressing":
        return pressing_problem(m, team, c == "aggressive_pressing")
    return None


def _ask_action(m: MatchContext, team: int, exclude: str, forced: str) -> Pending:
    """4.3: the request for ``team``'s action (``exclude``: its first action, when this is its
    second; ``forced``: the one action it must play, 5.2.2).  ``check`` gives an engine coach
    the verdict on the one or two actions it considers: listing the options checks the goal
    attempt and both pressings every time."""

    def options() -> tuple[str, ...]:
        return (forced,) if forced else action_options(m, team, exclude)

    def verify(c: Any) -> None:
        why = _action_problem(m, team, exclude, forced, c)
        if why is not None:
            raise _illegal(*why)

    def check(c: Any) -> str | None:
        why = _action_problem(m, team, exclude, forced, c)
        return None if why is None else why[0]

    return m.ask(D.ACTION, team, "4.3", options, verify, "choose an action", check=check)


def action_stage(m: MatchContext, first: int, forced_first: str = "") -> Flow:
    """4.3: first team acts, then the other; then optional second actions.

    Each action is asked and played here, not in a generator of its own: every event of the
    stage (free movements, the action, its dice) passes through each generator level between the
    match and the rule that asks for it."""
    st = m.st
    st.stage = 3
    order = (first, 1 - first)
    done = ["", ""]  # each team's first action
    for i in range(4):  # the first actions, then the second actions (4.3.2)
        team = order[i % 2]
        if i == 2:
            if interrupted(m):
                return
            if player_count(m, st.dt, st.ball) > player_count(m, st.ct, st.ball):
                return
            yes = answer_choice(
                (yield m.ask_yes_no(D.SECOND_ACTIONS, st.ct, "4.3.2", "play second actions?"))
            )
            if yes != "yes":
                return
        if interrupted(m):
            return
        forced = forced_first if i == 0 else ""
        exclude = done[team] if i >= 2 else ""
        if i < 2:
            yield from free_movements(m, team)
        elif st.flags.momentum == team:
            # A13 Momentum: "if it chooses a movement action for its first action"
            st.flags.momentum = -1
        # one of ACTIONS: verify passed it (typed, the compiled match compares it as a string)
        c: str = answer_choice((yield _ask_action(m, team, exclude, forced)))
        if c == "goal_attempt":
            yield from goal_attempt(m, team, free_kick=forced == "goal_attempt")
        elif c == "movement":
            yield from movement(m, team)
        elif c == "positioning":
            yield from positioning(m, team, mediano=c == exclude)
        else:
            yield from pressing(m, team, aggressive=c == "aggressive_pressing")
        if i < 2:
            done[team] = c
            # A13 terrace chant: "can use a free condition point for that action" (the first one)
            st.flags.free_cp = -1


__all__ = ["offside_position"]

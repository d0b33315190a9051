"""The match flow: match preparation (3), halves and turns (4) with the three
stages: 1 target area and ball value (4.1), 2 game situation progress (4.2),
3 action stage (4.3)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from . import board as B
from . import decisions as D
from .actions import action_stage, interrupted, pressing
from .cards import return_injured
from .clock import advance_clock
from .condition import tiredness_tests
from .context import MatchContext
from .errors import IllegalEventError
from .events import Decision, Event, Pending, Roll, answer_choice, answer_dice
from .moves import MoveCtx, closest_player, move_seq
from .rules import (
    ball_value_after_target,
    crossing_applies,
    is_backward_pass,
    offside_position,
    second_last_area,
    skilled_full_back_applies,
)
from .setpieces import award_free_kick, corner, goal_kick, kick_off, penalty
from .skill_hooks import before_actions, diver, end_of_action_stage, end_of_stage2, offside_trap, spend_skill
from .skills import any_skill, keeper_alone, offer, skill_active
from .special_events import Special, resolve
from .state import MatchState, TurnFlags
from .substitutions import half_time_changes, substitutions
from .weather import WEATHER_BY_DOUBLE, second_half_weather

Flow = Generator[Pending, Event, Any]


def match_flow(m: MatchContext) -> Flow:
    """The whole match: preparation (3), the two halves (4), extra time when it is played (I-38).

    The halves and their turns are played here, not in a generator of their own: every event of
    a match passes through each generator level between the match and the rule that asks for it."""
    st = m.st
    starter = yield from _preparation(m)
    halves = (1, 2)
    while True:
        for half in halves:
            st.half = half
            st.clock = 0
            st.stoppage = 0
            st.half_over = False
            st.half_over_at_turn_end = False
            st.pending_restart = None
            st.next_free_kick_attempt = False
            ct = starter if half == halves[0] else 1 - starter
            st.ct = ct
            if half > 1:
                yield from _break(m, half)
            st.stage = "setup"
            yield from kick_off(m, ct)
            while not st.half_over:
                # one turn
                f = _new_turn(st)
                if st.next_free_kick_attempt:
                    # 5.2.2: the turn continues from the action stage, the goal attempt is the first action
                    st.next_free_kick_attempt = False
                    yield from action_stage(m, st.ct, forced_first="goal_attempt")
                else:
                    yield from stage1(m)
                    first = yield from stage2(m)
                    if first is not None and st.pending_restart is None and not st.half_over:
                        # the action stage inlined here: one generator level less for every stage-3 event
                        yield from action_stage(m, first, forced_first=f.forced_first)
                        # read again through a call: the action stage changes both (and mypyc
                        # would otherwise trust the narrowing of the test above)
                        if (
                            "A11" in st.advanced
                            and _play_goes_on(st)
                            and any_skill(m, _END_OF_ACTIONS_SKILLS)
                        ):
                            yield from end_of_action_stage(m)
                if not _end_of_turn_quiet(m):
                    yield from _end_of_turn_asks(m)
        if halves[0] != 1:
            break
        st.score_after_90 = (st.teams[0].goals, st.teams[1].goals)
        if not st.header.extra_time:
            break
        # I-38: whether the 90 minutes leave the tie level is the competition's question (a
        # second leg counts the first); the home team writes the answer down
        c = answer_choice((yield m.ask_yes_no(D.EXTRA_TIME, 0, "I-38", "play extra time?")))
        if c != "yes":
            break
        st.extra_time_played = True
        st.half_length = 15
        st.turns_per_half.extend((0, 0))
        m.note("extra_time", score=st.score())
        halves = (3, 4)
    st.over = True
    st.stage = "over"
    m.note("full_time", score=st.score())


def _preparation(m: MatchContext) -> Generator[Pending, Event, int]:
    """3.2: the kick-off dice (a double again; the first double's weather, A9) and the winner's
    choice; returns the team that starts the first half with the ball."""
    st = m.st
    st.stage = "preparation"
    for ts in st.teams:
        ts.field[B.CENTRE] = 10 - ts.spec.players_short  # placed properly by the kick-off set-up
    first = True
    while True:
        d = answer_dice((yield m.roll("kick_off", None, 2, "3.2", "who kicks off: home die, away die")))
        if first and d[0] == d[1] and "A9" in st.advanced:
            st.weather = WEATHER_BY_DOUBLE[d[0]]
            m.note("weather", weather=st.weather)
        first = False
        if d[0] != d[1]:
            break
    winner = 0 if d[0] > d[1] else 1
    c = answer_choice(
        (yield m.ask(D.KICK_OFF_TEAM, winner, "3.2", lambda: B.TEAM_NAMES, None, "who starts with the ball?"))
    )
    starter = B.TEAM_NAMES.index(c)
    st.first_half_starter = starter
    return starter


def _break(m: MatchContext, half: int) -> Flow:
    """The break before a half (not the first): players off the corner spots, the weather of
    the second half, changes at half time and before extra time."""
    st = m.st
    st.stage = "half_time"
    if half != 3:  # (the break before extra time has its own note)
        m.note("half_time", score=st.score())
    for ts in st.teams:
        ts.field[B.CENTRE] += sum(ts.field[a] for a in B.CORNER_SPOTS)
        for a in B.CORNER_SPOTS:
            ts.field[a] = 0
    if half == 2:
        yield from second_half_weather(m)
    if half in (2, 3):  # half time, and the break before extra time (I-38)
        yield from half_time_changes(m)


def _new_turn(st: MatchState) -> TurnFlags:
    """The bookkeeping of a new turn: its number, its fresh flags."""
    st.turn += 1
    st.turns_per_half[st.half - 1] += 1
    f = TurnFlags()
    f.restart = st.next_restart
    f.ct_at_start = st.ct
    f.start = st.ball
    f.target = st.ball
    st.flags = f
    st.next_restart = ""
    return f


def _play_goes_on(st: MatchState) -> bool:
    return st.pending_restart is None and not st.half_over


# ------------------------------------------------------------------- stage 1
def verify_target_area(m: MatchContext, team: int, target: int, fallback: bool = True) -> int:
    """4.1.1-4.1.2: raise if `target` cannot be chosen; return the new ball value.

    I-17: when no area at all is legal, the ball is played within the start
    area with the ball value capped at 6 (the rulebook has no rule for this)."""
    st = m.st
    f = st.flags
    ts = st.teams[team]
    start = f.start
    name = B.NAMES[target]
    if target >= B.N_AREAS:
        raise IllegalEventError(f"target area {name} is a corner-kick spot, not a playing area", rule="4.1.1")
    if f.restart == "free_kick" and target == start and ts.raw(start) < 2:
        raise IllegalEventError(
            f"target area {name} is illegal: a free kick can be played within its area only with two "
            "of your players there (5.2.2)",
            rule="5.2.2",
        )
    tf, tg = ts.field, ts.gk
    if not (target == start or tf[target] > 0 or tg == target or _player_in(tf, tg, B.ADJ[target])):
        raise IllegalEventError(
            f"target area {name} is illegal: you have no player there or in an adjacent area", rule="4.1.1"
        )
    offside_applies = f.restart not in ("goal_kick", "corner") and not is_backward_pass(team, start, target)
    if offside_applies:
        if tf[target] > 0 or tg == target:
            if offside_position(st, team, target, start) and "A7" not in st.advanced:
                raise IllegalEventError(
                    f"target area {name} is illegal: your player there is offside (5.1){_where(st, team)}",
                    rule="4.1.1.1",
                )
        else:
            near = [a for a in B.ADJ[target] if tf[a] > 0 or tg == a]
            if near and all(offside_position(st, team, a, start) for a in near):
                raise IllegalEventError(
                    f"target area {name} is illegal: all your players next to it are offside (5.1)"
                    + _where(st, team),
                    rule="4.1.1.1",
                )
    v, _ = ball_value_after_target(st, team, start, target, explain=False)
    if v > 6:
        if (
            fallback
            and target == start
            and not any(_legal(m, team, a) for a in range(B.N_AREAS) if a != start)
        ):
            return 6
        _, notes = ball_value_after_target(st, team, start, target)  # the modifiers, for the message
        raise IllegalEventError(
            f"target area {name} is illegal: the ball value would be {v} (over 6): " + ", ".join(notes),
            rule="4.1.2",
        )
    return max(1, v)


def _player_in(field: list[int], gk: int, areas: tuple[int, ...]) -> bool:
    """Whether a team (its players by area, its goalkeeper's area) has a player in one of
    ``areas`` (a loop, not any() over a generator: a generator per test in plain Python)."""
    for a in areas:  # noqa: SIM110
        if field[a] > 0 or gk == a:
            return True
    return False


def _where(st: MatchState, team: int) -> str:
    """Where the defending team's second-last player is (for offside messages)."""
    sl = second_last_area(st.teams[1 - team], 1 - team)
    return f"; the defending team's second-last player is in {B.NAMES[sl]}" if sl is not None else ""


def _legal(m: MatchContext, team: int, a: int) -> bool:
    try:
        verify_target_area(m, team, a, fallback=False)
    except IllegalEventError:
        return False
    return True


def target_options(m: MatchContext, team: int) -> tuple[str, ...]:
    out = []
    for a in range(B.N_AREAS):
        try:
            verify_target_area(m, team, a)
        except IllegalEventError:
            continue
        out.append(B.NAMES[a])
    return tuple(out)


def stage1(m: MatchContext) -> Flow:
    st = m.st
    st.stage = 1
    team = st.ct
    f = st.flags
    if (
        f.start == B.PEN[team]
        and "A11" in st.advanced
        and (
            "creative_goalkeeper" in m.st.teams[team].skills
            and (yield from offer(m, team, "creative_goalkeeper"))
        )
    ):
        ctx = MoveCtx(m, team, "A11")
        yield from move_seq(m, ctx, D.MOVE, 1, "creative goalkeeper: move one player")

    verified: list[int] = []

    def verify(c: Any) -> None:
        if type(c) is not str or c not in B.INDEX:
            raise IllegalEventError(f"{c!r} is not an area name", rule="1.4")
        verified.append(verify_target_area(m, team, B.INDEX[c]))

    ev = yield m.ask(D.TARGET_AREA, team, "4.1.1", lambda: target_options(m, team), verify)
    c: str = ev.choice if type(ev) is Decision else ""  # (answer_choice inlined: asked every turn)
    target = B.INDEX[c]
    v = verified[-1]
    f.long_pass = max(0, B.DIST[f.start][target] - 1)
    if "A11" in st.advanced:
        if crossing_applies(st, team, f.start, target):
            spend_skill(m, team, "crossing")
        if "A7" in st.advanced and skilled_full_back_applies(st, team, f.start, target):
            spend_skill(m, 1 - team, "skilled_full_back")
    f.offside_risk = (
        "A7" in st.advanced and st.teams[team].has(target) and offside_position(st, team, target, f.start)
    )
    f.had_player_in_target = (st.teams[0].has(target), st.teams[1].has(target))
    f.target = target
    st.ball = target
    st.value = v
    # A5 goalkeeper charge, decided at the end of stage 1
    dt = 1 - team
    dts = st.teams[dt]
    if "A5" in st.advanced and f.start != target and dts.gk >= 0:
        sunshine = st.weather == "sunshine" and st.half == 1 and dt == st.first_half_starter
        in_pen = target == B.PEN[dt] and dts.gk == target
        adv = (
            target in B.ADJ_SET[B.PEN[dt]]
            and dts.gk == target
            and skill_active(m, dt, "advancing_goalkeeper")
        )
        if (in_pen or adv) and not sunshine and f.start != B.PEN[dt]:
            c2 = answer_choice(
                (yield m.ask_yes_no(D.GOALKEEPER_CHARGE, dt, "A5", "charge out from the goal?"))
            )
            if c2 == "yes":
                f.charge = True
                if adv:
                    spend_skill(m, dt, "advancing_goalkeeper")
                step = 1
                if "sweeper_keeper" in m.st.teams[dt].skills and (yield from offer(m, dt, "sweeper_keeper")):
                    step = 2
                st.value = min(6, st.value + step)
                if not adv:
                    f.attempt_bonus[team] += 1


# ------------------------------------------------------------------- stage 2
def _time(m: MatchContext, a: int, b: int) -> int:
    """4.2.1 time adjustment: _HALF_OVER if the half ended immediately, _TIREDNESS when the
    tiredness tests follow (A1), else _GOES_ON (a plain function: the tests are rare)."""
    st = m.st
    diff = abs(a - b)
    if st.stoppage:
        if diff < st.stoppage:
            if st.ball in B.PEN:
                st.half_over_at_turn_end = True  # "the half ends at the end of that turn"
                return _GOES_ON
            st.half_over = True
            return _HALF_OVER
        if st.stoppage < 5:
            st.stoppage += 1
        if st.stoppage >= 5:
            st.half_over_at_turn_end = True
        return _GOES_ON
    moved = advance_clock(m, diff if diff else a)
    if st.stoppage >= 5:
        st.half_over_at_turn_end = True
    if moved >= 5 and "A1" in st.advanced:
        return _TIREDNESS
    return _GOES_ON


_HALF_OVER: Final = 0
_GOES_ON: Final = 1
_TIREDNESS: Final = 2
# the skills the hooks of the stage-2 flow offer (any_skill: no hook entered without one)
_END_OF_STAGE2_SKILLS: Final = frozenset(("fanatic_fans", "catenaccio"))
_BEFORE_ACTIONS_SKILLS: Final = frozenset(("goal_poacher", "seconda_punta", "target_man", "regista"))
_MIDFIELD_GENERAL: Final = frozenset(("midfield_general",))
_END_OF_ACTIONS_SKILLS: Final = frozenset(("trained_formation_change",))


def stage2(m: MatchContext) -> Generator[Pending, Event, int | None]:
    """Returns the team playing the first action, or None if the action stage
    is not played."""
    st = m.st
    st.stage = 2
    f = st.flags
    ct0 = st.ct
    dt0 = 1 - ct0
    ev = yield m.roll("situation", ct0, 2, "4.2", "game situation: two dice")
    a, b = ev.dice if type(ev) is Roll else ()  # (answer_dice inlined: rolled every turn)
    v = st.value
    t = _time(m, a, b)
    if t == _HALF_OVER:
        return None
    if t == _TIREDNESS:
        yield from tiredness_tests(m)
    sp = Special()
    if a == b and "A13" in st.advanced:
        if "A11" in st.advanced and (yield from diver(m, ct0)):
            return None
        sp = yield from resolve(m, ct0)
        if interrupted(m):
            return None
    if (
        "A11" in st.advanced
        and f.offside_risk
        and (a >= v) != (b >= v)
        and "offside_trap" in st.teams[dt0].skills
        and (yield from offside_trap(m, ct0, a, b, v))
    ):
        return None
    # 4.2.2 control check
    both = a >= v and b >= v
    success, easy = _control_check(m, sp, a, b, v, dt0)
    if easy:
        # 4.2.2.2 easy situation: control does not change, the defending team may move one player
        ctx = MoveCtx(m, dt0, "4.2.2.2")
        yield from move_seq(m, ctx, D.EASY_SITUATION_MOVE, 1, "move one player to an adjacent area")
    ct = st.ct
    if not st.teams[ct].has(st.ball):
        yield from closest_player(m, ct)
    if sp.move_after_check:
        team = ct if sp.move_after_check == "ct" else 1 - ct
        ctx = MoveCtx(m, team, "A13")
        yield from move_seq(m, ctx, D.SPECIAL_EVENT_MOVE, 1, "move one player to an adjacent area")
    # 4.2.3 (I-3: playing within the same area counts as "adjacent")
    use_low = B.DIST[f.start][f.target] <= 1 and f.had_player_in_target[ct]
    mod = 0
    if (
        success
        and sp.control != "collision"
        and not sp.touchline
        and "A11" in st.advanced
        and _value_skill_held(st, use_low)
    ):
        use_low, mod = yield from _value_skills(m, a, b, v, use_low, success)
    _new_ball_value(m, sp, a, b, use_low, mod)
    first = _first_to_act(m, sp, ct0 if both else dt0)
    _corner_takers_leave(m)
    if sp.fast:
        team = st.ct if sp.fast == "ct" else st.dt
        ctx = MoveCtx(m, team, "A13")
        yield from move_seq(m, ctx, D.SPECIAL_EVENT_MOVE, 1, "fast situation: move one player")
        return None
    if sp.aggressive_defence and st.teams[st.dt].has(f.target):
        yield from pressing(m, st.dt, aggressive=True, free=True)
        if interrupted(m):
            return None
    if "A11" in st.advanced:
        if any_skill(m, _END_OF_STAGE2_SKILLS):
            yield from end_of_stage2(m)
        if interrupted(m):
            return None
        if any_skill(m, _BEFORE_ACTIONS_SKILLS) or (
            f.target in B.MIDFIELD_ZONE and any_skill(m, _MIDFIELD_GENERAL)
        ):
            return (yield from before_actions(m, first, a, b, v))
    return first


def _control_check(m: MatchContext, sp: Special, a: int, b: int, v: int, dt0: int) -> tuple[bool, bool]:
    """4.2.2: who controls the ball after the game situation dice (a special event may decide it;
    ``dt0`` defended when the dice were rolled); returns whether the control check succeeded, and
    whether it is an easy situation (4.2.2.2: the defending team may then move one player)."""
    st = m.st
    f = st.flags
    success = a >= v or b >= v
    if sp.control == "success":
        success = True
    if sp.touchline or sp.failed_opening:
        success = False
    if sp.failed_opening:
        st.ball = f.start if f.start < B.N_AREAS else B.CORNER_OF_SPOT[f.start]
        f.target = st.ball
    if sp.control == "collision":
        st.ct = sp.collision_winner
    elif not success:
        dts = st.teams[dt0]
        easy = (
            not sp.touchline
            and not sp.failed_opening
            and not dts.has(f.target)
            and not _player_in(dts.field, dts.gk, B.ADJ[f.target])
        )
        if easy:
            return success, True
        st.ct = dt0
    return success, False


def _new_ball_value(m: MatchContext, sp: Special, a: int, b: int, use_low: bool, mod: int) -> None:
    """4.2.3: the new ball value (a special event's collision or touchline sets its own);
    ``use_low`` and ``mod`` as the skills left them (_value_skills)."""
    st = m.st
    if sp.control == "collision":
        nv = sp.collision_value
    elif sp.touchline:
        nv = 2
    else:
        nv = (min(a, b) if use_low else max(a, b)) + sp.value_mod + mod
        if st.weather in ("rain", "storm"):
            nv += 1
    st.value = min(6, max(1, nv))


def _first_to_act(m: MatchContext, sp: Special, first: int) -> int:
    """4.2.4: the team that plays the first action (``first`` by the dice), and what a special
    event ties to it (terrace chant: a free condition point; momentum)."""
    st = m.st
    f = st.flags
    if sp.control == "collision" or sp.touchline or sp.failed_opening or sp.first == "ct":
        first = st.ct
    elif sp.first == "dt":
        first = 1 - st.ct
    if sp.name.startswith("terrace_chant"):
        f.free_cp = first
    if sp.name == "momentum":
        f.momentum = st.ct
    return first


def _corner_takers_leave(m: MatchContext) -> None:
    """5.3.2: the corner taker leaves the corner spot after stage 2."""
    st = m.st
    for ts in st.teams:
        for s in B.CORNER_SPOTS:
            if ts.field[s]:
                ts.field[B.CORNER_OF_SPOT[s]] += ts.field[s]
                ts.field[s] = 0
    if st.ball >= B.N_AREAS:
        st.ball = B.CORNER_OF_SPOT[st.ball]


def _value_skill_held(st: MatchState, use_low: bool) -> bool:
    """Whether _value_skills may offer a skill (each needs a successful control check too)."""
    cs = st.teams[st.ct].skills
    return ("stopper" in st.teams[st.dt].skills and use_low) or "creative_midfielder" in cs or "mezzala" in cs


def _value_skills(
    m: MatchContext, a: int, b: int, v: int, use_low: bool, success: bool
) -> Generator[Pending, Event, tuple[bool, int]]:
    st = m.st
    if "A11" not in st.advanced:
        return use_low, 0
    f = st.flags
    ct, dt = st.ct, st.dt
    nv = 0
    if (
        success
        and use_low
        and B.zone_of(dt, f.target) == B.ZONE_DEF
        and not keeper_alone(m, dt, f.target)
        and ("stopper" in m.st.teams[dt].skills and (yield from offer(m, dt, "stopper")))
    ):
        use_low = False
    if (
        success
        and f.start in B.MIDFIELD_ZONE
        and f.long_pass == 0
        and (
            "creative_midfielder" in m.st.teams[ct].skills
            and (yield from offer(m, ct, "creative_midfielder"))
        )
    ):
        nv -= 1
    if (
        success
        and B.zone_of(ct, f.target) == B.ZONE_FWD
        and not f.had_player_in_target[0]
        and not f.had_player_in_target[1]
        and ("mezzala" in m.st.teams[ct].skills and (yield from offer(m, ct, "mezzala")))
    ):
        nv -= (1 if a >= v else 0) + (1 if b >= v else 0)
    return use_low, nv


# --------------------------------------------------------------- end of turn
def _end_of_turn_quiet(m: MatchContext) -> bool:
    """The end of a turn up to its first question (injured players back, A4); True when none
    follows (no substitutions, no restart to take), so that no generator is made for it: more
    than half the turns end so."""
    st = m.st
    st.stage = "end_of_turn"
    return_injured(m)
    if st.half_over:
        return True
    if "A3" in st.advanced and (_at_setup(st.pending_restart) or st.ball in B.MIDFIELD_ZONE):
        return False
    # (a False from half_ends_with_turn changes nothing: _end_of_turn_asks asks it again)
    return st.half_ends_with_turn() or st.pending_restart is None


def _at_setup(pr: tuple[str, int, int] | None) -> bool:
    return pr is not None and pr[0] in ("kick_off", "goal_kick", "corner", "free_kick", "penalty")


def _end_of_turn_asks(m: MatchContext) -> Flow:
    """The end of a turn from its substitutions (A3) on, then the restart to take."""
    st = m.st
    pr = st.pending_restart
    at_setup = _at_setup(pr)
    # A3: "The controlling team makes the decision first": at a set-up that is the team taking the
    # restart (the side that conceded kicks off, the side awarded a free kick takes it), whoever
    # had the ball before it.
    if "A3" in st.advanced and (at_setup or st.ball in B.MIDFIELD_ZONE):  # (substitutions' own test)
        yield from substitutions(m, at_setup, first=pr[1] if at_setup and pr is not None else st.ct)
    if st.half_ends_with_turn():
        return
    # each restart played from here, not through a generator that only chose it (one level less)
    while (pr := st.take_restart()) is not None:
        kind, team, area = pr
        if kind == "kick_off":
            yield from kick_off(m, team)
        elif kind == "free_kick":
            yield from award_free_kick(m, team, area, "")
        elif kind == "corner":
            yield from corner(m, team)
        elif kind == "goal_kick":
            yield from goal_kick(m, team)
        elif kind == "penalty":
            yield from penalty(m, team)

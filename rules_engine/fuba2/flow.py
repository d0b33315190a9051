"""The match flow of rulebook 2.0 (ruleset ``fuba-2``): match preparation (3), halves and the
seven stages of a turn (4): 1 target area (4.1), 2 dice rolling (4.2), 3 time (4.3), 4 control
check and special events (4.4), 5 ball movement (4.5), 6 and 7 the two teams' action stages
(4.6, module ``actions``).  A generator like FUBA 3's ``flow.match_flow``: it yields a
``Pending`` and receives the event that answers it (``machine.Match`` drives both)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Final

from .. import board as B
from .. import decisions as D
from ..context import MatchContext
from ..errors import IllegalEventError
from ..events import Event, Pending, answer_choice, answer_dice
from . import names as N
from .actions import action_stage, interrupted, movement
from .ball import automatic_pass, control_check, long_pass_areas, new_ball_value, target_area_ok, target_areas
from .clock import advance_time, first_square
from .condition import first_lost_point_zone
from .movement import first_action_team
from .moveseq import SPECIAL, Moves, closest_player, move_seq
from .restarts import (
    CORNER,
    KICK_OFF,
    change_formation,
    corner,
    formation_changes,
    free_kick,
    injury,
    kick_off,
    yellow_card_test,
)
from .setup import kick_off_chooser, second_half_kick_off
from .special import (
    ACTION_STAGES_SKIPPED,
    BALL_VALUE_STEP,
    CT_MOVES_ONE,
    FAILED_CONTROL_CHECK,
    FREE_KICK_CT,
    FREE_KICK_PT,
    PT_MOVES_ONE,
    PT_MOVES_TWO,
    PT_NO_DEFENCE_MOVEMENT,
    special_event,
    zero_row,
)
from .styles import die_modifier, special_event_dice, special_event_die
from .turnstate import F2, NO_TEAM, Turn, players, side, style

Flow = Generator[Pending, Event, Any]
_HALF_START: Final[tuple[int, ...]] = (0, 0, 45, 90, 105)  # as state.MatchState.minute() counts
EXTRA_HALF: Final = 15  # I-38 (house rule, I2-18): two halves of 15 minutes, no stoppage time
SET_PIECE_STARTS: Final = frozenset({N.KICK_OFF_START, N.CORNER_START, N.PENALTY_START, N.FREE_KICK_START})
_SPECIAL_MOVES: Final = {PT_MOVES_TWO: (False, 2), PT_MOVES_ONE: (False, 1), CT_MOVES_ONE: (True, 1)}


def match_flow(m: MatchContext) -> Flow:
    """3.1: "Both teams roll a die. The team with the higher result chooses which team will start
    with the ball" (equal dice rolled again, I2-13); two halves (4.3.2); extra time as the
    league's house rule (I2-18)."""
    st = m.st
    g = F2()
    m.extra = g
    st.stage = "preparation"
    for team, ts in enumerate(st.teams):
        ts.field[B.CENTRE] = 10 - ts.spec.players_short  # placed by the kick-off set-up
        ts.gk = B.PEN[team]
    st.value = 1
    while True:
        d = answer_dice((yield m.roll(N.KICK_OFF, None, 2, "3.1", "who chooses: home die, away die")))
        chooser = kick_off_chooser(d[0], d[1])
        if chooser is not None:
            break
    names = B.TEAM_NAMES
    c = answer_choice((yield m.ask(D.KICK_OFF_TEAM, chooser, "3.1", lambda: names, None, "who starts?")))
    starter = names.index(c)
    st.first_half_starter = starter
    for half in (1, 2):
        yield from _half(m, g, half, starter if half == 1 else second_half_kick_off(starter))
    st.score_after_90 = (st.teams[0].goals, st.teams[1].goals)
    if st.header.extra_time:
        c = answer_choice((yield m.ask_yes_no(D.EXTRA_TIME, 0, "I2-18", "play extra time?")))
        if c == "yes":
            st.extra_time_played = True
            st.half_length = EXTRA_HALF
            st.turns_per_half.extend((0, 0))
            m.note("extra_time", score=st.score())
            for half in (3, 4):
                yield from _half(m, g, half, starter if half == 3 else 1 - starter)
    st.over = True
    st.stage = "over"
    m.note("full_time", score=st.score())


def _const(options: tuple[str, ...]) -> Callable[[], tuple[Any, ...]]:
    def get() -> tuple[Any, ...]:
        return options

    return get


def _set_time(m: MatchContext, g: F2, minute: int, stoppage: int) -> None:
    st = m.st
    g.minute = minute
    st.clock = minute - _HALF_START[st.half]
    st.stoppage = stoppage


def _half(m: MatchContext, g: F2, half: int, ct: int) -> Flow:
    """One half: the break before it (2.1.1: "In the half time teams can change position of one
    player in their formation"), the kick-off (3.2.1), the turns."""
    st = m.st
    st.half = half
    st.half_over = False
    st.half_over_at_turn_end = False
    st.pending_restart = None
    g.carried = 0
    _set_time(m, g, first_square(half) if half <= 2 else _HALF_START[half] + 1, 0)
    if half > 1:
        st.stage = "half_time"
        if half == 2:
            m.note("half_time", score=st.score())
    if half in (2, 3):  # half time, and the break before extra time (I2-18)
        for team in (ct, 1 - ct):
            opts = ("none", *formation_changes(st.teams[team].formation))
            c = answer_choice((yield m.ask(D.HALF_TIME_FORMATION, team, "2.1.1", _const(opts), None)))
            if c != "none":
                change_formation(m, team, str(c))
    yield from kick_off(m, g, ct)
    g.last_first = NO_TEAM
    while not st.half_over:
        yield from turn(m, g)


def turn(m: MatchContext, g: F2) -> Flow:
    """4: "A turn contains seven stages which must be completed in the order shown"."""
    st = m.st
    st.turn += 1
    st.turns_per_half[st.half - 1] += 1
    prev = g.turn
    g.last_moved = (prev.moved[0], prev.moved[1])
    t = Turn(st.next_restart, st.ct, st.ball)
    g.turn = t
    st.next_restart = ""
    first = NO_TEAM
    attempting = NO_TEAM
    if t.restart == N.GOAL_KICK_START:
        first = yield from _slow_goal_kick(m, g)
    yield from _stage1(m, g)
    played = yield from _stages2to5(m, g)
    if played and not interrupted(m):
        if g.attempt_first:  # 5.1: the free kick's taker continues from stage 6 with its goal attempt
            g.attempt_first = False
            first = attempting = st.ct
        elif first == NO_TEAM:
            pt0 = 1 - t.ct_at_start
            last = g.last_first if g.last_first != NO_TEAM else pt0
            first = first_action_team(
                last, g.last_moved, t.restart in SET_PIECE_STARTS, t.only_pt_in_target, pt0
            )
        yield from _action_stages(m, g, first, attempting)
    yield from _end_of_turn(m, g)


def _action_stages(m: MatchContext, g: F2, first: int, attempting: int) -> Flow:
    st = m.st
    g.last_first = first
    for stage, team in ((6, first), (7, 1 - first)):
        if interrupted(m):
            return
        st.stage = stage
        yield from action_stage(m, g, team, attempt=team == attempting)


def _slow_goal_kick(m: MatchContext, g: F2) -> Generator[Pending, Event, int]:
    """5.3.1: "one extra player movement stage is carried out for both teams at the beginning of
    the turn. The controlling team moves first. The number of the new moves determines the order
    of the next team action stages" (I2-17); returns the team acting first, or NO_TEAM."""
    st = m.st
    st.stage = 1
    ct = st.ct
    c = answer_choice((yield m.ask_yes_no(D.SLOW_GOAL_KICK, ct, "5.3.1", "slow goal kick?")))
    if c != "yes":
        return NO_TEAM
    for team in (ct, 1 - ct):
        yield from movement(m, g, team)
    moved = (g.turn.moved[0], g.turn.moved[1])
    g.turn.moved = [0, 0]
    return first_action_team(ct, moved, False, False, 1 - ct)


def _stage1(m: MatchContext, g: F2) -> Flow:
    """4.1: "The controlling team chooses an area to play the ball into" (target_areas)."""
    st = m.st
    st.stage = 1
    t = g.turn
    ct = st.ct

    def options() -> tuple[str, ...]:
        offside = t.restart not in (N.GOAL_KICK_START, N.CORNER_START)
        legal = target_areas(side(st, ct), side(st, 1 - ct), t.start, offside, t.restart == N.FREE_KICK_START)
        return tuple(B.NAMES[a] for a in legal)

    def verify(c: Any) -> None:
        offside = t.restart not in (N.GOAL_KICK_START, N.CORNER_START)
        area = B.INDEX.get(c, -1) if type(c) is str else -1
        ok = 0 <= area < B.N_AREAS and target_area_ok(
            side(st, ct), side(st, 1 - ct), t.start, area, offside, t.restart == N.FREE_KICK_START
        )
        if not ok:
            opts = options()
            raise IllegalEventError(
                f"{c!r} is not a legal target area: it needs a player of yours there or next to it, "
                f"none of them offside (4.1.1); legal: {', '.join(opts)}",
                rule="4.1",
            )

    c = answer_choice((yield m.ask(D.TARGET_AREA, ct, "4.1", options, verify, "target area")))
    t.target = B.INDEX[c]
    t.only_pt_in_target = players(st, 1 - ct, t.target) > 0 and players(st, ct, t.target) == 0


def _stages2to5(m: MatchContext, g: F2) -> Generator[Pending, Event, bool]:
    """Stages 2-5; False when the action stages are not played (the half ended, row 0 of the
    special event table, a free kick without a goal attempt, a corner kick)."""
    st = m.st
    t = g.turn
    st.stage = 2
    ct = st.ct
    d = answer_dice((yield m.roll(N.TURN_DICE, None, 2, "4.2", "each team's die: controlling, passive")))
    t.ct_die, t.pt_die = d[0], d[1]
    st.stage = 3
    if not (yield from _time(m, g)):
        return False
    st.stage = 4
    automatic = automatic_pass(side(st, ct), side(st, 1 - ct), t.target) or g.press_failed_by == 1 - ct
    g.press_failed_by = NO_TEAM
    check = control_check(t.ct_die, st.value, automatic)
    kept = check.kept
    if check.special_event:
        yield from _special_event(m, g)
        if t.special in (FREE_KICK_CT, FREE_KICK_PT):
            return g.attempt_first
        if st.pending_restart is not None:
            return False
        kept = t.special != FAILED_CONTROL_CHECK
    st.stage = 5
    yield from _ball_movement(m, g, kept)
    # row -1 skips the action stages: a player due back returns at his team's next movement (I2-22)
    return t.special != ACTION_STAGES_SKIPPED


def _time(m: MatchContext, g: F2) -> Generator[Pending, Event, bool]:
    """4.3: the time marker; False when "the half ends immediately" (4.3.1)."""
    st = m.st
    t = g.turn
    if st.half > 2:
        tired = _extra_time(m, g, abs(t.ct_die - t.pt_die))
    else:
        step = advance_time(st.half, g.minute, st.stoppage, g.carried, t.ct_die, t.pt_die)
        if step.half_ends_now:
            st.half_over = True
            return False
        g.carried = step.carried
        _set_time(m, g, step.minute, step.stoppage)
        st.half_over_at_turn_end = step.half_ends_after_turn
        tired = step.tiredness_test
    if tired and st.uses("A1"):
        for team in (st.ct, st.dt):
            yield from _tiredness_test(m, g, team)
    return True


def _extra_time(m: MatchContext, g: F2, diff: int) -> bool:
    """I2-18: extra time's halves run 15 minutes without stoppage time, the minutes carried as
    in 4.3; a half ends with the turn in which the marker reaches its 15th minute."""
    if diff == 0:
        g.carried += 1
        return False
    end = _HALF_START[m.st.half] + EXTRA_HALF
    squares = diff + g.carried
    g.carried = 0
    _set_time(m, g, min(end, g.minute + squares), 0)
    if g.minute >= end:
        m.st.half_over_at_turn_end = True
    return squares >= 5


def _tiredness_test(m: MatchContext, g: F2, team: int) -> Flow:
    """A1.2: "Each team rolls a die. The die result is multiplied by 10. If the result is higher or
    equal to the current game time ... that team passes"; each failure loses a point and rolls
    again, three at most; A6's +1/-1 to each die (I2-3, I2-7)."""
    st = m.st
    ts = st.teams[team]
    minute = st.minute()
    mod = die_modifier(style(st, team, g.turn.target))
    total = 0
    lost = 0
    for _ in range(3):
        die = answer_dice((yield m.roll(N.TIREDNESS, team, 1, "A1.2", "tiredness test")))[0]
        total += die + mod
        if total * 10 >= minute:
            break
        lost += 1
    zone = B.zone_of(team, g.turn.target)
    for k in range(lost):
        cp = (ts.cp[0], ts.cp[1], ts.cp[2])
        pick = first_lost_point_zone(cp, zone) if k == 0 else None
        if pick is None:
            have = tuple(B.ZONE_NAMES[z] for z in range(3) if cp[z] > 0)
            if not have:
                break
            pick = B.ZONE_NAMES.index(have[0])
            if len(have) > 1:
                c = answer_choice(
                    (yield m.ask(D.TIREDNESS_ZONE, team, "A1.2", _const(have), None, "lose a point"))
                )
                pick = B.ZONE_NAMES.index(c)
        ts.cp[pick] -= 1
    if lost and ts.cp_total() == 0 and not ts.tired:
        ts.tired = (
            True  # A1.2: "If a team runs out of condition points then that team starts suffer tiredness"
        )
        m.note("tired", team=B.TEAM_NAMES[team])


def _special_event(m: MatchContext, g: F2) -> Flow:
    """4.4.3: "both teams roll a die. The passive team's die value is subtracted from the
    controlling team's die value"; A6: two dice for an easy or aggressive style in the target
    area's zone.  The immediate effects: cards, free kicks, row 0."""
    st = m.st
    t = g.turn
    ct, pt = st.ct, st.dt
    styles = (style(st, ct, t.target), style(st, pt, t.target))
    n_ct = special_event_dice(styles[0])
    dice = answer_dice(
        (yield m.roll(N.SPECIAL_EVENT, None, n_ct + special_event_dice(styles[1]), "4.4.3", "special event"))
    )
    ct_die = special_event_die(styles[0], dice[:n_ct])
    t.special = special_event(ct_die, special_event_die(styles[1], dice[n_ct:]))
    m.note("special_event", event=t.special, team=B.TEAM_NAMES[ct])
    if t.special == PT_NO_DEFENCE_MOVEMENT:
        t.no_defence = pt
    elif t.special in (FREE_KICK_CT, FREE_KICK_PT):
        taker = ct if t.special == FREE_KICK_CT else pt
        yield from yellow_card_test(m, g, 1 - taker)
        yield from free_kick(m, g, taker, t.target)
    elif t.special == ACTION_STAGES_SKIPPED:
        row = zero_row(ct_die, t.target)
        if row.condition_point and st.uses("A1"):
            for team in (ct, pt):
                ts = st.teams[team]
                zone = B.zone_of(team, t.target)
                ts.cp[zone] = min(6, ts.cp[zone] + 1)
        if row.injuries:
            for team in (ct, pt):
                yield from injury(m, g, team, "special event (4.4.3)")
        if row.corner_kick_for is not None:
            st.pending_restart = (CORNER, row.corner_kick_for, t.target)


def _ball_movement(m: MatchContext, g: F2, kept: bool) -> Flow:
    """4.5: the ball to the target area ("-4: ... ball remains in the start area"), the new ball
    value (4.5.1-4.5.4), the closest player (4.4.2), the special events' moves; the corner taker
    leaves its spot (5.2.1) and the goal kick is taken (5.3)."""
    st = m.st
    t = g.turn
    ct, pt = st.ct, st.dt
    start = B.CORNER_OF_SPOT.get(t.start, t.start)
    st.ball = start if t.special == FAILED_CONTROL_CHECK else t.target
    between = long_pass_areas(t.start, t.target) if kept else 0
    pt_in_start = start < B.N_AREAS and players(st, pt, start) > 0
    set_piece = t.restart in (N.FREE_KICK_START, N.CORNER_START, N.GOAL_KICK_START)
    step = BALL_VALUE_STEP.get(t.special, 0)
    nv = new_ball_value(t.ct_die, t.pt_die, kept, between, pt_in_start, set_piece, step)
    if nv.turnover:
        st.ct = pt
    st.value = nv.value
    for ts in st.teams:
        for spot in B.CORNER_SPOTS:
            ts.field[B.CORNER_OF_SPOT[spot]] += ts.field[spot]
            ts.field[spot] = 0
    g.before_goal_kick = False
    yield from closest_player(m, g, st.ct, st.ct != t.ct_at_start)
    if t.special in _SPECIAL_MOVES:
        by_ct, n = _SPECIAL_MOVES[t.special]
        team = ct if by_ct else pt
        mv = Moves(m, g, team, SPECIAL, "", "4.4.3")
        yield from move_seq(m, mv, D.SPECIAL_EVENT_MOVE, n, f"move {n} player(s) to an adjacent area")


def _end_of_turn(m: MatchContext, g: F2) -> Flow:
    """The half ends (4.3.1) or the set piece of the turn is set up (kick-off 3.2.1, corner 5.2)."""
    st = m.st
    st.stage = "end_of_turn"
    if st.half_over:
        return
    if st.half_ends_with_turn():
        return
    while (pr := st.take_restart()) is not None:
        kind, team, area = pr
        if kind == KICK_OFF:
            yield from kick_off(m, g, team)
        else:
            yield from corner(m, g, team, area)

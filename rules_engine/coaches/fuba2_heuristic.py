"""The heuristic coach of rulebook 2.0 (ruleset ``fuba-2``): rules of thumb on the dice odds.

- target area (4.1): deeper towards the opponent's goal, where the team outnumbers the
  opponent, without long passes (each area between start and target adds one to the new ball
  value, 4.5.2, and above 6 the ball is lost, 4.5.4);
- goal attempt (4.7): when the chance to score (the die above the ball value after the Goal
  Attempt Modifiers Table, ``fuba2.goal``) plus a third of the chance of a corner reaches a
  threshold, lower when behind late;
- movement option (4.8): forward when in control outside the own defence zone, defence when the
  ball is in the own defence zone without control, midfield otherwise; each move is scored by how
  much closer it brings the player to the ball and towards the goal the team attacks (or
  defends), and the sequence stops when no move gains enough;
- pressing (4.9.1): when the die is likely to come up below the ball value (value 4 or more, 3
  in the own defence zone), the chance being (value - 1) / 6;
- condition points (A1.1) in the zone where the ball is when attacking there or defending the
  own box; substitutions (A3) only for a tired zone (a fresh player) or a booked team late.

Every other question is answered by its default or the first option; no decision reads more
than the shared ``MatchState`` (``match.st``) and the pending question.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, Final

from .. import board as B
from .. import decisions as D
from ..events import Pending
from ..fuba2.ball import long_pass_areas
from ..fuba2.goal import attempt_modifier
from ..fuba2.moveseq import CODE_NAMES, SeqOptions
from ..fuba2.offside import Side
from ..machine import Match
from ..state import MatchState

SHOOT_AT: Final = 0.2  # the chance of a goal (plus a third of a corner's) worth a shot
SHOOT_BEHIND_LATE: Final = 0.1
MOVE_GAIN: Final = 0.1  # a move must gain at least this much to be made
MAX_MOVES: Final = 6  # moves of one sequence the coach makes (4.8 allows up to the line's size)
# the weights of a target area: its depth towards the attacked goal, the players' contest there,
# each area a long pass crosses (4.5.2)
DEPTH_W: Final = 2.0
CONTEST_W: Final = 0.8
LONG_W: Final = 1.0


_FRESH: Final = tuple(f"fresh:{z}" for z in B.ZONE_NAMES)  # a fresh player for a zone (A3)


def _team(pending: Pending) -> int:
    return 0 if pending.actor == "home" else 1


def _side(match: Match, team: int) -> Side:
    ts = match.st.teams[team]
    return Side(team, tuple(ts.field[: B.N_AREAS]), ts.gk)


def _parse_move(move: str) -> tuple[int, int, bool]:
    """(source area, -1 for the goalkeeper; destination; with the ball) of FROM>TO[+ball] or GK>TO."""
    src_name, _, dst_name = move.partition(">")
    with_ball = dst_name.endswith("+ball")
    dst = B.INDEX[dst_name.removesuffix("+ball")]
    return (-1 if src_name == "GK" else B.INDEX[src_name]), dst, with_ball


def _code(parsed: tuple[int, int, bool]) -> int:
    """A parsed move as one int: (source + 1) << 6 | destination << 1 | with the ball (a source of
    -1 is the goalkeeper): read from a table without a tuple to unpack."""
    src, dst, with_ball = parsed
    return (src + 1) << 6 | dst << 1 | (1 if with_ball else 0)


# every move's code, built once: the coach scores each legal move of every move decision
_MOVES: Final[dict[str, int]] = {
    move: _code(_parse_move(move))
    for move in [f"GK>{d}" for d in B.NAMES]
    + [f"{s}>{d}{tail}" for s in B.NAMES for d in B.NAMES for tail in ("", "+ball")]
}


# each team's depth of every area (board.depth_from), read by index in the move scoring
_DEPTHS: Final[tuple[tuple[float, ...], ...]] = tuple(
    tuple(B.depth_from(team, a) for a in range(B.N_AREAS)) for team in (B.HOME, B.AWAY)
)


class _Gains:
    """How much each move of one decision gains: closer to the ball, ahead (attacking) or back
    (defending), into the ball area, with the ball; a little noise (one draw, none for the
    goalkeeper) breaks ties.  What does not depend on the move is read once a decision."""

    def __init__(self, st: MatchState, team: int, rnd: Callable[[], float]) -> None:
        self.rnd = rnd
        self.own_pen = B.PEN[team]
        self.ball = ball = st.ball if st.ball < B.N_AREAS else B.CENTRE
        # each area's distance to the ball (the board's distances are symmetric)
        self.dball = B.DIST[ball]
        attacking = st.ct == team
        self.f_closer = 0.6 if attacking else 0.9
        self.f_ahead = 0.25 if attacking else -0.1
        self.depth = _DEPTHS[team]
        # do not leave the ball area outnumbered (read only for a move out of the ball area)
        self.outnumbered = st.teams[team].raw(ball) <= st.teams[1 - team].raw(ball)

    def noisy(self, code: int) -> float:
        """The gain of the move of ``code`` (``_code``), its noise drawn (none for the keeper)."""
        src = (code >> 6) - 1
        dst = (code >> 1) & 31
        if src < 0:
            return 1.0 if dst == self.own_pen else -5.0  # the keeper stays in (or goes back to) its box
        ball = self.ball
        dball = self.dball
        closer = dball[src] - dball[dst]
        depth = self.depth
        ahead = depth[dst] - depth[src]
        gain = closer * self.f_closer + ahead * self.f_ahead
        if dst == ball:
            gain += 0.5
        if src == ball and self.outnumbered:
            gain -= 1.0
        if code & 1:
            gain += 0.8
        return gain + self.rnd() * 0.1


class Fuba2HeuristicCoach:
    """Answers one team's decisions of a FUBA 2 match (see the module's docstring)."""

    def __init__(self, rng: random.Random, team: Any = None) -> None:
        self.rng = rng
        # the same draws as rng.random(), through a bound method kept once: the move scoring
        # draws once per legal move, and a method looked up on every draw costs more (compiled)
        self.random: Callable[[], float] = rng.random
        self.team = team
        self.moves_made = 0
        self.sequence: tuple[int, str, str] = (-1, "", "")
        self.answers: dict[str, Callable[[Match, Pending], Any]] = {
            D.KICK_OFF_TEAM: self._kick_off_team,
            D.TARGET_AREA: self._target_area,
            D.GOAL_ATTEMPT: self._goal_attempt,
            D.FREE_KICK_ATTEMPT: self._goal_attempt,
            D.MOVEMENT_OPTION: self._movement_option,
            D.MOVE: self._move,
            D.FREE_MOVE: self._move,
            D.SPECIAL_EVENT_MOVE: self._move,
            D.PRESSING: self._pressing,
            D.USE_CP: self._use_cp,
            D.TIREDNESS_ZONE: self._richest_zone,
            D.SUBSTITUTION: self._substitution,
            D.PENALTY_KEEPER: self._random_option,
            D.PENALTY_SHOT: self._random_option,
        }

    def choose(self, match: Match, pending: Pending) -> Any:
        name = pending.name
        # the most frequent, called directly (compiled: no method object called generically)
        if name == D.MOVE:
            return self._move(match, pending)
        if name == D.TARGET_AREA:
            return self._target_area(match, pending)
        answer = self.answers.get(name)
        if answer is not None:
            return answer(match, pending)
        if pending.default is not None:
            return pending.default
        if pending.name == D.GOALKEEPER_POSITION:
            return "inside" if "inside" in pending.options else pending.options[0]
        return pending.options[0]

    # ------------------------------------------------------------- the ball
    def _kick_off_team(self, match: Match, pending: Pending) -> Any:
        return pending.actor if pending.actor in pending.options else pending.options[0]

    def _target_area(self, match: Match, pending: Pending) -> Any:
        st = match.st
        team = _team(pending)
        mine, theirs = st.teams[team], st.teams[1 - team]

        rnd = self.random
        depth = _DEPTHS[team]
        # the first best area, each score drawn in the order of the options (as max() would)
        best: Any = None
        best_score = 0.0
        for name in pending.options:
            a = B.INDEX[name]
            between = long_pass_areas(st.ball, a) if st.ball < B.N_AREAS else 0
            contest = mine.raw(a) - theirs.raw(a)
            score = depth[a] * DEPTH_W + contest * CONTEST_W - between * LONG_W + rnd() * 0.3
            if best is None or score > best_score:
                best, best_score = name, score
        if best is None:
            raise ValueError("max() arg is an empty sequence")  # (as max() over no options)
        return best

    def _shot_chance(self, match: Match, team: int, free_kick: bool) -> float:
        st = match.st
        try:
            mod = attempt_modifier(_side(match, team), _side(match, 1 - team), st.ball, free_kick, False)
        except ValueError:
            return 0.0
        need = st.value - mod + 1  # 4.7: the modified die must exceed the ball value
        if need > 6:
            return 1 / 36  # 4.7.1: a difficult attempt needs a 6 and a second good die
        goal = (7 - max(need, 1)) / 6
        corner = 1 / 6 if need >= 2 else 0.0  # the die equal to the ball value: a corner kick
        return goal + corner / 3

    def _goal_attempt(self, match: Match, pending: Pending) -> Any:
        st = match.st
        team = _team(pending)
        chance = self._shot_chance(match, team, pending.name == D.FREE_KICK_ATTEMPT)
        behind_late = st.half >= 2 and st.clock >= 30 and st.teams[team].goals < st.teams[1 - team].goals
        return "yes" if chance >= (SHOOT_BEHIND_LATE if behind_late else SHOOT_AT) else "no"

    def _pressing(self, match: Match, pending: Pending) -> Any:
        st = match.st
        team = _team(pending)
        own_box = B.zone_of(team, st.ball) == B.ZONE_DEF if st.ball < B.N_AREAS else False
        return "yes" if st.value >= (3 if own_box else 4) else "no"

    # ------------------------------------------------------------- the players
    def _movement_option(self, match: Match, pending: Pending) -> Any:
        st = match.st
        team = _team(pending)
        zone = B.zone_of(team, st.ball) if st.ball < B.N_AREAS else B.ZONE_MID
        want = "midfield"
        if st.ct == team and zone != B.ZONE_DEF:
            want = "forward"  # the forwards give the next target areas (4.1: a player there or next to it)
        elif st.ct != team and zone == B.ZONE_DEF:
            want = "defence"
        if want in pending.options:
            return want
        return "midfield" if "midfield" in pending.options else pending.options[0]

    def _move(self, match: Match, pending: Pending) -> Any:
        key = (match.st.turn, pending.name, pending.actor)
        if key != self.sequence:
            self.sequence, self.moves_made = key, 0
        if self.moves_made >= MAX_MOVES and pending.default == D.DONE:
            return D.DONE  # (a default is a legal answer: no need to list the moves)
        fn = pending.options_fn
        if isinstance(fn, SeqOptions):
            return self._scored_move(match, pending, fn.codes())
        # pending.options lists every legal move afresh on each read: read it once
        opts = pending.options
        # "done" closes the list of an optional sequence: the last item is compared first
        n = len(opts)
        optional = (n > 0 and opts[n - 1] == D.DONE) or D.DONE in opts
        if optional and self.moves_made >= MAX_MOVES:
            return D.DONE
        gains: _Gains | None = None
        # the first best move, each gain drawn in the order of the options (as max() would)
        best: Any = None
        best_code = 0
        best_gain = 0.0
        for mv in opts:
            if isinstance(mv, str) and mv == D.DONE:  # (a str compare, compiled, not a generic one)
                continue
            if gains is None:
                gains = _Gains(match.st, _team(pending), self.random)
            code = _MOVES.get(mv)
            if code is None:
                code = _code(_parse_move(str(mv)))
            gain = gains.noisy(code)
            if best is None or gain > best_gain:
                best, best_code, best_gain = mv, code, gain
        if gains is None:
            return D.DONE if optional else opts[0]
        # the best move's gain with a fresh draw (the keeper's has none) decides whether to make it
        if optional and gains.noisy(best_code) < MOVE_GAIN:
            return D.DONE
        self.moves_made += 1
        return best

    def _scored_move(self, match: Match, pending: Pending, codes: list[int]) -> Any:
        """``_move`` for a move sequence's ask, which offers "done" after its legal moves, read
        as codes (``SeqOptions``): the same draws and choice without a name per move."""
        if not codes:
            return D.DONE
        gains = _Gains(match.st, _team(pending), self.random)
        # the first best move, each gain drawn in the order of the options (as max() would);
        # _Gains.noisy written out over locals (a call and eight attribute reads per move saved),
        # the same arithmetic in the same order
        rnd = self.random
        own_pen, ball, dball, depth = gains.own_pen, gains.ball, gains.dball, gains.depth
        f_closer, f_ahead, outnumbered = gains.f_closer, gains.f_ahead, gains.outnumbered
        best_code = 0
        best_gain = 0.0
        for i in range(len(codes)):
            code = codes[i]
            src = (code >> 6) - 1
            dst = (code >> 1) & 31
            if src < 0:
                gain = 1.0 if dst == own_pen else -5.0  # the keeper: no draw
            else:
                gain = (dball[src] - dball[dst]) * f_closer + (depth[dst] - depth[src]) * f_ahead
                if dst == ball:
                    gain += 0.5
                if src == ball and outnumbered:
                    gain -= 1.0
                if code & 1:
                    gain += 0.8
                gain = gain + rnd() * 0.1
            if i == 0 or gain > best_gain:
                best_code, best_gain = code, gain
        # the best move's gain with a fresh draw (the keeper's has none) decides whether to make it
        if gains.noisy(best_code) < MOVE_GAIN:
            return D.DONE
        self.moves_made += 1
        return CODE_NAMES[best_code]

    def _use_cp(self, match: Match, pending: Pending) -> Any:
        st = match.st
        team = _team(pending)
        zone = B.zone_of(team, st.ball) if st.ball < B.N_AREAS else B.ZONE_MID
        useful = (st.ct == team and zone == B.ZONE_FWD) or (st.ct != team and zone == B.ZONE_DEF)
        return "yes" if useful and st.teams[team].cp[zone] >= 2 else "no"

    def _richest_zone(self, match: Match, pending: Pending) -> Any:
        cp = match.st.teams[_team(pending)].cp
        return max(pending.options, key=lambda z: cp[B.ZONE_NAMES.index(str(z))] if z in B.ZONE_NAMES else -1)

    def _substitution(self, match: Match, pending: Pending) -> Any:
        st = match.st
        ts = st.teams[_team(pending)]
        cp = ts.cp
        booked = st.half >= 2 and ts.yellows > 0
        if not booked and cp[0] and cp[1] and cp[2] and pending.default == D.DONE:
            return D.DONE  # nothing wanted (asked every turn): the default, a legal answer, unlisted
        opts = pending.options  # listed afresh on each read: read once
        if booked and "yellow" in opts:
            return "yellow"
        for z in range(3):
            if cp[z] == 0:
                fresh = _FRESH[z]
                if fresh in opts:
                    return fresh
        return D.DONE if D.DONE in opts else opts[0]

    def _random_option(self, match: Match, pending: Pending) -> Any:
        return pending.options[self.rng.randrange(len(pending.options))]

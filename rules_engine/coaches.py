"""AI coaches for the FUBA match simulator (issue 4).

A coach answers the decisions of one team: ``choose(match, pending)`` returns
a legal answer to ``pending`` (one of ``pending.options``).  Coaches read the
match state (``match.st``) but never change it, and never use the global
``random`` state: every random choice comes from the ``random.Random`` given
at construction.  Use one coach object per team and match.

* :class:`RandomCoach` - uniform random legal play (testing, baseline).
* :class:`HeuristicCoach` - rules of thumb built on the dice odds:

  - target area (4.1): for every reachable area, P(keep the ball) from the
    modified ball value (4.1.2, the engine's own computation; 1 in an easy
    situation, 4.2.2.2) times the threat from there, minus P(lose it) times
    the opponent's threat from there (more risk-averse when leading late,
    less when level or behind);
  - action (4.3): shoot when P(goal) from the goal attempt modifiers of 4.4
    (area, numbers, goalkeeper, shot stopper; difficult attempts 4.4.2) plus a
    quarter of P(corner or rebound) reaches a threshold (lower for attacking
    formations and when behind late), or P(goal) >= 10 %; otherwise lower a
    high ball value (positioning) or move up.  Defending: press when the
    pressing dice win the ball often enough (50 %, 30 % far from the own
    goal), aggressive pressing (A6) when it is much likelier to win and the
    ball is dangerous (never when a failure gives a penalty), else raise a low
    ball value (positioning) or bring players to the ball;
  - moves (4.3.1, 4.5, 5.2.3, 5.4, set-up adjustment, skills): every single
    move is scored by the value of the two areas for the team (closeness to
    the ball, depth towards the attacked or defended goal, the formation's
    share of that zone, diminishing returns) plus the local contests (numbers
    in the ball area for pressing / positioning / second actions, numbers in
    both penalty areas); the goalkeeper goes back to its penalty area; long
    sequences are capped;
  - condition points (A1) where the ball zone matters (attack for the
    attacking team, defence for the defending team, midfield when points are
    plentiful), every one offered late in the match when level or behind;
    skills (A11) with a rule each; set-ups (3.3) built from the
    registered formation and A2 roles (kick-off), a crowded box for own
    corners and free kicks, a packed defence against them; direct free kick
    attempts by the same odds; penalties with the equilibrium mix of the 5.5.2
    table; substitutions (A3) for tired zones and booked players, formation
    changes towards attack when losing / defence when leading; slow play (A8)
    when leading and the card risk is small.

  The registered formation, roles and skills set its ``Style``: how far
  forward it plays, its shooting threshold and which skills it uses.  On top
  of the formation's lean the coach plays directly (``attack_bias``): more
  players join the attack and press in the opponent's half, long passes
  forward are riskier, shots come earlier; a defence in its own half keeps
  the formation's depth.  From the 15th minute of the second half the score
  sets a game state with its own style: level pushes further forward, behind
  gambles (all-out attack, risky passes, any shot, every condition point),
  ahead sits deeper and keeps the ball.  With both coaches heuristic this
  gives about 2.6 goals a match and 23 % draws (football: 2.5-2.9, 22-30 %).

The only decision with an open set of answers is the ``setup`` of 3.3 (the
options are a few ready-made legal set-ups, any legal set-up is accepted):
the heuristic coach builds a formation-shaped set-up and uses it only if the
engine accepts it (``pending.verify_fn``), otherwise it takes the best of the
offered set-ups.  For moves and target areas the heuristic coach ranks the
candidates itself and checks the best with ``pending.verify_fn`` - the same
check that defines ``pending.options`` - so that the options need not be
listed (a performance measure); it lists them when none of its first
candidates is legal.

Performance (about 440 decisions a match): everything that depends only on
the board, a team's style or the dice is computed once per process (move
names and their sort ranks, adjacency bit masks, contest and slow-play
tables, per-style weights shared by all coaches), so that a decision only
does the arithmetic that depends on the position; candidates are (gain,
rank) pairs of numbers and only the few that are checked become names.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import reduce as _reduce
from itertools import compress as _compress
from operator import or_ as _or
from typing import TYPE_CHECKING, Any, Final, Protocol

from . import board as B
from .discipline import GOALKEEPER
from .errors import FubaError
from .events import Pending
from .rules import (
    can_attempt_from,
    crossing_applies,
    goal_attempt_modifier,
    offside_risk_increase,
    second_last_area,
)

if TYPE_CHECKING:
    from .machine import Match
    from .state import MatchState, TeamState

__all__ = ["Coach", "HeuristicCoach", "RandomCoach", "Style", "make_coach"]

MOVE_DECISIONS: Final = frozenset(
    {
        "move",
        "free_move",
        "easy_situation_move",
        "special_event_move",
        "quick_free_kick_move",
        "goal_kick_move",
        "setup_adjust",
        "skill_move",
    }
)
DONE: Final = "done"
SETUP_KIND: Final = {"3.3.1": "kick_off", "5.2.1": "free_kick", "5.3.1": "corner", "5.5.1": "penalty"}


class Coach(Protocol):
    """Something that answers the decisions of one team."""

    def choose(self, match: Match, pending: Pending) -> Any:
        """Return the choice for ``pending`` (a decision of this coach's team)."""
        ...


# ------------------------------------------------------------------ random


class RandomCoach:
    """Chooses uniformly among the legal options (seeded).

    Optional move sequences end with probability ``stop`` at each step so that
    they stay short (a uniformly random choice would rarely pick ``done``)."""

    def __init__(self, rng: random.Random, stop: float = 0.35) -> None:
        self.rng = rng
        self.stop = stop

    def choose(self, match: Match, pending: Pending) -> Any:
        opts = pending.options
        if not opts:
            raise ValueError(f"no options for the {pending.name} decision")
        if pending.name in MOVE_DECISIONS and DONE in opts and self.rng.random() < self.stop:
            return DONE
        return opts[self.rng.randrange(len(opts))]


# --------------------------------------------------------------- heuristic

# P(at least one of two dice >= v): the controlling team keeps the ball (4.2.2)
P_KEEP: Final = (1.0, 1.0, 35 / 36, 32 / 36, 27 / 36, 20 / 36, 11 / 36, 0.0, 0.0)
# P(at least one of two dice < v): pressing wins the ball (4.7)
P_PRESS: Final = (0.0, 0.0, 11 / 36, 20 / 36, 27 / 36, 32 / 36, 35 / 36, 1.0, 1.0)
# P(at least one of two dice <= v): aggressive pressing wins (A6)
P_AGGR: Final = (0.0, 11 / 36, 20 / 36, 27 / 36, 32 / 36, 35 / 36, 1.0, 1.0, 1.0)

# How dangerous the ball is for the home team's opponent in each playing area
# (chance of a goal coming from there soon); the away team uses the mirror.
_THREAT_HOME = (0.01, 0.03, 0.03, 0.04, 0.07, 0.07, 0.14, 0.26, 0.26, 0.62, 0.36, 0.36, 0.85)
_MIRROR: Final = (
    B.A_PEN, B.A_LC, B.A_RC, B.A_FRONT, B.A_LM, B.A_RM, B.CENTRE,
    B.H_LM, B.H_RM, B.H_FRONT, B.H_LC, B.H_RC, B.H_PEN,
)  # fmt: skip
THREAT: Final[tuple[tuple[float, ...], tuple[float, ...]]] = (
    _THREAT_HOME,
    tuple(_THREAT_HOME[_MIRROR[a]] for a in range(B.N_AREAS)),
)
# diminishing value of the k-th player of a team in one area (1-based k).  Not Final:
# mypyc then leaves it unset for _stack() ("value for final name was not set")
_STACK = (0.0, 1.0, 1.6, 1.96, 2.18, 2.31, 2.39, 2.39, 2.39, 2.39, 2.39, 2.39)


# value added by the (n+1)-th player in an area
_STACK_GAIN: Final = tuple(_STACK[i + 1] - _STACK[i] for i in range(len(_STACK) - 1)) + (0.0,) * 20


def _stack(n: int) -> float:
    return _STACK[n] if n < len(_STACK) else _STACK[-1]


_AREA_OF: Final = tuple(B.CORNER_OF_SPOT.get(a, a) for a in range(B.N_LOC))
_EXTRA_FREE_MOVE_SKILLS: Final = frozenset({"runner", "fast_defender", "box_to_box_midfielder"})
# adjacent playing areas (no corner-kick spots) of every location
_ADJ_PLAY: Final = tuple(tuple(d for d in B.ADJ[a] if d < B.N_AREAS) for a in range(B.N_LOC))


def _area(a: int) -> int:
    """A corner-kick spot counts as its corner area."""
    return _AREA_OF[a]


# ---- move names, built once: a candidate move is a (gain, rank) pair of
# numbers; the rank orders the move names like the strings themselves, so
# sorting the pairs ranks the moves exactly as sorting (gain, name) would.
def _move_names() -> tuple[str, ...]:
    names = B.NAMES
    out = {f"GK>{names[d]}" for d in range(B.N_AREAS)}
    for s in range(B.N_LOC):
        for d in _ADJ_PLAY[s]:
            out.add(f"{names[s]}>{names[d]}")
            out.add(f"{names[s]}>{names[d]}+ball")
    return tuple(sorted(out))


_MOVE_NAME: Final[tuple[str, ...]] = _move_names()  # rank -> move name
_RANK = {n: i for i, n in enumerate(_MOVE_NAME)}
# rank of "SRC>DST", "SRC>DST+ball" (indexed [src][dst]) and "GK>DST"
_MV_RANK = tuple(
    tuple(_RANK.get(f"{B.NAMES[s]}>{B.NAMES[d]}", -1) for d in range(B.N_LOC)) for s in range(B.N_LOC)
)
_DRIB_RANK: Final = tuple(
    tuple(_RANK.get(f"{B.NAMES[s]}>{B.NAMES[d]}+ball", -1) for d in range(B.N_LOC)) for s in range(B.N_LOC)
)
_GK_RANK: Final = tuple(_RANK[f"GK>{B.NAMES[d]}"] for d in range(B.N_AREAS))
# free moves that are not from an outnumbering area: straight away from a goal line (4.3.1)
_AWAY_DST = tuple(
    tuple(d for d in _ADJ_PLAY[s] if B.away_from_goal_line(_AREA_OF[s], d)) for s in range(B.N_LOC)
)
_N_LOC: Final = B.N_LOC
_N_AREAS: Final = B.N_AREAS
_PEN: Final = B.PEN
_DIST: Final = B.DIST
_CORNER_SPOTS: Final = B.CORNER_SPOTS
_NAMES: Final = B.NAMES
_BIT = tuple(1 << a for a in range(B.N_AREAS))
_ADJ_MASK: Final = tuple(sum(1 << x for x in _ADJ_PLAY[a]) for a in range(B.N_AREAS))
# [team][s][t]: area t is entirely beyond area s for team (5.1, A7)
_BEYOND: Final = tuple(
    tuple(tuple(B.beyond(team, t, s) for t in range(B.N_AREAS)) for s in range(B.N_AREAS)) for team in (0, 1)
)
_OPP_HALF: Final = tuple(tuple(B.in_opp_half_entirely(team, a) for a in range(B.N_AREAS)) for team in (0, 1))


def _counts(ts: TeamState) -> list[int]:
    """Players of a team in each playing area as 1.4.1 counts them
    (``TeamState.count``: goalkeeper included, at most six)."""
    out = ts.field[:_N_AREAS]
    g = ts.gk
    if 0 <= g < _N_AREAS:
        out[g] += 1
    return [6 if n > 6 else n for n in out]


def _near(counts: Sequence[int]) -> int:
    """Bit mask of the playing areas with a player in an adjacent playing area."""
    return _reduce(_or, _compress(_ADJ_MASK, counts), 0)


# (destination, rank) of the moves from each location: all / free moves straight off a goal line
_PAIRS = tuple(tuple((d, _MV_RANK[s][d]) for d in _ADJ_PLAY[s]) for s in range(B.N_LOC))
_AWAY_PAIRS = tuple(tuple((d, _MV_RANK[s][d]) for d in _AWAY_DST[s]) for s in range(B.N_LOC))
# the single moves of a source: source id = location (every adjacent playing
# area) or N_LOC + location (a free move straight away from the goal line only)
_SRC_AREA: Final = tuple(_AREA_OF[s] for s in range(B.N_LOC)) * 2
_SRC_PAIRS: Final = tuple(tuple((d, _MV_RANK[s][d]) for d in _ADJ_PLAY[s]) for s in range(B.N_LOC)) + tuple(
    tuple((d, _MV_RANK[s][d]) for d in _AWAY_DST[s]) for s in range(B.N_LOC)
)


def _contest_part_tables() -> tuple[Any, Any]:
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


_BALL_PART, _PEN_PART = _contest_part_tables()
_NO_PEN_PART: Final = [0.0] * 41


_IS_GOAL_LINE: Final = tuple(_AREA_OF[s] in B.GOAL_LINE_AREAS for s in range(B.N_LOC))
# P(card) of slow play (A8) for each minute: P(two dice x 10 < minute + 1)
_P_SLOW_CARD: Final = tuple(
    sum(1 for a in range(1, 7) for b in range(1, 7) if (a + b) * 10 < minute + 1) / 36
    for minute in range(200)
)


def _contest_value(
    ct: bool, at_ball: int, theirs: int, near_pen: bool, at_pen: int, theirs_pen: int, gk_home: bool
) -> float:
    """``HeuristicCoach._contest`` from precomputed counts: ``at_ball`` / ``theirs``
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


# weights of one player per area (HeuristicCoach._weights), by style (deep, attack)
_WEIGHT_CACHE: Final[dict[tuple[float, float], dict[tuple[int, ...], list[float]]]] = {}


class Style:
    """How a team plays, derived from its registered formation, A2 roles and
    A11 skills (all read from the match header)."""

    __slots__ = ("attack", "deep", "formation", "lean", "skills", "target_gain")

    def __init__(
        self,
        formation: Sequence[int],
        roles: Any,
        skills: Sequence[str],
        shift: float = 0.0,
        bias: float = 0.0,
    ) -> None:
        d, _m, f = formation
        lean = (f - 2) * 0.12 + (4 - d) * 0.08
        if roles is not None:
            lean += 0.06 * (
                roles.attacking_midfielders
                + roles.offensive_wing_backs
                + roles.attacking_centre_back
                - roles.defending_midfielders
                - roles.withdrawn_striker
            )
        if "catenaccio" in skills:
            lean -= 0.15
        # lean in [-0.4, 0.4]: the registered set-up's own push forward (it
        # shapes the set-ups); ``shift`` is the game state's (chasing a goal,
        # holding a lead); deep: how far forward the team stays without the
        # ball in its own half; attack: how much it pushes forward with the
        # ball or the ball in the opponent's half (``bias``: the coach's
        # directness), also the lean of its decisions
        self.lean = max(-0.4, min(0.4, lean))
        self.deep = self.lean + shift
        self.attack = self.deep + bias
        self.skills = frozenset(skills)
        self.formation = tuple(formation)
        # threat-based gain of each target area (HeuristicCoach._target_area), by team
        self.target_gain: list[list[float] | None] = [None, None]


class HeuristicCoach:
    """Rule-of-thumb coach (see the module docstring).

    ``team`` is the team's registered :class:`~rules_engine.simulate.TeamSetup`
    (kept for reference; the style is read from the match header, which the
    simulator builds from it).  ``rng`` breaks ties and plays the mixed
    penalty strategy."""

    shot_threshold = 0.30  # shoot when P(goal) + 1/4 P(corner or rebound) reaches this
    shot_min = 0.10  # ... or when P(goal) reaches this (unless positioning first pays)
    press_threshold = 0.5  # press when the pressing dice win the ball this often
    press_threshold_far = 0.3  # ... when the ball is far from the own goal
    position_first = False  # lower a high ball value before shooting in the second action
    # directness added to every style's lean in play: without it two heuristic
    # coaches play so cautiously that a match has 2.0 goals and 30 % draws
    attack_bias = 0.4
    # game states (``_mode``): 0 until ``late_minute`` of the second half, then
    # 1 level, 2 behind, 3 ahead; a team that needs a goal gambles (fewer draws)
    late_minute = 15
    mode_shift: tuple[float, ...] = (0.0, 0.5, 1.0, -0.2)  # added to the lean
    mode_risk: tuple[float, ...] = (0.0, 0.0, -0.4, 0.4)  # added to the target-area risk
    mode_shot: tuple[float, ...] = (0.0, 0.0, -0.1, 0.08)  # added to the shooting threshold
    risk_min = 0.2  # losing the ball never becomes a gain, however big the push
    spend_modes: tuple[int, ...] = (1, 2)  # spend condition points whenever offered
    # most moves a sequence makes (goal kicks and quick free kicks allow any number)
    move_caps: dict[str, int] = {
        "goal_kick_move": 2,
        "quick_free_kick_move": 3,
        "free_move": 1,
        "setup_adjust": 2,
    }

    def __init__(self, rng: random.Random, team: Any = None) -> None:
        self.rng = rng
        self.team = team
        self._style: Style | None = None
        self._styles: list[Style] = []  # by game state (see ``mode_shift``)
        self._mode = 0
        self._action_turn = -1  # turn of this team's last action decision
        self._wcache: dict[tuple[int, ...], list[float]] = {}  # see choose
        self._seq_key: tuple[str, int, int | str] = ("", -1, 0)
        self._seq_next = -1
        self._seq_moves = 0
        self.unknown_decisions: set[str] = set()  # answered by the prudent fallback
        self._dispatch: dict[str, Callable[[Match, Pending, int], Any]] = {
            "kick_off_team": self._kick_off_team,
            "setup": self._setup,
            "half_time_formation": self._half_time_formation,
            "target_area": self._target_area,
            "goalkeeper_charge": self._goalkeeper_charge,
            "use_skill": self._use_skill,
            "closest_player": self._closest_player,
            "action": self._action,
            "use_cp": self._use_cp,
            "second_actions": self._second_actions,
            "corner_spot": self._corner_spot,
            "free_kick_attempt": self._free_kick_attempt,
            "penalty_keeper": self._penalty_keeper,
            "penalty_shot": self._penalty_shot,
            "slow_play": self._slow_play,
            "substitutions": self._substitutions,
            "substitution": self._substitution,
            "injured_player": self._remove_player,
            "injured_player_instead": self._remove_player,
            "sent_off_player": self._remove_player,
            "injury_substitution": self._injury_substitution,
            "skill_ball_area": self._skill_ball_area,
            "gegenpressing_aggressive": self._gegenpressing_aggressive,
            "play_fiery_coach": self._play_fiery_coach,
            "formation_change": self._formation_change,
        }

    # ------------------------------------------------------------ entry
    def choose(self, match: Match, pending: Pending) -> Any:
        team = 0 if pending.actor == "home" else 1
        if self._style is None:
            self._styles = [self._make_style(match, team, shift) for shift in self.mode_shift]
            self._set_mode(0)
        if pending.name in MOVE_DECISIONS:
            # count the moves of the current sequence (the coach's decisions follow each other)
            key = (pending.name, pending.turn, pending.stage)
            n = len(match.events)
            if key != self._seq_key or n != self._seq_next:
                self._seq_moves = 0
            self._seq_key = key
            self._seq_next = n + 1
            choice = self._move(match, pending, team)
            if choice != DONE:
                self._seq_moves += 1
            return choice
        # the game state is read at the other decisions (every turn has some;
        # the moves, half of all decisions, keep it) and changes only late in
        # the second half and in extra time
        st = match.st
        if st.half > 2 or (st.half == 2 and st.clock >= self.late_minute):  # (all of extra time is late)
            lead = st.teams[team].goals - st.teams[1 - team].goals
            mode = 1 if lead == 0 else (2 if lead < 0 else 3)
            if mode != self._mode:
                self._set_mode(mode)
        handler = self._dispatch.get(pending.name)
        if handler is not None:
            return handler(match, pending, team)
        return self._fallback(pending)

    def _set_mode(self, mode: int) -> None:
        self._mode = mode
        style = self._style = self._styles[mode]
        # the weights depend on the style's leans only: shared by every coach
        # (and match) of the same leans
        self._wcache = _WEIGHT_CACHE.setdefault((style.deep, style.attack), {})

    def _make_style(self, match: Match, team: int, shift: float) -> Style:
        # the header holds the registered set-up (built from ``self.team`` by the simulator)
        spec = match.header.teams[team]
        return Style(spec.formation, spec.roles, spec.skills, shift, self.attack_bias)

    @property
    def style(self) -> Style:
        assert self._style is not None
        return self._style

    def _fallback(self, pending: Pending) -> Any:
        """A decision this coach does not know (the engine grows): be prudent."""
        self.unknown_decisions.add(pending.name)
        opts = pending.options
        for safe in ("no", DONE, "none", 0):
            if safe in opts:
                return safe
        return opts[self.rng.randrange(len(opts))]

    # ------------------------------------------------------- evaluations
    @staticmethod
    def _lead(st: MatchState, team: int) -> int:
        return st.teams[team].goals - st.teams[1 - team].goals

    def _goal_odds(self, st: MatchState, team: int, free_kick: bool = False) -> tuple[float, float]:
        """(P(goal), P(corner or rebound)) of a goal attempt from the ball area now."""
        area = _area(st.ball)
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

    def _weights(self, st: MatchState, team: int) -> list[float]:
        """Value of one player of `team` in each playing area, given the ball."""
        ball = _area(st.ball)
        ct = st.ct == team
        ts = st.teams[team]
        key = (team, ball, ct, *ts.formation)
        cached = self._wcache.get(key)
        if cached is not None:
            return cached
        cached = self._compute_weights(st, team, ball, ct, ts)
        if len(self._wcache) > 4096:
            self._wcache.clear()
        self._wcache[key] = cached
        return cached

    def _compute_weights(self, st: MatchState, team: int, ball: int, ct: bool, ts: TeamState) -> list[float]:
        style = self.style
        # the coach's bias pushes up in attack and presses high, but does not
        # pull a defence out of its own half (formations keep their depth)
        push = style.attack if ct or _OPP_HALF[team][ball] else style.deep
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

    def _utility(self, st: MatchState, team: int, field: Sequence[int], gk: int, w: Sequence[float]) -> float:
        """Value of a whole placement (set-ups): positions plus the contests."""
        u = 0.0
        for a in range(B.N_AREAS):
            n = field[a]
            if n:
                u += w[a] * _stack(n)
        ball = _area(st.ball)
        own_pen, opp_pen = B.PEN[team], B.PEN[1 - team]
        return u + self._contest(
            st,
            team,
            field[ball] + (1 if gk == ball else 0),
            field[opp_pen],
            field[own_pen] + (1 if gk == own_pen else 0),
            gk == own_pen,
        )

    @staticmethod
    def _contest(
        st: MatchState, team: int, at_ball: int, at_opp_pen: int, at_own_pen: int, gk_home: bool
    ) -> float:
        """Value of the local contests: the ball area (pressing needs as many
        players, outnumbering lowers ball values and allows free moves) and the
        penalty areas (goal attempt modifiers, rebounds)."""
        opp = st.teams[1 - team]
        ball = _area(st.ball)
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

    def _move(self, match: Match, pending: Pending, team: int) -> Any:
        """One move of a sequence, or ``done``.

        Every single move of the team is scored (position value of the two
        areas plus the contests of the ball area and the penalty areas); the
        best ones are checked with the engine's own legality check
        (``pending.verify_fn``, the very check that defines ``options``) so
        the usually 20-60 options need not be listed.  Without a verifier, or
        if none of the first candidates is legal, the options are listed and
        the best legal one is taken.

        Hot path (about 200 decisions a match): a capped sequence ends before
        anything is evaluated; candidates are (gain, rank) pairs of numbers
        (the names are looked up only for the few that are checked), scored
        per source by one comprehension over precomputed (destination, rank)
        pairs, with the contest values read from part tables; a free move
        without any eligible player is answered without scoring."""
        st = match.st
        name = pending.name
        verify = pending.verify_fn
        if verify is not None and self._seq_moves >= self.move_caps.get(name, 99):
            try:
                verify(DONE)
            except FubaError:
                pass
            else:
                return DONE
        free = name == "free_move"
        return self._pick(pending, self._move_candidates(st, name, team), free, 0.25 if free else 0.12)

    def _move_candidates(self, st: MatchState, name: str, team: int) -> list[tuple[float, int]]:
        """The single moves of ``team`` worth making in a ``name`` sequence, as
        (gain, rank) pairs (see ``_move``)."""
        ts = st.teams[team]
        opp = st.teams[1 - team]
        ts_field = ts.field
        gk = ts.gk
        own_pen = _PEN[team]
        opp_pen = _PEN[1 - team]
        gk_home = gk == own_pen
        free = name == "free_move"
        style = self.style
        n_loc = _N_LOC
        # runner, fast defender, box-to-box midfielder (A11): a free move from anywhere
        extra_free = free and not style.skills.isdisjoint(_EXTRA_FREE_MOVE_SKILLS) and st.uses("A11")
        restricted = free and not extra_free
        if restricted:
            # 4.3.1: only from an outnumbering area (players per area as 1.4.1
            # counts them: goalkeeper included, at most six) or straight off a goal line
            of, og = opp.field, opp.gk
            ids = []
            for src in _compress(range(n_loc), ts_field):
                a = _AREA_OF[src]
                o = ts_field[a] + (gk == a)
                t = of[a] + (og == a)
                if (6 if o > 6 else o) > (6 if t > 6 else t):
                    ids.append(src)
                elif _IS_GOAL_LINE[src]:
                    ids.append(src + n_loc)
            if not ids and (gk < 0 or gk_home):
                return []  # no candidate at all
        else:
            ids = list(_compress(range(n_loc), ts_field))  # every player may move
        w = self._weights(st, team)
        field = list(ts_field)
        for s in _CORNER_SPOTS:  # a corner taker counts in its corner area
            if field[s]:
                field[_AREA_OF[s]] += field[s]
                field[s] = 0
        ball = _AREA_OF[st.ball]
        ct = st.ct == team
        # the local contests (see _contest): the ball area and, near it, the
        # penalty area that matters (the opponent's when in control, else the own)
        pen = opp_pen if ct else own_pen
        c_ball = field[ball] + (1 if gk == ball else 0)
        c_pen = field[pen] + (1 if gk == pen and not ct else 0)  # never in the opponent's box
        bpart = _BALL_PART[ct][opp.count(ball)]
        ppart = _PEN_PART[ct][opp.count(pen)] if _DIST[ball][pen] <= 2 else _NO_PEN_PART
        base = bpart[c_ball] + ppart[c_pen] - (0.0 if gk_home else 6.0)
        # a move must be worth the trouble (keeps the sequences short)
        threshold = 0.25 if free else 0.12
        g_off = 0.0 if gk_home else 6.0
        # value a player adds to each area (diminishing returns)
        stack_gain = _STACK_GAIN
        wadd = [w[d] * stack_gain[field[d]] for d in range(_N_AREAS)]
        # contest gain of a move into each area from an area outside the contests
        cdst = [0.0] * _N_AREAS
        ball_is_pen = ball == pen
        cdst[ball] = bpart[c_ball + 1] + ppart[c_pen + ball_is_pen] - g_off - base
        if not ball_is_pen:
            cdst[pen] = bpart[c_ball] + ppart[c_pen + 1] - g_off - base
        special = (ball, pen, opp_pen, own_pen)
        drib_src = ball if ct and name == "move" and not opp.has(ball) else -1
        threat = THREAT[team]
        dbonus = 0.3 if "dribbler" in style.skills else 0.0
        cands: list[tuple[float, int]] = []
        append = cands.append
        extend = cands.extend
        for sid in ids:
            a_src = _SRC_AREA[sid]
            loss = w[a_src] * stack_gain[field[a_src] - 1]
            if a_src not in special:
                extend([(g, r) for d, r in _SRC_PAIRS[sid] if (g := wadd[d] - loss + cdst[d]) > threshold])
                continue
            s_ball = a_src == ball
            s_pen = a_src == pen
            for d, r in _SRC_PAIRS[sid]:
                gain = wadd[d] - loss
                db = (d == ball) - s_ball
                dp = (d == pen) - s_pen
                if db or dp:
                    gain += bpart[c_ball + db] + ppart[c_pen + dp] - g_off - base
                if gain > threshold:
                    append((gain, r))
                if sid == drib_src:
                    # dribbling (4.5.2): the player in the ball area takes the ball along
                    g2 = gain + 4.0 * (threat[d] - threat[a_src]) + dbonus
                    if g2 > threshold:
                        append((g2, _DRIB_RANK[sid][d]))
        if gk >= 0 and not gk_home:
            for dst in _ADJ_PLAY[gk]:
                gkh = dst == own_pen
                db = (dst == ball) - (gk == ball)
                dp = 0 if ct else int(gkh)
                g = bpart[c_ball + db] + ppart[c_pen + dp] - (0.0 if gkh else 6.0) - base
                if g > threshold:
                    append((g, _GK_RANK[dst]))
        return cands

    @staticmethod
    def _pick(pending: Pending, cands: list[tuple[float, int]], free: bool, threshold: float) -> Any:
        """The best legal move of the (gain, rank) candidates, or ``done``."""
        names = _MOVE_NAME
        verify = pending.verify_fn
        if verify is not None:
            cands.sort(reverse=True)
            for _, r in cands[:6]:
                c = names[r]
                try:
                    verify(c)
                except FubaError:
                    continue
                return c
            try:
                verify(DONE)
            except FubaError:
                pass
            else:
                if not cands or free:
                    return DONE
        # list the options and take the best legal one
        opts = pending.options
        if len(opts) == 1:
            return opts[0]
        scores = {names[r]: g for g, r in cands}
        best, best_gain = DONE, threshold
        for o in opts:
            sc = scores.get(o)
            if sc is not None and sc > best_gain:
                best, best_gain = o, sc
        if best == DONE and DONE not in opts:
            return opts[0]
        return best

    # -------------------------------------------------------- decisions
    def _kick_off_team(self, match: Match, pending: Pending, team: int) -> Any:
        return pending.actor  # start with the ball

    def _target_area(self, match: Match, pending: Pending, team: int) -> Any:
        """Where to play the ball (4.1.1): the chance to keep it (control check
        against the modified ball value, 4.1.2/4.2.2; no risk in an easy
        situation) times the threat from there, minus the chance to lose it
        times the threat the opponent would have from there.  The best areas
        are checked with the engine's legality check (``verify_fn``, which
        defines ``options``); the options are listed only as a fallback.

        The modified ball value is the engine's ``ball_value_after_target``
        computed with the per-decision parts hoisted out of the loop (the
        engine's own crossing and offside-risk functions are called only for
        the long passes and the offside candidates)."""
        st = match.st
        start = st.flags.start
        start_a = _AREA_OF[start]
        us, them = st.teams[team], st.teams[1 - team]
        threat_us, threat_them = THREAT[team], THREAT[1 - team]
        attack = self.style.attack
        # losing the ball costs less when a goal is needed, more when a lead is held
        risk = 0.9 - 0.6 * attack + self.mode_risk[self._mode]
        if risk < self.risk_min:
            risk = self.risk_min
        ours = _counts(us)
        theirs = _counts(them)
        near_ours = _near(ours)
        near_theirs = _near(theirs)
        # upper bounds first (no risk of losing the ball), then the exact score
        # (needs the modified ball value) only while an area can still win
        rnd = self.rng.random
        dist_short = _DIST[start_a]
        bounds: list[tuple[float, int]] = []
        # 4.1.1: a player there or in an adjacent area
        reach = near_ours | (1 << start_a)
        for t in _compress(range(_N_AREAS), ours):
            reach |= 1 << t
        gains = self.style.target_gain
        g0 = gains[team]
        if g0 is None:
            g0 = gains[team] = [threat_us[t] * (1.0 + 0.4 * attack) for t in range(_N_AREAS)]
        for t in _compress(range(_N_AREAS), map(reach.__and__, _BIT)):
            o = ours[t]
            gain = g0[t] + (0.05 if o and dist_short[t] <= 1 else 0.0)
            if o > theirs[t]:
                gain += 0.03
            gain += rnd() * 0.01
            bounds.append((gain, t))
        bounds.sort(reverse=True)
        # the per-decision part of ball_value_after_target (4.1.2, A7)
        restart = st.flags.restart
        v0 = st.value
        if restart not in ("free_kick", "corner", "goal_kick") and start < _N_AREAS and not them.has(start):
            v0 -= 1  # no defender in the start area (4.1.2.1)
        per = 2 if st.weather in ("windy", "storm") else 1
        dist_long = _DIST[start]
        offside = st.uses("A7") and restart not in ("goal_kick", "corner")
        beyond_start = _BEYOND[team][start_a]
        opp_half = _OPP_HALF[team]
        scored: list[tuple[float, str]] = []
        best_exact = -1e9
        cross: bool | None = None
        sl: int | None = -2
        risk_up: int | None = None
        for gain, t in bounds:
            if gain < best_exact and len(scored) >= 2:
                break
            c, d = ours[t], theirs[t]
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
                if sl is not None and _BEYOND[team][sl][t]:
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
            scored.append((score, _NAMES[t]))
        scored.sort(reverse=True)
        verify = pending.verify_fn
        if verify is not None:
            for _, name in scored[:4]:
                try:
                    verify(name)
                except FubaError:
                    continue
                return name
        opts = pending.options
        for _, name in scored:
            if name in opts:
                return name
        return opts[0]

    def _goalkeeper_charge(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        return "yes" if st.value >= 3 else "no"

    # skills worth their condition point whenever the engine offers them
    ALWAYS_SKILLS = frozenset(
        {
            "shot_stopper",
            "leading_goalkeeper",
            "clinical_finisher",
            "trained_special_event",
            "sweeper_keeper",
            "stopper",
            "penalty_saver",
            "gegenpressing",
            "fast_defender",
            "offside_trap",
            "goal_poacher",
            "target_man",
            "regista",
            "catenaccio",
            "creative_midfielder",
            "mezzala",
            "skilled_wing_backs",
        }
    )

    def _use_skill(self, match: Match, pending: Pending, team: int) -> Any:
        """Play a skill (A11) when it helps now; condition points are kept for
        the actions when the team is short of them."""
        skill = next((o for o in pending.options if o != "no"), "no")
        st = match.st
        ts = st.teams[team]
        ct = st.ct == team
        v = st.value
        lead = self._lead(st, team)
        yes, no = skill, "no"
        if skill == "aggressive_striker":
            return yes if ts.yellows == 0 and v >= 3 else no
        if skill == "midfield_general":
            # act first: the defending team near its goal, the attacking team near the other goal
            own_half = B.in_own_half_partly(team, _area(st.ball))
            return yes if (not ct) == own_half else no
        if skill == "fanatic_fans":
            # the die becomes the new ball value (a foul if it equals the current one)
            return yes if (ct and v >= 5) or (not ct and v <= 2) else no
        if skill == "diver":
            return yes if ts.yellows < 2 else no
        if skill == "seconda_punta":
            # skip the action stage (and the opponent's pressing) when the ball value is high
            return yes if v >= 4 and not can_attempt_from(st, team, _area(st.ball)) else no
        if skill == "trained_formation_change":
            return yes if st.half == 2 and lead != 0 else no
        if skill == "creative_goalkeeper":
            return yes if ts.cp_total() >= 3 else no
        if skill in self.ALWAYS_SKILLS or ts.cp_total() >= 4:
            return yes
        return no

    def _skill_ball_area(self, match: Match, pending: Pending, team: int) -> Any:
        """Skilled wing backs: move the won ball to the safest adjacent area."""
        threat = THREAT[team]
        return max(pending.options, key=lambda o: threat[_area(B.INDEX[o])])

    def _gegenpressing_aggressive(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        return "yes" if P_AGGR[st.value] > P_PRESS[st.value] + 0.15 and st.teams[team].yellows < 2 else "no"

    def _play_fiery_coach(self, match: Match, pending: Pending, team: int) -> Any:
        """Fiery coach (A11): a 4-6 keeps the condition point, a 1 sends the coach off (then
        fresh players cost +2 and no formation changes).  Risk the coach unless points are
        plentiful while substitutions are still to come."""
        st = match.st
        ts = st.teams[team]
        subs_to_come = st.uses("A3") and ts.subs_used < 3
        return "no" if subs_to_come and ts.cp_total() >= 5 else "yes"

    def _formation_change(self, match: Match, pending: Pending, team: int) -> Any:
        lead = self._lead(match.st, team)
        prefs = (
            ("defence>forward", "midfield>forward", "defence>midfield")
            if lead <= 0
            else ("forward>defence", "midfield>defence", "forward>midfield")
        )
        for o in prefs:
            if o in pending.options:
                return o
        return pending.options[0]

    def _closest_player(self, match: Match, pending: Pending, team: int) -> Any:
        return self._cheapest_area(match, pending.options, team)

    def _cheapest_area(self, match: Match, options: tuple[Any, ...], team: int) -> Any:
        ts = match.st.teams[team]
        w = self._weights(match.st, team)
        # take the player whose area loses the least

        def loss(o: Any) -> float:
            a = B.INDEX[o]
            n = ts.field[a]
            return w[_area(a)] * (_stack(n) - _stack(max(0, n - 1)))

        return min(options, key=loss)

    def _action(self, match: Match, pending: Pending, team: int) -> Any:
        opts = pending.options
        if len(opts) == 1:
            return opts[0]
        st = match.st
        v = st.value
        ball = _area(st.ball)
        us, them = st.teams[team], st.teams[1 - team]
        if st.ct == team:
            pg, psoft = self._goal_odds(st, team) if "goal_attempt" in opts else (0.0, 0.0)
            thr = self.shot_threshold - 0.08 * self.style.attack + self.mode_shot[self._mode]
            ev = pg + 0.25 * psoft
            first = self._action_turn != st.turn
            self._action_turn = st.turn
            if "goal_attempt" in opts:
                if ev >= thr:
                    return "goal_attempt"
                # first action with a high ball value: lower it first, shoot in the second action
                second_likely = them.count(ball) <= us.count(ball)
                wait = self.position_first and first and v >= 3 and second_likely and "positioning" in opts
                if not wait and pg >= self.shot_min:
                    return "goal_attempt"
            if "positioning" in opts and v >= 3:
                return "positioning"
            if "movement" in opts:
                return "movement"
            if "goal_attempt" in opts and pg >= 0.05:
                return "goal_attempt"
            return opts[0]
        # defending team
        danger = THREAT[1 - team][ball]
        own_pen_target = st.flags.target == B.PEN[team]
        p_press = P_PRESS[v]
        p_aggr = P_AGGR[v]
        # far from the own goal a failed pressing (ball value -1) costs little
        # (an attacking style presses high, a defensive style waits for the opponent)
        far = self.press_threshold_far - 0.5 * self.style.attack
        press_at = self.press_threshold if danger >= 0.2 else far
        if "pressing" in opts and p_press >= press_at:
            return "pressing"
        if (
            "aggressive_pressing" in opts
            and not own_pen_target
            and p_aggr >= 0.55
            and (danger >= 0.2 or "tackler" in self.style.skills)
            and us.yellows < 2
        ):
            return "aggressive_pressing"
        if "positioning" in opts and v <= 3:
            return "positioning"
        if "pressing" in opts and p_press >= 0.3:
            return "pressing"
        if "movement" in opts and us.count(ball) < them.count(ball):
            return "movement"
        if "positioning" in opts and v <= 5:
            return "positioning"
        if "movement" in opts:
            return "movement"
        return opts[0]

    def _use_cp(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        ts = st.teams[team]
        if self._mode in self.spend_modes:
            return "yes"  # points left at the final whistle are wasted
        zone = B.zone_of(team, _area(st.ball))
        if zone == B.ZONE_MID:
            return "yes" if ts.cp[zone] >= 2 or ts.cp_total() >= 7 else "no"
        if st.ct == team:
            return "yes" if zone == B.ZONE_FWD or ts.cp_total() >= 6 else "no"
        return "yes" if zone == B.ZONE_DEF or ts.cp_total() >= 6 else "no"

    def _second_actions(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        ball = _area(st.ball)
        if can_attempt_from(st, team, ball):
            return "yes"
        if B.zone_of(team, ball) == B.ZONE_DEF:
            return "no"
        ours, theirs = st.teams[team].count(ball), st.teams[1 - team].count(ball)
        return "yes" if ours > theirs or st.value >= 4 else "no"

    def _corner_spot(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        us, them = st.teams[team], st.teams[1 - team]

        def score(o: Any) -> float:
            a = B.CORNER_OF_SPOT[B.INDEX[o]]
            return us.count(a) - them.count(a) + self.rng.random() * 0.5

        return max(pending.options, key=score)

    def _free_kick_attempt(self, match: Match, pending: Pending, team: int) -> Any:
        pg, psoft = self._goal_odds(match.st, team, free_kick=True)
        return "yes" if pg + 0.25 * psoft >= 0.3 - 0.05 * self.style.attack else "no"

    def _penalty_keeper(self, match: Match, pending: Pending, team: int) -> Any:
        # Nash equilibrium of the 5.5.2 table: the keeper mixes uniformly
        opts = pending.options
        return opts[self.rng.randrange(len(opts))]

    def _penalty_shot(self, match: Match, pending: Pending, team: int) -> Any:
        # Nash equilibrium of the 5.5.2 table (I-9: 6 where the keeper is, 2 elsewhere): uniform
        opts = pending.options
        return opts[self.rng.randrange(len(opts))]

    def _slow_play(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        if self._lead(st, team) <= 0 or st.teams[team].yellows >= 2:
            return "no"
        minute = st.minute()
        # P(two dice x 10 < minute): the yellow card risk of A8
        p_card = _P_SLOW_CARD[minute] if 0 <= minute < len(_P_SLOW_CARD) else (0.0 if minute < 0 else 1.0)
        return "yes" if (st.half == 2 and p_card <= 0.2) or minute <= 20 else "no"

    def _substitutions(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        ts = st.teams[team]
        opts = pending.options
        left = max(opts) if opts else 0
        want = 0
        if ts.yellows >= 1 and st.half == 2:
            want += 1
        if st.half == 2 and ts.cp_total() <= 5:
            want += 1 if ts.cp_total() >= 3 else 2
        if st.half == 2 and st.clock >= 25 and self._lead(st, team) != 0:
            want += 1
        if st.half == 2 and st.clock >= 35:
            want = left  # use what is left late in the game
        want = min(want, left)
        return want if want in opts else opts[0]

    def _substitution(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        ts = st.teams[team]
        opts = pending.options
        lead = self._lead(st, team)
        if st.half == 2 and ts.yellows >= 1:
            z = min(range(3), key=lambda i: ts.cp[i])
            o = f"yellow:{B.ZONE_NAMES[z]}"
            if o in opts:
                return o
        if st.half == 2 and st.clock >= 20 and lead != 0:
            change = "formation:defence>forward" if lead < 0 else "formation:forward>defence"
            if change in opts:
                return change
            change = "formation:midfield>forward" if lead < 0 else "formation:forward>midfield"
            if change in opts:
                return change
        # a fresh player where the condition points are lowest (ball zone first)
        zone = B.zone_of(team, _area(st.ball))
        z = min(range(3), key=lambda i: (ts.cp[i], i != zone))
        o = f"fresh:{B.ZONE_NAMES[z]}"
        return o if o in opts else opts[0]

    def _half_time_formation(self, match: Match, pending: Pending, team: int) -> Any:
        lead = self._lead(match.st, team)
        opts = pending.options
        if lead < 0:
            for o in ("defence>forward", "midfield>forward"):
                if o in opts:
                    return o
        if lead > 1:
            for o in ("forward>midfield", "forward>defence"):
                if o in opts:
                    return o
        return "none" if "none" in opts else opts[0]

    def _remove_player(self, match: Match, pending: Pending, team: int) -> Any:
        # never the goalkeeper (A4): a piece goes all the same and the opponent's attempts get +1
        areas = tuple(o for o in pending.options if o != GOALKEEPER)
        return self._cheapest_area(match, areas or pending.options, team)

    def _injury_substitution(self, match: Match, pending: Pending, team: int) -> Any:
        return "yes" if "yes" in pending.options else pending.options[0]

    # ------------------------------------------------------------ set-ups
    def _setup(self, match: Match, pending: Pending, team: int) -> Any:
        kind = SETUP_KIND.get(pending.rule, "")
        own = None
        if kind in ("kick_off", "free_kick", "corner") and pending.verify_fn is not None:
            try:
                own = self._build_setup(match, team, kind)
                pending.verify_fn(own)
            except (FubaError, ValueError, KeyError):
                own = None
        if own is not None:
            return own
        opts = pending.options
        if not opts:
            raise ValueError("no set-up offered")
        st = match.st
        w = self._weights(st, team)

        def score(o: dict[str, Any]) -> float:
            field = [0] * B.N_LOC
            for name, n in o["players"].items():
                field[_area(B.INDEX[name])] += n
            return self._utility(st, team, field, B.INDEX[o["gk"]], w)

        return max(opts, key=score)

    def _build_setup(self, match: Match, team: int, kind: str) -> dict[str, Any]:
        st = match.st
        ts = st.teams[team]
        ct = st.ct == team
        n = ts.outfield()
        d, mi, f = ts.formation
        roles = match.header.teams[team].roles
        if st.uses("A2"):
            am, dm = roles.attacking_midfielders, roles.defending_midfielders
            mi -= am + dm
            f += am
            d += dm
        H = team == B.HOME

        def A(home_name: str) -> int:
            # the same area seen from `team` (home names; mirrored for away)
            a = B.INDEX[home_name]
            return a if H else _MIRROR[a]

        own_pen, own_front = A("H-PEN"), A("H-FRONT")
        own_lc, own_rc, own_lm, own_rm = A("H-LC"), A("H-RC"), A("H-LM"), A("H-RM")
        opp_pen, opp_front = A("A-PEN"), A("A-FRONT")
        opp_lm, opp_rm = A("A-LM"), A("A-RM")
        field = [0] * B.N_LOC

        def spread(count: int, areas: Sequence[int]) -> None:
            for i in range(max(0, count)):
                field[areas[i % len(areas)]] += 1

        ball = st.ball
        if kind == "kick_off":
            spread(d, (own_front, own_lc, own_rc))
            spread(mi, (B.CENTRE, own_lm, own_rm))
            spread(f, (B.CENTRE, own_lm, own_rm) if self.style.lean > 0 else (B.CENTRE,))
            if ct:
                while field[B.CENTRE] < 2:
                    src = max((a for a in range(B.N_AREAS) if a != B.CENTRE), key=lambda a: field[a])
                    field[src] -= 1
                    field[B.CENTRE] += 1
        elif ct:
            # free kick or corner: the taker at the spot, a crowd in the box
            field[ball] += 1
            rest = [d, mi, f]
            push = 4 if kind == "corner" else 3
            attackers = min(push + (1 if self.style.attack > 0 else 0), f + mi)
            field[opp_pen] += attackers
            field[opp_front] += 2
            back = (own_front, B.CENTRE, opp_lm, opp_rm, own_lc, own_rc)
            spread(sum(rest) - 1 - attackers - 2, back)
        else:
            # defending a set piece: fill the own box and the ball's neighbourhood
            ball_a = _area(ball)
            field[own_pen] += 3
            field[own_front] += 2
            near = [a for a in B.ADJ[ball_a] if a < B.N_AREAS and a != own_pen] or [own_front]
            spread(2, near)
            spread(sum((d, mi, f)) - 7, (own_lc, own_rc, B.CENTRE, own_lm, own_rm))
        total = sum(field)
        # match the players actually on the pitch (red cards, injuries)
        while total > n:
            src = max(range(B.N_LOC), key=lambda a: (field[a] - (2 if a == ball else 0), -a))
            field[src] -= 1
            total -= 1
        while total < n:
            field[B.CENTRE if kind == "kick_off" else own_front] += 1
            total += 1
        return {
            "gk": B.NAMES[own_pen],
            "players": {B.NAMES[a]: field[a] for a in range(B.N_LOC) if field[a]},
        }


def make_coach(kind: str, rng: random.Random, team: Any = None) -> Coach:
    """``"heuristic"`` or ``"random"``."""
    if kind == "heuristic":
        return HeuristicCoach(rng, team)
    if kind == "random":
        return RandomCoach(rng)
    raise ValueError(f"unknown coach kind {kind!r}; known: heuristic, random")

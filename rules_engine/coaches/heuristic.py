"""``HeuristicCoach``: rule-of-thumb play built on the dice odds (see the package docstring)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from .. import board as B
from .. import decisions as D
from ..actions import ACTIONS
from ..cards import GOALKEEPER
from ..errors import FubaError
from ..events import Pending
from ..machine import Match
from ..rules import (
    can_attempt_from,
)
from ..state import MatchState
from .moves import move_candidates, pick_move
from .positions import placement_utility, position_weights
from .setups import SETUP_KIND, build_setup
from .style import Style
from .tables import (
    P_AGGR,
    P_PRESS,
    P_SLOW_CARD,
    THREAT,
    WEIGHT_CACHE,
    goal_odds,
    play_area,
    stack_value,
)
from .targets import target_area


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
        D.GOAL_KICK_MOVE: 2,
        D.QUICK_FREE_KICK_MOVE: 3,
        D.FREE_MOVE: 1,
        D.SETUP_ADJUST: 2,
    }

    def __init__(self, rng: random.Random, team: Any = None) -> None:
        self.rng = rng
        self.team = team
        self._style: Style | None = None
        self._styles: list[Style] = []  # by game state (see ``mode_shift``)
        self._mode = 0
        self._action_turn = -1  # turn of this team's last action decision
        self._wcache: dict[int, list[float]] = {}  # see choose
        self._seq_key: tuple[str, int, int | str] = ("", -1, 0)
        self._seq_next = -1
        self._seq_moves = 0
        self.unknown_decisions: set[str] = set()  # answered by the prudent fallback
        self._dispatch: dict[str, Callable[[Match, Pending, int], Any]] = {
            D.KICK_OFF_TEAM: self._kick_off_team,
            D.SETUP: self._setup,
            D.HALF_TIME_FORMATION: self._half_time_formation,
            D.TARGET_AREA: self._target_area,
            D.GOALKEEPER_CHARGE: self._goalkeeper_charge,
            D.USE_SKILL: self._use_skill,
            D.CLOSEST_PLAYER: self._closest_player,
            D.ACTION: self._action,
            D.USE_CP: self._use_cp,
            D.SECOND_ACTIONS: self._second_actions,
            D.CORNER_SPOT: self._corner_spot,
            D.FREE_KICK_ATTEMPT: self._free_kick_attempt,
            D.PENALTY_KEEPER: self._penalty_keeper,
            D.PENALTY_SHOT: self._penalty_shot,
            D.SLOW_PLAY: self._slow_play,
            D.SUBSTITUTIONS: self._substitutions,
            D.SUBSTITUTION: self._substitution,
            D.INJURED_PLAYER: self._remove_player,
            D.INJURED_PLAYER_INSTEAD: self._remove_player,
            D.SENT_OFF_PLAYER: self._remove_player,
            D.INJURY_SUBSTITUTION: self._injury_substitution,
            D.SKILL_BALL_AREA: self._skill_ball_area,
            D.GEGENPRESSING_AGGRESSIVE: self._gegenpressing_aggressive,
            D.PLAY_FIERY_COACH: self._play_fiery_coach,
            D.FORMATION_CHANGE: self._formation_change,
        }

    # ------------------------------------------------------------ entry
    def choose(self, match: Match, pending: Pending) -> Any:
        team = 0 if pending.actor == "home" else 1
        if self._style is None:
            self._styles = [self._make_style(match, team, shift) for shift in self.mode_shift]
            self._set_mode(0)
        if pending.name in D.MOVE_DECISIONS:
            # count the moves of the current sequence (the coach's decisions follow each other)
            key = (pending.name, pending.turn, pending.stage)
            n = len(match.events)
            if key != self._seq_key or n != self._seq_next:
                self._seq_moves = 0
            self._seq_key = key
            self._seq_next = n + 1
            choice = self._move(match, pending, team)
            if choice != D.DONE:
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
        name = pending.name
        # the most frequent, called directly (compiled: a bound method from the dict is called
        # generically, its arguments boxed and parsed again)
        if name == D.TARGET_AREA:
            return self._target_area(match, pending, team)
        if name == D.ACTION:
            return self._action(match, pending, team)
        if name == D.SECOND_ACTIONS:
            return self._second_actions(match, pending, team)
        if name == D.SUBSTITUTIONS:
            return self._substitutions(match, pending, team)
        if name == D.SETUP:
            return self._setup(match, pending, team)
        if name == D.USE_CP:
            return self._use_cp(match, pending, team)
        if name == D.USE_SKILL:
            return self._use_skill(match, pending, team)
        handler = self._dispatch.get(name)
        if handler is not None:
            return handler(match, pending, team)
        return self._fallback(pending)

    def _set_mode(self, mode: int) -> None:
        self._mode = mode
        style = self._style = self._styles[mode]
        # the weights depend on the style's leans only: shared by every coach
        # (and match) of the same leans
        self._wcache = WEIGHT_CACHE.setdefault((style.deep, style.attack), {})

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
        for safe in ("no", D.DONE, "none", 0):
            if safe in opts:
                return safe
        return opts[self.rng.randrange(len(opts))]

    # ------------------------------------------------------- evaluations
    @staticmethod
    def _lead(st: MatchState, team: int) -> int:
        return st.teams[team].goals - st.teams[1 - team].goals

    def _weights(self, st: MatchState, team: int) -> list[float]:
        """Value of one player of `team` in each playing area, given the ball."""
        return position_weights(st, team, self.style, self._wcache)

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
            check = pending.check_fn
            if check is not None:
                if check(D.DONE) is None:
                    return D.DONE
            else:
                try:
                    verify(D.DONE)
                except FubaError:
                    pass
                else:
                    return D.DONE
        free = name == D.FREE_MOVE
        cands = move_candidates(st, name, team, self.style, self._wcache)
        return pick_move(pending, cands, free, 0.25 if free else 0.12)

    # -------------------------------------------------------- decisions
    def _kick_off_team(self, match: Match, pending: Pending, team: int) -> Any:
        return pending.actor  # start with the ball

    def _target_area(self, match: Match, pending: Pending, team: int) -> Any:
        """Where to play the ball (4.1.1, ``targets``)."""
        # losing the ball costs less when a goal is needed, more when a lead is held
        risk = 0.9 - 0.6 * self.style.attack + self.mode_risk[self._mode]
        if risk < self.risk_min:
            risk = self.risk_min
        return target_area(match.st, pending, team, self.style, risk, self.rng.random)

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
            own_half = B.in_own_half_partly(team, play_area(st.ball))
            return yes if (not ct) == own_half else no
        if skill == "fanatic_fans":
            # the die becomes the new ball value (a foul if it equals the current one)
            return yes if (ct and v >= 5) or (not ct and v <= 2) else no
        if skill == "diver":
            return yes if ts.yellows < 2 else no
        if skill == "seconda_punta":
            # skip the action stage (and the opponent's pressing) when the ball value is high
            return yes if v >= 4 and not can_attempt_from(st, team, play_area(st.ball)) else no
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
        return max(pending.options, key=lambda o: threat[play_area(B.INDEX[o])])

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
            return w[play_area(a)] * (stack_value(n) - stack_value(max(0, n - 1)))

        return min(options, key=loss)

    def _action(self, match: Match, pending: Pending, team: int) -> Any:
        """The action (4.3).  Each action is probed with the request's own check
        (``pending.check_fn``, the verdict of ``verify_fn``) only when the choice comes to it:
        listing the options checks the goal attempt and both pressings every time.  With a
        single legal action every branch ends on it, as on a listed single option."""
        check = pending.check_fn
        if check is None:  # (a request without a check: its listed options)
            opts = pending.options
            check = lambda c: None if c in opts else "not offered"  # noqa: E731
        if match.st.ct == team:
            return self._attack_action(match, pending, team, check)
        return self._defend_action(match, pending, team, check)

    def _attack_action(
        self, match: Match, pending: Pending, team: int, check: Callable[[Any], str | None]
    ) -> Any:
        st = match.st
        v = st.value
        ball = play_area(st.ball)
        us, them = st.teams[team], st.teams[1 - team]
        goal_ok = check("goal_attempt") is None
        pg, psoft = goal_odds(st, team) if goal_ok else (0.0, 0.0)
        thr = self.shot_threshold - 0.08 * self.style.attack + self.mode_shot[self._mode]
        ev = pg + 0.25 * psoft
        first = self._action_turn != st.turn
        self._action_turn = st.turn
        positioning_ok = -1  # (not probed yet)
        if goal_ok:
            if ev >= thr:
                pending.vouched = "goal_attempt"
                return "goal_attempt"
            # first action with a high ball value: lower it first, shoot in the second action
            second_likely = them.count(ball) <= us.count(ball)
            wait = False
            if self.position_first and first and v >= 3 and second_likely:
                positioning_ok = 1 if check("positioning") is None else 0
                wait = positioning_ok == 1
            if not wait and pg >= self.shot_min:
                pending.vouched = "goal_attempt"
                return "goal_attempt"
        if v >= 3 and (positioning_ok == 1 or (positioning_ok < 0 and check("positioning") is None)):
            pending.vouched = "positioning"
            return "positioning"
        if check("movement") is None:
            pending.vouched = "movement"
            return "movement"
        if goal_ok and pg >= 0.05:
            pending.vouched = "goal_attempt"
            return "goal_attempt"
        return _first_legal(pending, check)

    def _defend_action(
        self, match: Match, pending: Pending, team: int, check: Callable[[Any], str | None]
    ) -> Any:
        """(each action probed once at most: -1 not yet, 0 illegal, 1 legal)"""
        st = match.st
        v = st.value
        ball = play_area(st.ball)
        us, them = st.teams[team], st.teams[1 - team]
        danger = THREAT[1 - team][ball]
        own_pen_target = st.flags.target == B.PEN[team]
        p_press = P_PRESS[v]
        p_aggr = P_AGGR[v]
        # far from the own goal a failed pressing (ball value -1) costs little
        # (an attacking style presses high, a defensive style waits for the opponent)
        far = self.press_threshold_far - 0.5 * self.style.attack
        press_at = self.press_threshold if danger >= 0.2 else far
        press = -1
        if p_press >= press_at:
            press = 1 if check("pressing") is None else 0
            if press == 1:
                pending.vouched = "pressing"
                return "pressing"
        if (
            not own_pen_target
            and p_aggr >= 0.55
            and (danger >= 0.2 or "tackler" in self.style.skills)
            and us.yellows < 2
            and check("aggressive_pressing") is None
        ):
            pending.vouched = "aggressive_pressing"
            return "aggressive_pressing"
        positioning = -1
        if v <= 3:
            positioning = 1 if check("positioning") is None else 0
            if positioning == 1:
                pending.vouched = "positioning"
                return "positioning"
        if p_press >= 0.3 and (press == 1 or (press < 0 and check("pressing") is None)):
            pending.vouched = "pressing"
            return "pressing"
        movement = -1
        if us.count(ball) < them.count(ball):
            movement = 1 if check("movement") is None else 0
            if movement == 1:
                pending.vouched = "movement"
                return "movement"
        if v <= 5 and (positioning == 1 or (positioning < 0 and check("positioning") is None)):
            pending.vouched = "positioning"
            return "positioning"
        if movement == 1 or (movement < 0 and check("movement") is None):
            pending.vouched = "movement"
            return "movement"
        return _first_legal(pending, check)

    def _use_cp(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        ts = st.teams[team]
        if self._mode in self.spend_modes:
            return "yes"  # points left at the final whistle are wasted
        zone = B.zone_of(team, play_area(st.ball))
        if zone == B.ZONE_MID:
            return "yes" if ts.cp[zone] >= 2 or ts.cp_total() >= 7 else "no"
        if st.ct == team:
            return "yes" if zone == B.ZONE_FWD or ts.cp_total() >= 6 else "no"
        return "yes" if zone == B.ZONE_DEF or ts.cp_total() >= 6 else "no"

    def _second_actions(self, match: Match, pending: Pending, team: int) -> Any:
        st = match.st
        ball = play_area(st.ball)
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
        pg, psoft = goal_odds(match.st, team, free_kick=True)
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
        p_card = P_SLOW_CARD[minute] if 0 <= minute < len(P_SLOW_CARD) else (0.0 if minute < 0 else 1.0)
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
        zone = B.zone_of(team, play_area(st.ball))
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
                own = build_setup(match, team, kind, self.style)
                pending.verify_fn(own)
            except (FubaError, ValueError, KeyError):
                own = None
        if own is not None:
            pending.vouched = own  # (verified above: the match need not check it again)
            return own
        opts = pending.options
        if not opts:
            raise ValueError("no set-up offered")
        st = match.st
        w = self._weights(st, team)

        def score(o: dict[str, Any]) -> float:
            field = [0] * B.N_LOC
            for name, n in o["players"].items():
                field[play_area(B.INDEX[name])] += n
            return placement_utility(st, team, field, B.INDEX[o["gk"]], w)

        return max(opts, key=score)


def _first_legal(pending: Pending, check: Callable[[Any], str | None]) -> Any:
    """The first legal action in the listed order: the options' first."""
    for a in ACTIONS:
        if check(a) is None:
            pending.vouched = a
            return a
    return pending.options[0]  # (none legal: a forced action the rules refuse, refused as before)

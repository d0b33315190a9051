"""AI coaches for the FUBA match simulator.

A coach answers the decisions of one team: ``choose(match, pending)`` returns
a legal answer to ``pending`` (one of ``pending.options``).  Coaches read the
match state (``match.st``) but never change it, and never use the global
``random`` state: every random choice comes from the ``random.Random`` given
at construction.  Use one coach object per team and match.

* :class:`RandomCoach` (``base``) - uniform random legal play (testing, baseline).
* :class:`HeuristicCoach` (``heuristic``) - rules of thumb built on the dice odds:

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

Modules: ``base`` (the ``Coach`` protocol and the random coach), ``tables``
(probabilities and board tables computed once per process), ``style``
(``Style``: how a team plays), ``heuristic`` (``HeuristicCoach``: the
decisions), ``moves`` (its moves), ``targets`` (its target areas),
``positions`` (the value of a placement: area weights and local contests) and
``setups`` (the heuristic coach's own set-ups of 3.3); ``fuba2_heuristic``
(``Fuba2HeuristicCoach``: rulebook 2.0's questions, ruleset ``fuba-2``).
The random coach plays both rulesets: it only reads ``pending.options``.

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
from typing import Any

from .base import Coach, RandomCoach
from .fuba2_heuristic import Fuba2HeuristicCoach
from .heuristic import HeuristicCoach
from .style import Style

__all__ = ["Coach", "Fuba2HeuristicCoach", "HeuristicCoach", "RandomCoach", "Style", "make_coach"]


def make_coach(kind: str, rng: random.Random, team: Any = None, ruleset: str = "fuba-3") -> Coach:
    """``"heuristic"`` or ``"random"``, for the ruleset the match header names (``"fuba-3"`` or
    ``"fuba-2"``), as ``machine.Match`` chooses its flow."""
    if kind == "heuristic" and ruleset == "fuba-2":
        return Fuba2HeuristicCoach(rng, team)
    if kind == "heuristic":
        return HeuristicCoach(rng, team)
    if kind == "random":
        return RandomCoach(rng)
    raise ValueError(f"unknown coach kind {kind!r}; known: heuristic, random")

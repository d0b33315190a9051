"""``Style``: how a team plays, from its registered formation, roles and skills."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

# runner, fast defender, box-to-box midfielder (A11): a free move from anywhere
EXTRA_FREE_MOVE_SKILLS: Final = frozenset({"runner", "fast_defender", "box_to_box_midfielder"})


class Style:
    """How a team plays, derived from its registered formation, A2 roles and
    A11 skills (all read from the match header)."""

    __slots__ = (
        "attack",
        "deep",
        "dribble_bonus",
        "extra_free_moves",
        "formation",
        "lean",
        "skills",
        "target_gain",
    )

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
        # the moves' skill terms, read at every move decision: a dribbler's dribbles gain more;
        # a runner, fast defender or box-to-box midfielder (A11) may move freely from anywhere
        self.dribble_bonus = 0.3 if "dribbler" in self.skills else 0.0
        self.extra_free_moves = not self.skills.isdisjoint(EXTRA_FREE_MOVE_SKILLS)
        self.formation = tuple(formation)
        # threat-based gain of each target area (targets.target_area), by team
        self.target_gain: list[list[float] | None] = [None, None]

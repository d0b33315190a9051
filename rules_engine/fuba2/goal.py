"""Goal attempts of rulebook 2.0: where a team may shoot from (4.7, 4.7.2), the
Goal Attempt Modifiers Table, the outcome (4.7, 4.7.1 difficult attempt),
the rebound (4.7.3) and the penalty kick (5.5.2).
"""

from __future__ import annotations

from typing import Final

from .. import board as B
from .offside import Side, offside_position
from .problems import illegal

GOAL: Final = "goal"
CORNER_KICK: Final = "corner_kick"
REBOUND: Final = "rebound"
MISS: Final = "miss"
SAVED: Final = "saved"  # a rebound won by the passive team (4.7.3)

GK_OUT_OF_AREA: Final = 4  # "if the passive team's goalkeeper is not in the penalty area"
GK_OUT_OF_GOAL_AREA: Final = 2  # A5: "the opponent team will get +2 die roll modifier"
FREE_KICK: Final = -1  # "Goal attempt from a free kick"

# 5.5.2: the required die result (goal if the die is the same or higher), [kick][goalkeeper's dive];
# the grid of the 2.x OCR, read as FUBA 3's interpretation I-9 reads it (the same table)
PENALTY_SIDES: Final = ("left", "middle", "right")
PENALTY_TABLE: Final[dict[str, dict[str, int]]] = {
    "left": {"left": 6, "middle": 2, "right": 2},
    "middle": {"left": 2, "middle": 6, "right": 2},
    "right": {"left": 2, "middle": 2, "right": 6},
}


def area_modifier(team: int, area: int, pt_gk_in_penalty_area: bool) -> int | None:
    """The table's area modifier ("0/2/4/5/6 depending on the area ... (see
    picture)"): 0 the penalty area, -2 in front of it, -4 the corner areas, -5
    the midfield areas entirely in the opponent's half, -6 the areas touching
    the halfway line from which "A goal attempt can only be made ... if the
    goalkeeper is not in the penalty area" (4.7.2).  The picture is rulebook 3's
    (``board.area_modifier``).  None: no attempt from there (4.7)."""
    mod = B.area_modifier(team, area)
    if mod is None or (mod == -6 and pt_gk_in_penalty_area):
        return None
    return mod


def attempt_modifier(ct: Side, pt: Side, area: int, free_kick: bool, gk_outside_goal_area: bool) -> int:
    """The Goal Attempt Modifiers Table for a shot of `ct` from `area` (the ball's area).

    +1/-1 for more players of one team in the shooting area (not counted from
    the penalty area, footnote 2), +1/-1 in the passive team's penalty area
    (the controlling team's players in offside positions not counted, footnote
    3), the passive goalkeeper never counted (footnote 1) unless A5 puts it out
    of its goal area ("then also counted as a player for goal attempts"), +4
    with the goalkeeper out of the penalty area, +2 with it out of its goal
    area (A5), -1 from a free kick, plus the area modifier.
    """
    pen = B.PEN[pt.team]
    gk_in_pen = pt.gk == pen
    mod = area_modifier(ct.team, area, gk_in_pen)
    if mod is None:
        raise illegal(f"4.7: no goal attempt from {B.NAMES[area]}")
    count_gk = gk_in_pen and gk_outside_goal_area
    if area != pen:
        mod += _compare(ct.players(area), pt.players(area, count_gk))
    ct_in_pen = 0 if offside_position(pt, pen, area) else ct.players(pen)
    mod += _compare(ct_in_pen, pt.players(pen, count_gk))
    if not gk_in_pen:
        mod += GK_OUT_OF_AREA
    elif gk_outside_goal_area:
        mod += GK_OUT_OF_GOAL_AREA
    return mod + (FREE_KICK if free_kick else 0)


def _compare(ours: int, theirs: int) -> int:
    return 1 if ours > theirs else -1 if ours < theirs else 0


def required_die(value: int, modifier: int) -> int:
    """4.7: the least die that scores: "If the modified die value exceeds the current ball die value"."""
    return value - modifier + 1


def attempt_outcome(die: int, value: int, modifier: int, ct_in_penalty_area: int) -> str:
    """4.7: above the ball value a goal, equal a corner kick, "one less than the
    current ball value and the controlling team has at least one player in the
    penalty area" a rebound, otherwise a miss (then a goal kick)."""
    if not 1 <= die <= 6:
        raise illegal(f"4.7: a die shows 1-6, not {die}")
    shot = die + modifier
    if shot > value:
        return GOAL
    if shot == value:
        return CORNER_KICK
    if shot == value - 1 and ct_in_penalty_area > 0:
        return REBOUND
    return MISS


def is_difficult(value: int, modifier: int) -> bool:
    """4.7.1: "the die result required to score is more than six"."""
    return required_die(value, modifier) > 6


def difficult_outcome(first: int, second: int | None, area_mod: int) -> str:
    """4.7.1: a first 6 earns a second die, which scores "if ... higher than the
    area modifier", is a corner kick if equal, otherwise a miss.  The area
    modifier is compared by its size, as the table prints it (0/2/4/5/6, I2-9)."""
    if first != 6:
        return MISS
    if second is None or not 1 <= second <= 6:
        raise illegal("4.7.1: a first 6 is followed by a second die (1-6)")
    need = abs(area_mod)
    return GOAL if second > need else CORNER_KICK if second == need else MISS


def rebound_outcome(ct_die: int, pt_die: int, ct_in_pen: int, pt_outfield_in_pen: int) -> str:
    """4.7.3: each team's die plus its players in the penalty area ("the passive
    team's goalkeeper is not counted"): the controlling team higher scores,
    equal is a corner kick, lower gives the ball to the passive team, at the
    controlling team's rebound die as the new ball value (``SAVED``)."""
    for d in (ct_die, pt_die):
        if not 1 <= d <= 6:
            raise illegal(f"4.7.3: a die shows 1-6, not {d}")
    ours, theirs = ct_die + ct_in_pen, pt_die + pt_outfield_in_pen
    return GOAL if ours > theirs else CORNER_KICK if ours == theirs else SAVED


def penalty_scores(die: int, kick: str, dive: str) -> bool:
    """5.5.2: "A goal is scored if the die result is the same or higher than the value shown in the table"."""
    if kick not in PENALTY_TABLE or dive not in PENALTY_TABLE:
        raise illegal(f"5.5.2: kick and dive are one of {', '.join(PENALTY_SIDES)}")
    return die >= PENALTY_TABLE[kick][dive]

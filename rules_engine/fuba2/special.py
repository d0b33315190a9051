"""Rulebook 2.0's special events (4.4.3, the special event table -5..+5) and
its cards (the yellow card roll of the table's footnote, 5.4 the red card test).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .. import board as B
from .problems import illegal

# 4.4.3: "The passive team's die value is subtracted from the controlling team's die value"
PT_MOVES_TWO: Final = "pt_moves_two"
FAILED_CONTROL_CHECK: Final = "failed_control_check"
PT_MOVES_ONE: Final = "pt_moves_one"
BALL_VALUE_PLUS_ONE: Final = "ball_value_plus_one"
FREE_KICK_CT: Final = "free_kick_ct"
ACTION_STAGES_SKIPPED: Final = "action_stages_skipped"
FREE_KICK_PT: Final = "free_kick_pt"
BALL_VALUE_MINUS_ONE: Final = "ball_value_minus_one"
CT_MOVES_ONE: Final = "ct_moves_one"
BALL_VALUE_MINUS_TWO: Final = "ball_value_minus_two"
PT_NO_DEFENCE_MOVEMENT: Final = "pt_no_defence_movement"

SPECIAL_EVENT_TABLE: Final[dict[int, str]] = {
    # "The passive team can move two players to adjacent area(s) immediately after the ball movement"
    -5: PT_MOVES_TWO,
    -4: FAILED_CONTROL_CHECK,  # "Failed control check, ball remains in the start area"
    # "The passive team can move one player to an adjacent area immediately after the ball movement"
    -3: PT_MOVES_ONE,
    -2: BALL_VALUE_PLUS_ONE,  # "+1 for ball value after the new value setup"
    -1: FREE_KICK_CT,  # "Free kick for CT. PT must roll for a yellow card"
    0: ACTION_STAGES_SKIPPED,  # "Both team's action stages are skipped" (and the 0 row's three ifs)
    1: FREE_KICK_PT,  # "Free kick for PT. CT must roll for a yellow card"
    2: BALL_VALUE_MINUS_ONE,  # "-1 for ball value after the new value setup"
    # "The controlling team can move one player to an adjacent area immediately after the ball movement"
    3: CT_MOVES_ONE,
    4: BALL_VALUE_MINUS_TWO,  # "-2 for ball value after the new value setup"
    5: PT_NO_DEFENCE_MOVEMENT,  # "The passive team may not choose defence movement option this turn"
}

# the step added to the new ball value of 4.5.1
# ("Modifiers in [4.4.3], [4.5.2] and [4.5.3] are applied simultaneously")
BALL_VALUE_STEP: Final[dict[str, int]] = {
    BALL_VALUE_PLUS_ONE: 1,
    BALL_VALUE_MINUS_ONE: -1,
    BALL_VALUE_MINUS_TWO: -2,
}

CORNER_AREAS: Final = frozenset({B.H_LC, B.H_RC, B.A_LC, B.A_RC})


def special_event(ct_die: int, pt_die: int) -> str:
    """4.4.3: the event of the table row ``ct_die - pt_die`` (each die already
    chosen by the team's playing style, A6)."""
    for d in (ct_die, pt_die):
        if not 1 <= d <= 6:
            raise illegal(f"4.4.3: a special event die shows 1-6, not {d}")
    return SPECIAL_EVENT_TABLE[ct_die - pt_die]


@dataclass(frozen=True, slots=True)
class ZeroRow:
    """The 0 row's effects besides skipping both action stages."""

    corner_kick_for: int | None  # the team whose attack zone holds the target corner area
    condition_point: bool  # "If the die scores were 1 or 2 then add one condition point to both teams"
    injuries: bool  # "If the die scores were 6, both teams suffer an injury" (A4, I2-6)


def zero_row(die: int, target: int) -> ZeroRow:
    """4.4.3, row 0 (both dice show ``die``): "If the target area was a corner
    area, then a corner kick occurs (awarded to the team for whom the zone is
    the attack zone)"."""
    corner = None
    if target in CORNER_AREAS:
        corner = B.HOME if target in B.ATTACK_ZONE[B.HOME] else B.AWAY
    return ZeroRow(corner, die in (1, 2), die == 6)


@dataclass(frozen=True, slots=True)
class YellowRoll:
    """The footnote of the special event table: what a team's yellow card roll gives."""

    yellow: bool
    red_test_bonus: int  # "6: Yellow card, +1 for the red card test"
    opponent_injury: bool  # "opponent suffers an injury"


def yellow_card_roll(die: int, team: int, target: int) -> YellowRoll:
    """ "1-2: No card 3: Yellow card if the target area is at least partly on
    that team's side of the pitch. 4-5: Yellow card 6: Yellow card, +1 for the
    red card test; opponent suffers an injury"."""
    if not 1 <= die <= 6:
        raise illegal(f"4.4.3: a yellow card roll shows 1-6, not {die}")
    if die <= 2:
        return YellowRoll(False, 0, False)
    if die == 3:
        return YellowRoll(B.in_own_half_partly(team, target), 0, False)
    if die <= 5:
        return YellowRoll(True, 0, False)
    return YellowRoll(True, 1, True)


def red_card_test_needed(yellows_before: int) -> bool:
    """5.4: "If a team receives a yellow card and has already had one previously in the game"."""
    return yellows_before >= 1


@dataclass(frozen=True, slots=True)
class RedCardTest:
    """5.4: the red card test's outcome and the cards the team holds after it."""

    red: bool
    yellows: int
    reds: int


def red_card_test(die: int, yellows: int, reds: int, bonus: int) -> RedCardTest:
    """5.4: "If the die roll result is lower than the number of yellow cards team
    currently has (including the latest one), the team receives a red card ...
    Two of the yellow cards will be changed (removed) into a red card, unless the
    die result was 1 in which case only one yellow card is discarded (direct red
    card)."  ``bonus`` (the yellow roll's 6) is added to the yellow cards the die
    is compared with (I2-5)."""
    if not 1 <= die <= 6:
        raise illegal(f"5.4: a red card test die shows 1-6, not {die}")
    if yellows < 2:
        raise illegal(f"5.4: a red card test follows a second yellow card, not {yellows}")
    if die >= yellows + bonus:
        return RedCardTest(False, yellows, reds)
    return RedCardTest(True, yellows - (1 if die == 1 else 2), reds + 1)

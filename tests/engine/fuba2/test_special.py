"""Rulebook 2.0, 4.4.3 special event table (-5..+5), its yellow card roll, 5.4 the red card test."""

import pytest

from rules_engine import board as B
from rules_engine.errors import FubaError
from rules_engine.fuba2 import special as S

I = B.INDEX  # noqa: E741


def test_every_row_of_the_special_event_table_4_4_3() -> None:
    # "The passive team's die value is subtracted from the controlling team's die value"
    rows = {d: S.special_event(min(6, 1 + d) if d >= 0 else 1, 1 - d if d < 0 else 1) for d in range(-5, 6)}
    assert rows == {
        -5: "pt_moves_two",  # "The passive team can move two players to adjacent area(s)"
        -4: "failed_control_check",  # "Failed control check, ball remains in the start area"
        -3: "pt_moves_one",
        -2: "ball_value_plus_one",  # "+1 for ball value after the new value setup"
        -1: "free_kick_ct",  # "Free kick for CT. PT must roll for a yellow card"
        0: "action_stages_skipped",  # "Both team's action stages are skipped"
        1: "free_kick_pt",  # "Free kick for PT. CT must roll for a yellow card"
        2: "ball_value_minus_one",
        3: "ct_moves_one",
        4: "ball_value_minus_two",
        5: "pt_no_defence_movement",  # "The passive team may not choose defence movement option this turn"
    }
    assert S.special_event(4, 6) == "ball_value_plus_one"
    steps = {"ball_value_plus_one": 1, "ball_value_minus_one": -1, "ball_value_minus_two": -2}
    assert steps == S.BALL_VALUE_STEP


def test_zero_row_corner_condition_point_and_injuries_4_4_3() -> None:
    # "If the target area was a corner area, then a corner kick occurs (awarded to the team for whom the
    # zone is the attack zone). If the die scores were 1 or 2 then add one condition point to both teams
    # ... If the die scores were 6, both teams suffer an injury"
    row = S.zero_row(2, I["A-LC"])
    assert (row.corner_kick_for, row.condition_point, row.injuries) == (B.HOME, True, False)
    assert S.zero_row(6, I["H-RC"]) == S.ZeroRow(B.AWAY, False, True)
    assert S.zero_row(4, I["CENTRE"]) == S.ZeroRow(None, False, False)


def test_yellow_card_roll_footnote_4_4_3() -> None:
    # "1-2: No card 3: Yellow card if the target area is at least partly on that team's side of the pitch.
    # 4-5: Yellow card 6: Yellow card, +1 for the red card test; opponent suffers an injury"
    assert not S.yellow_card_roll(2, B.HOME, I["H-FRONT"]).yellow
    assert S.yellow_card_roll(3, B.HOME, I["CENTRE"]).yellow  # the centre is partly in both halves
    assert not S.yellow_card_roll(3, B.HOME, I["A-FRONT"]).yellow
    assert S.yellow_card_roll(3, B.AWAY, I["A-FRONT"]).yellow
    assert S.yellow_card_roll(5, B.HOME, I["A-PEN"]) == S.YellowRoll(True, 0, False)
    assert S.yellow_card_roll(6, B.HOME, I["A-PEN"]) == S.YellowRoll(True, 1, True)


def test_red_card_worked_example_5_4() -> None:
    # "His team has already two yellow cards and this card will be third yellow card. He rolls a die for a
    # red card and got 2. The result is less than the number of yellow cards. Thus the team will get a red
    # card ... Otto continues game with one yellow card and one red card."
    assert S.red_card_test_needed(2)
    assert S.red_card_test(2, yellows=3, reds=0, bonus=0) == S.RedCardTest(True, 1, 1)


def test_red_card_test_needs_a_lower_die_and_a_1_is_a_direct_red_5_4() -> None:
    # "If a team receives a yellow card and has already had one previously in the game that team must roll"
    assert not S.red_card_test_needed(0)
    assert S.red_card_test(2, yellows=2, reds=0, bonus=0) == S.RedCardTest(False, 2, 0)
    # "unless the die result was 1 in which case only one yellow card is discarded (direct red card)"
    assert S.red_card_test(1, yellows=2, reds=0, bonus=0) == S.RedCardTest(True, 1, 1)
    # the yellow roll's 6: "+1 for the red card test" (I2-5)
    assert S.red_card_test(2, yellows=2, reds=0, bonus=1).red
    with pytest.raises(FubaError, match=r"5\.4"):
        S.red_card_test(2, yellows=1, reds=0, bonus=0)

"""Rulebook 2.0, 4.1 target area and 4.1.1 offside, 4.4 control check, 4.5 new ball value,
4.9 ball value adjustment and 4.9.1 pressing."""

import pytest

from rules_engine import board as B
from rules_engine.errors import FubaError
from rules_engine.fuba2.ball import (
    adjusted_value,
    automatic_pass,
    can_press,
    control_check,
    long_pass_areas,
    new_ball_value,
    pressing_die,
    pressing_wins,
    target_areas,
)
from rules_engine.fuba2.offside import offside_position, second_last_area, side

I = B.INDEX  # noqa: E741


def test_target_area_with_a_player_or_next_to_one_worked_example_4_1() -> None:
    # "He can choose area A as target area because he has a player there. He can choose area B for target
    # area because area B is adjacent to an area where he has a player. He cannot choose area C ..."
    otto = side(B.AWAY, {"CENTRE": 10}, gk="A-PEN")
    heidi = side(B.HOME, {"H-FRONT": 4, "H-LM": 3, "H-RM": 3}, gk="H-PEN")
    areas = {B.NAMES[a] for a in target_areas(otto, heidi, I["CENTRE"], True, False)}
    assert "CENTRE" in areas  # A: "play the ball within the same area"
    assert "H-LM" in areas and "A-FRONT" in areas  # B: next to the centre
    assert "H-PEN" not in areas and "H-LC" not in areas  # C: no player there or next to it
    assert "A-PEN" in areas  # "The goalkeeper counts as a player unless the rules state otherwise" (1.1)


def test_offside_beyond_the_second_last_defender_worked_example_4_1_1() -> None:
    # "He can choose area A as target area because the opponent's second lowest player is in an area
    # partly at the same level with area A. The player in area B is in an offside position, thus Otto
    # cannot choose area B as target area."
    heidi = side(B.HOME, {"H-LM": 5, "CENTRE": 5}, gk="H-PEN")  # second lowest: H-LM (rows 3-5)
    assert B.NAMES[second_last_area(heidi) or 0] == "H-LM"
    otto = side(B.AWAY, {"H-RM": 1, "H-RC": 1, "CENTRE": 8}, gk="A-PEN")
    assert not offside_position(heidi, I["H-RM"], I["CENTRE"])  # A: level with H-LM
    assert offside_position(heidi, I["H-RC"], I["CENTRE"])  # B: rows 0-2, beyond rows 3-5
    areas = {B.NAMES[a] for a in target_areas(otto, heidi, I["CENTRE"], True, False)}
    assert "H-RM" in areas and "H-RC" not in areas
    # "The offside rule does not apply when: a goal kick is taken, a corner kick is taken"
    assert "H-RC" in {B.NAMES[a] for a in target_areas(otto, heidi, I["CENTRE"], False, False)}


def test_empty_target_next_only_to_offside_players_is_refused_4_1() -> None:
    # "... or where it has no players and all its players in adjacent areas are in offside positions"
    heidi = side(B.HOME, {"H-LM": 5, "CENTRE": 5}, gk="H-PEN")
    otto = side(B.AWAY, {"H-RC": 1, "A-FRONT": 9}, gk="A-PEN")
    areas = {B.NAMES[a] for a in target_areas(otto, heidi, I["A-FRONT"], True, False)}
    assert "H-PEN" not in areas  # only H-RC's offside player is next to it
    assert "H-FRONT" not in areas


def test_not_offside_level_with_the_ball_4_1_1() -> None:
    # "... not offside if they are in an area that is ... at the same level as, or closer to, their own
    # goal line than the start area containing the ball" (I2-1)
    heidi = side(B.HOME, {"CENTRE": 10}, gk="H-PEN")
    assert not offside_position(heidi, I["H-LC"], I["H-RC"])
    assert offside_position(heidi, I["H-LC"], I["H-LM"])


def test_free_kick_start_area_needs_two_players_5_1() -> None:
    # "The controlling team taking the free kick can choose the start area as a target area only if there
    # are at least two players from the controlling team in that area."
    heidi = side(B.HOME, {"A-LM": 1, "CENTRE": 9}, gk="H-PEN")
    otto = side(B.AWAY, {"A-FRONT": 10}, gk="A-PEN")
    assert I["A-LM"] not in target_areas(heidi, otto, I["A-LM"], True, True)
    heidi2 = side(B.HOME, {"A-LM": 2, "CENTRE": 8}, gk="H-PEN")
    assert I["A-LM"] in target_areas(heidi2, otto, I["A-LM"], True, True)


def test_control_check_worked_example_4_4() -> None:
    # "Otto has rolled 5 and Heidi 2. The ball value is 3. Otto's die score is higher than the ball value
    # and thus the control check is successfully passed ... the value will be changed to equal Heidi's
    # (passive team) die score which was 2."
    check = control_check(5, 3, automatic=False)
    assert check.kept and not check.special_event
    assert new_ball_value(5, 2, check.kept, 0, True, False, 0).value == 2


def test_lower_die_loses_the_ball_equal_rolls_a_special_event_4_4() -> None:
    # "If the die value is lower than the ball die value, possession is turned over"; "If the die value of
    # the controlling team's die equals the ball die value, a special event is rolled"
    assert not control_check(2, 3, automatic=False).kept
    eq = control_check(3, 3, automatic=False)
    assert eq.special_event and eq.kept
    # 4.4.1: "the controlling team passes the control check automatically ... Special events might occur."
    assert control_check(1, 3, automatic=True).kept
    assert control_check(3, 3, automatic=True).special_event
    ct = side(B.HOME, {"CENTRE": 10}, gk="H-PEN")
    pt = side(B.AWAY, {"A-FRONT": 10}, gk="A-PEN")
    assert automatic_pass(ct, pt, I["CENTRE"]) and not automatic_pass(ct, pt, I["A-FRONT"])


def test_long_pass_worked_example_4_5_2() -> None:
    # "The passive team's die score where 4. There were two areas between the start and the target area.
    # Thus the ball value is adjusted initially to 4, but then increased by 2 to 6."
    between = long_pass_areas(I["H-FRONT"], I["A-PEN"])  # over CENTRE and A-FRONT
    assert between == 2
    assert new_ball_value(5, 4, True, between, True, False, 0).value == 6


def test_failed_check_new_value_is_the_new_passive_teams_die_4_5_1() -> None:
    # "If the control check failed then the new ball value is the die result of the new passive team"
    nv = new_ball_value(2, 5, False, 3, False, False, 0)
    assert (nv.value, nv.turnover) == (2, True)


def test_start_area_without_passive_player_and_above_six_4_5_3_4_5_4() -> None:
    # 4.5.3 "One is reduced from the new ball value ... if the passive team has no players in the ball
    # starting area. This reduction is not used when a free kick, corner kick or a goal kick is taken."
    assert new_ball_value(6, 4, True, 0, False, False, 0).value == 3
    assert new_ball_value(6, 4, True, 0, False, True, 0).value == 4
    # 4.5.4 "If the ball value would be adjusted above 6, then the controlling team turns over possession"
    # ... "Modifiers in [4.4.3], [4.5.2] and [4.5.3] are applied simultaneously."
    over = new_ball_value(6, 5, True, 2, False, False, 0)  # 5 + 2 - 1 = 6: kept
    assert (over.value, over.turnover) == (6, False)
    lost = new_ball_value(3, 5, True, 1, True, False, 1)  # 5 + 1 + 1 = 7
    assert (lost.value, lost.turnover) == (3, True)
    assert new_ball_value(6, 1, True, 0, False, False, -2).value == 1  # I2-4


def test_ball_value_adjustment_worked_example_4_9() -> None:
    # "Otto has one player more than Heidi in that area. Thus the ball value is adjusted by one to
    # Otto's favour, from 3 to 4." (Otto is the passive team)
    assert adjusted_value(3, ct_players=2, pt_players=3) == 4
    # "... but only by a maximum of 2 and not below 1" / "not above 6"
    assert adjusted_value(4, 5, 1) == 2
    assert adjusted_value(2, 5, 1) == 1
    assert adjusted_value(5, 0, 4) == 6
    assert adjusted_value(4, 2, 2) == 4


def test_pressing_worked_example_4_9_1() -> None:
    # "She rolls a die and got 2. The result is lower than the ball value. She immediately gets the
    # ball control and new ball value will be 2"
    assert pressing_wins(2, 3)
    # "If the die value equals or is higher than the ball value, then the pressing is failed"
    assert not pressing_wins(3, 3) and not pressing_wins(5, 3)
    # "The team must have at least one player in the area where the ball exists"; 5.3 goal kick
    assert not can_press(0, False) and can_press(1, False) and not can_press(2, True)
    with pytest.raises(FubaError, match=r"4\.5"):
        pressing_wins(2, 7)


def test_advanced_goalkeeper_helps_its_pressing_a5() -> None:
    # "If the goal keeper is outside of the goal keeper's area it will give -1 modifier for pressing die
    # rolls." (I2-14)
    assert pressing_die(3, True) == 2 and pressing_wins(pressing_die(3, True), 3)
    assert pressing_die(3, False) == 3 and pressing_die(1, True) == 1

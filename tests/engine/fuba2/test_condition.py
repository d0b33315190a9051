"""Rulebook 2.0, A1 condition points and tiredness, A2 roles, A3 fresh player, A4 injury roll."""

import pytest

from rules_engine.errors import FubaError
from rules_engine.fuba2 import condition as C


def test_condition_points_worked_example_a1_a2() -> None:
    # "Heidi has the 4-4-2 formation and thus her team has four defence condition points, four midfield
    # condition points and two forward condition points. Otto's 4-5-1 ... as he specified three attacking
    # midfielders, then three points are moved from midfield to forward. Thus his team has four defence
    # condition points, two midfield condition points and four forward condition points."
    assert C.initial_points((4, 4, 2), {}) == (4, 4, 2)
    assert C.initial_points((4, 5, 1), {"attacking_midfielder": 3}) == (4, 2, 4)


def test_every_role_moves_one_point_a2() -> None:
    # "For each defending midfielder one point is removed from the midfield condition and one point is
    # added to the defence condition"; "Attacking centre back ... One point is removed from the defence
    # condition and added to the midfield condition"; "Withdrawn striker ... removed from the forwards
    # condition and added to the midfield condition"; "Offensive wing backs ... removed from the defence
    # condition and added to the forward condition"
    assert C.initial_points((4, 4, 2), {"defending_midfielder": 1}) == (5, 3, 2)
    assert C.initial_points((4, 4, 2), {"attacking_centre_back": 1}) == (3, 5, 2)
    assert C.initial_points((4, 4, 2), {"withdrawn_striker": 1}) == (4, 5, 1)
    assert C.initial_points((4, 4, 2), {"offensive_wing_back": 2}) == (2, 4, 4)


def test_role_limits_a2() -> None:
    # "Teams can specify 0-1 defender as an attacking centre back"; "0-2 defenders as offensive wing back(s)"
    with pytest.raises(FubaError, match="2 attacking centre backs"):
        C.initial_points((4, 4, 2), {"attacking_centre_back": 2})
    with pytest.raises(FubaError, match="3 offensive wing backs"):
        C.initial_points((4, 4, 2), {"offensive_wing_back": 3})
    with pytest.raises(FubaError, match="3 roles named for the 2 players"):
        C.initial_points((2, 6, 2), {"offensive_wing_back": 2, "attacking_centre_back": 1})
    with pytest.raises(FubaError, match="no player role 'sweeper'"):
        C.initial_points((4, 4, 2), {"sweeper": 1})
    with pytest.raises(FubaError, match=r"a formation has 10"):
        C.initial_points((4, 4, 3), {})


def test_tiredness_test_worked_example_a1_2() -> None:
    # "It is currently the 78th minute ... The team rolls a 5, which results in a result of 50 ... not
    # enough ... the team rolls another die and this time the result is 3. So the total dice score is
    # now 8 ... 80 ... the team therefore passes the test, but one point is lost"
    assert C.tiredness_test((5, 3, 6), 78, 0) == C.TirednessTest(1, 2)


def test_tiredness_test_zero_to_three_points_a1_2_and_a6() -> None:
    # "If the result is higher or equal to the current game time ... passes" (I2-3); "A team can lose
    # 0-3 points in one tiredness test."
    assert C.tiredness_test((6,), 60, 0) == C.TirednessTest(0, 1)
    assert C.tiredness_test((1, 1, 1), 85, 0) == C.TirednessTest(3, 3)
    assert C.tiredness_test((2, 2, 2), 60, 0) == C.TirednessTest(2, 3)
    # A6: "one is added to each die result" (aggressive) / "one is reduced from each die" (easy)
    assert C.tiredness_test((2, 2, 2), 85, 1) == C.TirednessTest(2, 3)  # 90 >= 85
    assert C.tiredness_test((6, 2, 1), 60, -1) == C.TirednessTest(1, 2)  # 50, then 60
    with pytest.raises(FubaError, match="another die"):
        C.tiredness_test((1,), 85, 0)


def test_first_lost_point_zone_and_tiredness_a1_2_a1_3() -> None:
    # "The first point must be reduced from the zone ... in which the target area is located unless there
    # are already no points any longer available for that zone."
    assert C.first_lost_point_zone((2, 0, 1), 0) == 0
    assert C.first_lost_point_zone((2, 0, 1), 1) is None
    # "If a team with a 4-4-2 starting formation suffers tiredness, then the effective formation ...
    # would be reduced to 3-3-1."
    assert C.tired_formation((4, 4, 2)) == (3, 3, 1)


def test_condition_point_moves_a1_1() -> None:
    # "The number of moves it can make is based on: the result of the die rolled; the number of players
    # in the formation in the zone" (the table is missing, I2-8)
    assert C.condition_point_moves(6, 4) == 4
    assert C.condition_point_moves(2, 4) == 2


def test_fresh_player_and_the_cap_of_six_a3() -> None:
    # "Roll two dice and multiply the result by 10. If the result is higher than current game time, then
    # add one point ... Otherwise add two points"; "Condition points cannot be increased above 6"
    assert C.fresh_player_points(5, 3, 70) == 1
    assert C.fresh_player_points(4, 3, 70) == 2
    assert C.add_points((4, 5, 2), 1, 2) == (4, 6, 2)


def test_injury_roll_a4_with_a6() -> None:
    # "1: The player returns to the game at the beginning of the next turn's movement stage. 2: ... out of
    # the game for the next turn ... 3: ... out of the game for the following two turns ... 4+: The player
    # cannot return to game."  A6: "one is added to its injury die roll results" (aggressive)
    assert [C.injury_turns_out(d, 0) for d in range(1, 7)] == [0, 1, 2, -1, -1, -1]
    assert C.injury_turns_out(3, 1) == C.INJURY_OUT_FOR_GOOD
    assert C.injury_turns_out(1, -1) == 0  # I2-6


def test_substitutions_a3_a4() -> None:
    # "A team can perform a player substitution up to three times during a game"; "Remove one yellow card:
    # One of the players with a yellow card is substituted"; A4 "The substitution type must be a fresh
    # player."
    assert C.substitution_problem("fresh_player", 2, 0, False) is None
    fourth = C.substitution_problem("fresh_player", 3, 0, False)
    assert fourth == "A3: a team makes at most three substitutions"
    assert C.substitution_problem("remove_yellow", 0, 0, False) == "A3: the team has no yellow card to remove"
    assert C.substitution_problem("remove_yellow", 0, 1, False) is None
    after_injury = C.substitution_problem("formation_change", 0, 0, True)
    assert after_injury == "A4: the substitution after an injury brings on a fresh player"
    # "If the change is done in the second half, then one condition point is added to the area where the
    # formation is strengthened."
    assert C.formation_change_points((4, 4, 2), 2, second_half=False) == (4, 4, 2)
    assert C.formation_change_points((4, 4, 2), 2, second_half=True) == (4, 4, 3)

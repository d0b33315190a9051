"""Rulebook 2.0, 4.2-4.3: the teams' dice and the time track."""

import pytest

from rules_engine.errors import FubaError
from rules_engine.fuba2.clock import advance_time, dice_difference, first_square, game_time


def test_time_moves_by_the_difference_of_the_teams_dice_worked_example_4_3() -> None:
    # "Heidi rolls 4 and Otto rolls 1. The dice difference is 3 so the time marker is moved 3 minutes
    # forward."
    step = advance_time(1, 10, 0, 0, 4, 1)
    assert (step.minute, step.moved, step.carried) == (13, 3, 0)
    assert dice_difference(1, 4) == 3


def test_zero_difference_owes_one_minute_each_time_4_3() -> None:
    # "If the dice differences are 0 more than once in a row, then all extra minutes are added
    # in the next turn where the difference is greater than 0."
    s1 = advance_time(1, 20, 0, 0, 3, 3)
    assert (s1.minute, s1.moved, s1.carried) == (20, 0, 1)
    s2 = advance_time(1, 20, 0, s1.carried, 6, 6)
    assert s2.carried == 2
    s3 = advance_time(1, 20, 0, s2.carried, 2, 3)
    assert (s3.minute, s3.moved, s3.carried) == (23, 3, 0)


def test_five_squares_call_a_tiredness_test_4_3() -> None:
    # "If the time marker is moved 5 or more squares in a turn, then both teams must make a tiredness check"
    assert advance_time(2, 60, 0, 0, 6, 1).tiredness_test
    assert advance_time(2, 60, 0, 1, 5, 1).tiredness_test  # 4 + one owed minute
    assert not advance_time(2, 60, 0, 0, 5, 1).tiredness_test


def test_marker_stops_on_the_first_stoppage_square_4_3() -> None:
    # "If the time marker reaches the first stoppage time square, it stops there even if it should
    # continue further"
    step = advance_time(1, 43, 0, 0, 6, 1)
    assert (step.minute, step.stoppage, step.moved) == (45, 1, 3)
    assert not step.half_ends_now


def test_stoppage_time_one_square_a_turn_and_the_yellow_number_4_3_1() -> None:
    # "If the dice difference between initial values is smaller than the current stoppage time
    # (yellow number in the square where the time marker begins the turn), the half ends immediately."
    assert advance_time(2, 90, 2, 0, 4, 3).half_ends_now  # 1 < 2
    go_on = advance_time(2, 90, 2, 0, 5, 3)
    assert (go_on.stoppage, go_on.moved, go_on.half_ends_now) == (3, 1, False)
    # "When the time marker reaches the +5 square the half is finished at the end of turn."
    last = advance_time(2, 90, 4, 0, 6, 1)
    assert last.stoppage == 5 and last.half_ends_after_turn and not last.half_ends_now
    with pytest.raises(FubaError, match=r"4\.3\.1"):
        advance_time(2, 90, 5, 0, 6, 1)


def test_halves_start_on_squares_1_and_46_3_3() -> None:
    # "One referee is set up on square 1 of the time track (and on square 46 in the second half of the game)."
    assert (first_square(1), first_square(2)) == (1, 46)
    with pytest.raises(FubaError, match="square 30"):
        advance_time(2, 30, 0, 0, 2, 1)
    assert game_time(45, 2) == 47

"""Rulebook 2.0, A6: playing styles' dice."""

import pytest

from rules_engine.errors import FubaError
from rules_engine.fuba2.styles import die_modifier, special_event_dice, special_event_die


def test_aggressive_keeps_the_highest_special_event_die_a6() -> None:
    # "If the team's playing style in the target area zone is aggressive, then the team rolls two dice
    # and ignores the result of the lowest die."
    assert special_event_dice("aggressive") == 2
    assert special_event_die("aggressive", (2, 5)) == 5


def test_easy_keeps_the_lowest_and_normal_rolls_one_a6() -> None:
    # "... is easy, then the team rolls two dice and ignores the result of the highest die."
    assert special_event_die("easy", (2, 5)) == 2
    assert special_event_dice("normal") == 1 and special_event_die("normal", (4,)) == 4
    with pytest.raises(FubaError, match="the easy style rolls 2"):
        special_event_die("easy", (4,))


def test_injury_and_tiredness_dice_a6() -> None:
    # "one is added to its injury die roll results" / "one is reduced from its injury die roll result"
    assert (die_modifier("aggressive"), die_modifier("normal"), die_modifier("easy")) == (1, 0, -1)
    with pytest.raises(FubaError, match="playing style"):
        die_modifier("reckless")

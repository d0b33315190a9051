"""Rulebook 2.0, set-ups: 3.2 and 3.2.1 kick-off, 5.1.1 free kick, 5.2.1 corner kick, 5.5.1 penalty kick."""

from rules_engine import board as B
from rules_engine.fuba2.offside import side
from rules_engine.fuba2.setup import (
    adjustment_problem,
    corner_problem,
    free_kick_problem,
    kick_off_chooser,
    kick_off_problem,
    penalty_problem,
    second_half_kick_off,
)

I = B.INDEX  # noqa: E741
HOME, AWAY = B.HOME, B.AWAY


def test_kick_off_roll_worked_example_3_1_4_3_2() -> None:
    # "Heidi and Otto begins the game. Both roll a die. Heidi gets 5 and Otto 3. Thus Heidi decides who
    # will start as a controlling team. She chooses to start as a controlling team ... (In the second
    # half Otto will then start as a controlling team)."
    heidi, otto = HOME, AWAY
    assert kick_off_chooser(5, 3) == heidi and kick_off_chooser(2, 6) == otto
    assert kick_off_chooser(4, 4) is None  # I2-13
    assert second_half_kick_off(heidi) == otto


def test_kick_off_set_up_worked_example_3_2_1() -> None:
    # "She setups four players to the middle area, which is more than required minimum of two."
    heidi = side(HOME, {"CENTRE": 4, "H-LM": 2, "H-RM": 2, "H-FRONT": 2}, gk="H-PEN")
    assert kick_off_problem(heidi, kicking=True) is None
    # "The controlling team must place two players in the middle area (the centre circle)."
    one = side(HOME, {"CENTRE": 1, "H-LM": 5, "H-FRONT": 4}, gk="H-PEN")
    assert (
        kick_off_problem(one, kicking=True)
        == "3.2.1: the team kicking off places two players in the centre area"
    )
    assert kick_off_problem(one, kicking=False) is None
    # "any area that is at least partly in the team's half"; "The goalkeeper is placed in the team's
    # penalty area"
    over = side(AWAY, {"CENTRE": 2, "H-LM": 1, "A-LM": 7}, gk="A-PEN")
    assert kick_off_problem(over, kicking=True) == "3.2.1: H-LM is not in the team's half"
    out = side(AWAY, {"CENTRE": 10}, gk="A-FRONT")
    assert kick_off_problem(out, kicking=False) == "3.2.1: the goalkeeper is set up in its own penalty area"


def test_two_players_one_area_after_the_passive_set_up_worked_example_3_2() -> None:
    # "Heidi has chance to move two players. She choose to move two players from centre to strengthen
    # the side"
    before = side(HOME, {"CENTRE": 4, "H-LM": 2, "H-RM": 2, "H-FRONT": 2}, gk="H-PEN")
    after = side(HOME, {"CENTRE": 2, "H-LM": 4, "H-RM": 2, "H-FRONT": 2}, gk="H-PEN")
    assert adjustment_problem(before, after) is None
    three = side(HOME, {"CENTRE": 1, "H-LM": 5, "H-RM": 2, "H-FRONT": 2}, gk="H-PEN")
    assert (
        adjustment_problem(before, three)
        == "3.2: at most two players are moved after the passive team's set-up"
    )
    far = side(HOME, {"CENTRE": 4, "H-LM": 1, "H-RM": 3, "H-FRONT": 2}, gk="H-PEN")
    assert adjustment_problem(before, far) == "3.2: each adjusted player moves to an adjacent area"


def test_free_kick_set_up_5_1_1() -> None:
    # "One player must be placed in the area where the free kick is awarded." / "The passive team must set
    # up at least one player in an area that is closer to their own goal line than the area from which the
    # free kick will be taken (if possible)."
    ct = side(HOME, {"A-LM": 1, "CENTRE": 9}, gk="H-PEN")
    pt = side(AWAY, {"A-LM": 3, "CENTRE": 7}, gk="A-LM")
    assert free_kick_problem(ct, pt, I["A-LM"]) == (
        "5.1.1: the passive team sets up a player closer to its goal line than A-LM"
    )
    pt_ok = side(AWAY, {"A-LC": 1, "CENTRE": 9}, gk="A-PEN")
    assert free_kick_problem(ct, pt_ok, I["A-LM"]) is None
    assert free_kick_problem(ct, pt_ok, I["A-RM"]) is not None  # nobody of the taker there


def test_corner_and_penalty_set_ups_5_2_1_5_5_1() -> None:
    # "One player from the controlling team must be placed in the corner to take the corner kick."
    ct = side(HOME, {"A-PEN": 3, "CENTRE": 7}, gk="H-PEN")
    assert corner_problem(ct, I["A-LCK"], True) is None
    assert corner_problem(ct, I["H-LCK"], True) is not None
    assert corner_problem(ct, I["A-RCK"], False) is not None
    # "sets up the ball and one player on the penalty spot. The passive team sets up the goalkeeper on the
    # goal line. No other players can be placed or moved into the passive team's penalty area."
    taker = side(HOME, {"A-PEN": 1, "CENTRE": 9}, gk="H-PEN")
    keeper = side(AWAY, {"A-FRONT": 10}, gk="A-PEN")
    assert penalty_problem(taker, keeper) is None
    assert penalty_problem(ct, keeper) is not None
    crowded = side(AWAY, {"A-FRONT": 9, "A-PEN": 1}, gk="A-PEN")
    assert (
        penalty_problem(taker, crowded)
        == "5.5.1: only the passive team's goalkeeper stands in its penalty area"
    )

"""Rulebook 2.0, 4.7 goal attempts, the Goal Attempt Modifiers Table, 4.7.1, 4.7.3, 5.5.2."""

import pytest

from rules_engine import board as B
from rules_engine.errors import FubaError
from rules_engine.fuba2 import goal as G
from rules_engine.fuba2.offside import side

I = B.INDEX  # noqa: E741


def _heidi_attacks() -> tuple:  # type: ignore[type-arg]
    heidi = side(B.HOME, {"A-FRONT": 2, "A-PEN": 1, "CENTRE": 7}, gk="H-PEN")
    otto = side(B.AWAY, {"A-FRONT": 1, "A-PEN": 2, "A-LC": 7}, gk="A-PEN")
    return heidi, otto


def test_goal_attempt_worked_example_4_7() -> None:
    # "the score after modifiers must be higher than the ball value, which is 3 ... The area gives -2
    # modifier. Her team has more players in the shooting area, which gives +1 modifier. Otto's team has
    # more players in the penalty area, which gives -1 modifier. Overall -2 modifier ... Thus Heidi must
    # roll 6 to score a goal (6-2=4 > 3). 5 would cause a corner kick and 4 a rebound. 1-3 will be a miss."
    heidi, otto = _heidi_attacks()
    mod = G.attempt_modifier(heidi, otto, I["A-FRONT"], free_kick=False, gk_outside_goal_area=False)
    assert mod == -2
    assert G.required_die(3, mod) == 6
    outcomes = [G.attempt_outcome(d, 3, mod, heidi.players(I["A-PEN"])) for d in range(1, 7)]
    assert outcomes == ["miss", "miss", "miss", "rebound", "corner_kick", "goal"]
    # "a rebound occurs" only "if ... the controlling team has at least one player in the penalty area"
    assert G.attempt_outcome(4, 3, mod, 0) == "miss"


def test_area_modifiers_and_where_a_shot_is_possible_4_7_4_7_2() -> None:
    # "0/2/4/5/6 depending on the area ... * A goal attempt can only be made from these areas if the
    # goalkeeper is not in the penalty area."
    home = B.HOME
    names = ("A-PEN", "A-FRONT", "A-LC", "A-RM", "CENTRE", "H-LM")
    mods = {n: G.area_modifier(home, I[n], True) for n in names}
    assert mods == {"A-PEN": 0, "A-FRONT": -2, "A-LC": -4, "A-RM": -5, "CENTRE": None, "H-LM": None}
    assert G.area_modifier(home, I["CENTRE"], False) == -6
    assert G.area_modifier(home, I["H-FRONT"], False) is None


def test_goalkeeper_not_counted_free_kick_and_goalkeeper_out_table() -> None:
    # "(1) The passive team's goalkeeper is not counted in this calculation. (2) The modifier is not counted
    # if the goal attempt is made from the penalty area."; "+4 if the passive team's goalkeeper is not in
    # the penalty area"; "-1 Goal attempt from a free kick"
    heidi = side(B.HOME, {"A-PEN": 1, "CENTRE": 9}, gk="H-PEN")
    otto = side(B.AWAY, {"A-FRONT": 10}, gk="A-PEN")
    assert G.attempt_modifier(heidi, otto, I["A-PEN"], False, False) == 1  # 1 v 0: the keeper not counted
    assert G.attempt_modifier(heidi, otto, I["A-PEN"], True, False) == 0
    otto_out = side(B.AWAY, {"A-FRONT": 10}, gk="A-FRONT")
    assert G.attempt_modifier(heidi, otto_out, I["A-PEN"], False, False) == 5
    # A5: "outside of the goal keeper's area ... counted as a player for goal attempts, but the opponent
    # team will get +2 die roll modifier"
    assert G.attempt_modifier(heidi, otto, I["A-PEN"], False, True) == 2


def test_offside_players_not_counted_in_the_penalty_area_footnote_3() -> None:
    # "(3) Players in offside positions are not counted in the calculation."
    heidi = side(B.HOME, {"A-PEN": 2, "A-RM": 1, "CENTRE": 7}, gk="H-PEN")
    otto = side(B.AWAY, {"A-FRONT": 3, "A-LM": 7}, gk="A-PEN")  # second last in A-FRONT
    # from A-RM: 1 v 0 in the area (+1), Heidi's two in the penalty area offside: 0 v 0, area -5
    assert G.attempt_modifier(heidi, otto, I["A-RM"], False, False) == -4
    onside = side(B.AWAY, {"A-FRONT": 3, "A-PEN": 1, "A-LM": 6}, gk="A-PEN")  # second last in A-PEN
    assert G.attempt_modifier(heidi, onside, I["A-RM"], False, False) == -3  # 2 v 1 in the penalty area


def test_difficult_goal_attempt_4_7_1() -> None:
    # "If the result is 6, the team rolls again. The team scores a goal if the second die roll is higher
    # than the area modifier ... If the second die result equals the area modifier, then a corner kick
    # occurs. Otherwise the shot is a miss."
    assert G.is_difficult(4, -2) and not G.is_difficult(3, -2)
    assert G.difficult_outcome(5, None, -5) == "miss"
    assert [G.difficult_outcome(6, d, -5) for d in (4, 5, 6)] == ["miss", "corner_kick", "goal"]
    with pytest.raises(FubaError, match=r"4\.7\.1"):
        G.difficult_outcome(6, None, -4)


def test_rebound_4_7_3() -> None:
    # "both teams roll a die and add the number of their players in the penalty area ... (the passive
    # team's goalkeeper is not counted ...). If the controlling team's result was higher the team scores
    # a goal. If the result was equal, a corner occurs. If the passive team's result is higher, then the
    # passive team regains possession"
    assert G.rebound_outcome(4, 3, 1, 1) == "goal"
    assert G.rebound_outcome(3, 2, 1, 2) == "corner_kick"
    assert G.rebound_outcome(2, 2, 1, 2) == "saved"


def test_penalty_table_5_5_2() -> None:
    # "A goal is scored if the die result is the same or higher than the value shown in the table."
    assert G.penalty_scores(6, "left", "left") and not G.penalty_scores(5, "left", "left")
    assert G.penalty_scores(2, "middle", "right") and not G.penalty_scores(1, "middle", "right")
    with pytest.raises(FubaError, match=r"5\.5\.2"):
        G.penalty_scores(6, "top", "left")

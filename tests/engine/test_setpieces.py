"""Restarts: free kick (5.2), corner kick (5.3), goal kick (5.4), penalty kick (5.5)."""

import pytest

from rules_engine import board as B
from rules_engine.api import Decision, IllegalEventError
from rules_engine.rules import PENALTY_TABLE

from .helpers import dec, header, pend, put_exact, roll, start


def _in_turn_with_foul(target: str, fouled_first: bool = True):  # type: ignore[no-untyped-def]
    m = start(header(adv=["A13"]))
    put_exact(m, "home", {"CENTRE": 4, "A-FRONT": 3, "A-PEN": 1, "H-FRONT": 2}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "A-PEN": 2, "A-LC": 2, "A-RC": 2, "CENTRE": 1}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.A_FRONT
    m.st.value = 3
    dec(m, "target_area", target)
    roll(m, "situation", 3, 3)
    roll(m, "special_event", 3, 1)
    roll(m, "yellow_test", 1)
    return m


def test_free_kick_in_opponent_penalty_area_is_a_penalty_5_2() -> None:
    m = _in_turn_with_foul("A-PEN")
    assert pend(m) == ("decision", "setup", "home")
    with pytest.raises(IllegalEventError, match=r"exactly one player \(the penalty taker\)"):
        m.apply(Decision("setup", "home", {"gk": "H-PEN", "players": {"A-PEN": 2, "CENTRE": 8}}))
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-PEN": 1, "A-FRONT": 9}})
    with pytest.raises(IllegalEventError, match="only the goalkeeper"):
        m.apply(Decision("setup", "away", {"gk": "A-PEN", "players": {"A-PEN": 1, "A-FRONT": 9}}))
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-FRONT": 10}})
    dec(m, "setup_adjust", "done")
    dec(m, "penalty_keeper", "left")
    dec(m, "penalty_shot", "right")
    roll(m, "penalty", PENALTY_TABLE["right"]["left"])
    assert m.st.score() == [1, 0]


def test_missed_penalty_gives_goal_kick_5_5_2() -> None:
    m = _in_turn_with_foul("A-PEN")
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-PEN": 1, "A-FRONT": 9}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-FRONT": 10}})
    dec(m, "setup_adjust", "done")
    dec(m, "penalty_keeper", "middle")
    dec(m, "penalty_shot", "middle")
    roll(m, "penalty", 5)  # a kick to the middle against a standing keeper needs a 6 (I-9)
    assert m.st.score() == [0, 0]
    assert m.st.ct == 1 and m.st.ball == B.A_PEN and m.st.value == 2


def test_quick_free_kick_5_2_3() -> None:
    m = start(header(adv=["A13"]))
    put_exact(m, "home", {"CENTRE": 4, "H-LM": 3, "H-FRONT": 3}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 4, "H-LM": 2, "A-FRONT": 4}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    dec(m, "target_area", "H-LM")
    roll(m, "situation", 3, 3)
    roll(m, "special_event", 3, 2)
    roll(m, "yellow_test", 1)
    # H-LM is on home's side: quick free kick, no set-up
    assert pend(m) == ("decision", "quick_free_kick_move", "home")
    dec(m, "quick_free_kick_move", "CENTRE>A-LM")
    dec(m, "quick_free_kick_move", "done")
    assert pend(m) == ("decision", "quick_free_kick_move", "away")
    dec(m, "quick_free_kick_move", "CENTRE>A-LM")
    # the defending team may move only as many players as the controlling team: 1
    assert pend(m) == ("decision", "target_area", "home")


def test_direct_free_kick_attempt_5_2_2() -> None:
    m = _in_turn_with_foul("A-FRONT")
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-FRONT": 2, "CENTRE": 8}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-PEN": 5, "A-FRONT": 5}})
    dec(m, "setup_adjust", "done")
    dec(m, "free_kick_attempt", "yes")
    # the turn continues from the action stage, the goal attempt is the first action
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    p = m.pending()
    assert p is not None and p.options == ("goal_attempt",)
    with pytest.raises(IllegalEventError, match="first action must be a goal_attempt"):
        m.apply(Decision("action", "home", "movement"))
    dec(m, "action", "goal_attempt")
    # free kick: no +1/-1 for players in the shooting area; -1 more defenders in the penalty area
    roll(m, "goal_attempt", 6)  # 6 - 2 - 1 = 3 > 2: goal
    assert m.st.score() == [1, 0]


def test_goal_kick_5_4() -> None:
    m = start()
    put_exact(m, "home", {"A-FRONT": 3, "A-PEN": 2, "CENTRE": 5}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 2, "A-PEN": 3, "CENTRE": 5}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.A_FRONT
    m.st.value = 3
    from .helpers import to_action

    to_action(m, "home")
    m.st.value = 6
    dec(m, "action", "goal_attempt")
    roll(m, "goal_attempt", 1)
    # all players in that penalty area except the keeper moved one area towards the centre circle
    assert m.st.teams[0].field[B.A_PEN] == 0 and m.st.teams[1].field[B.A_PEN] == 0
    assert m.st.teams[1].gk == B.A_PEN and m.st.ct == 1 and m.st.value == 2
    assert m.st.minute_label() == "2"  # 1 (dice) + 1 at the beginning of a goal kick
    dec(m, "goal_kick_move", "done")  # controlling team moves 0 ...
    for _ in range(4):  # ... the defending team may still move four (the minimum)
        assert pend(m) == ("decision", "goal_kick_move", "home")
        dec(m, "goal_kick_move", "CENTRE>H-FRONT")
    assert pend(m) == ("decision", "target_area", "away")


def test_corner_kick_5_3() -> None:
    m = start(header(adv=["A13"]))
    put_exact(m, "home", {"A-LC": 2, "CENTRE": 8}, gk="H-PEN")
    put_exact(m, "away", {"A-LC": 2, "A-FRONT": 8}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.A_LC
    m.st.value = 3
    dec(m, "target_area", "A-LC")
    roll(m, "situation", 4, 4)
    roll(m, "special_event", 4, 4)  # ball over the goal-line: A-LC touches it -> corner kick
    dec(m, "corner_spot", "A-LCK")
    with pytest.raises(IllegalEventError, match="exactly one player takes the corner"):
        m.apply(Decision("setup", "home", {"gk": "H-PEN", "players": {"A-PEN": 10}}))
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-LCK": 1, "A-PEN": 3, "CENTRE": 6}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-PEN": 5, "A-FRONT": 5}})
    dec(m, "setup_adjust", "done")
    assert m.st.ball == B.A_LCK and m.st.value == 2
    # 5.3: one area between the corner and the penalty area -> long pass +1; offside not applied
    dec(m, "target_area", "A-PEN")
    assert m.st.value == 2 + 1 + 1  # long pass, more defenders in the penalty area
    roll(m, "situation", 6, 5)
    assert m.st.teams[0].field[B.A_LCK] == 0 and m.st.teams[0].field[B.A_LC] == 1

"""Goal attempt (4.4), rebound (4.4.1), difficult goal attempt (4.4.2),
goalkeeper out of the penalty area (4.4.3)."""

import pytest

from rules_engine import board as B
from rules_engine.api import Decision, IllegalEventError

from .helpers import dec, pend, put_exact, roll, start, to_action


def _santeri_example():  # type: ignore[no-untyped-def]
    # "The area gives a -2 modifier. His team has more players in the shooting area, which gives a
    #  +1 modifier. Otto's team has more players in the penalty area, which gives a -1 modifier."
    m = start()
    put_exact(m, "home", {"A-FRONT": 2, "A-PEN": 1, "CENTRE": 7}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 1, "A-PEN": 1, "A-LC": 4, "A-RC": 4}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.A_FRONT
    m.st.value = 3
    to_action(m, "home")
    m.st.value = 3
    dec(m, "action", "goal_attempt")
    assert pend(m) == ("roll", "goal_attempt", "home")
    return m


def test_example_goal_attempt_6_scores_4_4() -> None:
    m = _santeri_example()
    roll(m, "goal_attempt", 6)  # "Santeri must roll a 6 to score a goal (6-2=4 > 3)"
    assert m.st.score() == [1, 0]
    # the scoring team becomes the defending team: away kicks off
    assert pend(m) == ("decision", "setup", "away")


def test_example_goal_attempt_5_is_corner_4_4() -> None:
    m = _santeri_example()
    roll(m, "goal_attempt", 5)
    assert pend(m) == ("decision", "corner_spot", "home")
    dec(m, "corner_spot", "A-LCK")
    assert m.st.ball == B.A_LCK and m.st.value == 2


def test_example_goal_attempt_4_is_rebound_4_4() -> None:
    m = _santeri_example()
    roll(m, "goal_attempt", 4)
    assert pend(m) == ("roll", "rebound", "both")


@pytest.mark.parametrize("die", [1, 2, 3])
def test_example_goal_attempt_1_to_3_is_miss_and_goal_kick_4_4(die: int) -> None:
    m = _santeri_example()
    roll(m, "goal_attempt", die)
    assert m.st.ct == 1 and m.st.ball == B.A_PEN and m.st.value == 2  # goal kick (5.4)
    assert pend(m)[2] == "away"


def test_rebound_4_4_1() -> None:
    m = _santeri_example()
    roll(m, "goal_attempt", 4)
    # home: die 3 + 1 player; away: die 4 + 1 outfield player (goalkeeper not counted) -> away wins
    roll(m, "rebound", 3, 4)
    assert m.st.ct == 1 and m.st.value == 4
    m2 = _santeri_example()
    roll(m2, "goal_attempt", 4)
    roll(m2, "rebound", 5, 4)  # 6 > 5: goal
    assert m2.st.score() == [1, 0]
    m3 = _santeri_example()
    roll(m3, "goal_attempt", 4)
    roll(m3, "rebound", 4, 4)  # 5 = 5: corner
    assert pend(m3)[1] == "corner_spot"


def test_difficult_goal_attempt_4_4_2() -> None:
    m = start()
    put_exact(m, "home", {"A-LM": 3, "CENTRE": 7}, gk="H-PEN")
    put_exact(m, "away", {"A-LM": 1, "A-PEN": 3, "A-FRONT": 6}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.A_LM
    m.st.value = 3
    to_action(m, "home")
    m.st.value = 4  # -5 area +1 more players -1 penalty area: needs 9 > 6 -> difficult attempt
    dec(m, "action", "goal_attempt")
    roll(m, "goal_attempt", 6)
    assert pend(m) == ("roll", "difficult_goal_attempt", "home")
    roll(m, "difficult_goal_attempt", 6)  # 6 > 5 (area modifier without the sign): goal
    assert m.st.score() == [1, 0]


def test_difficult_goal_attempt_equal_is_corner_4_4_2() -> None:
    m = start()
    put_exact(m, "home", {"A-LM": 3, "CENTRE": 7}, gk="H-PEN")
    put_exact(m, "away", {"A-LM": 1, "A-PEN": 3, "A-FRONT": 6}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.A_LM
    m.st.value = 3
    to_action(m, "home")
    m.st.value = 4
    dec(m, "action", "goal_attempt")
    roll(m, "goal_attempt", 6)
    roll(m, "difficult_goal_attempt", 5)
    assert pend(m)[1] == "corner_spot"


def test_goal_attempt_only_from_opponent_half_4_4() -> None:
    m = start()
    put_exact(m, "home", {"CENTRE": 10}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 1, "A-FRONT": 9}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    to_action(m, "home")
    p = m.pending()
    assert p is not None and "goal_attempt" not in p.options
    with pytest.raises(IllegalEventError, match=r"no goal attempt is possible from CENTRE.*4\.4\.3"):
        m.apply(Decision("action", "home", "goal_attempt"))


def test_goalkeeper_out_of_penalty_area_4_4_3() -> None:
    m = start()
    put_exact(m, "home", {"CENTRE": 10}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 1, "A-FRONT": 9}, gk="A-FRONT")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    to_action(m, "home")
    m.st.value = 6
    dec(m, "action", "goal_attempt")
    # -6 area, +1 more players in CENTRE, -1 more defenders in the penalty area? none there: 0 vs 0;
    # +4 goalkeeper out: total -1 -> a 6 gives 5, not > 6; then difficult? needed 8 > 6: yes
    roll(m, "goal_attempt", 5)
    assert m.st.ct == 1  # miss: goal kick for away

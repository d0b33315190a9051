"""Action stage (4.3): free movements, second actions, movement (4.5),
dribbling (4.5.2), positioning (4.6), pressing (4.7, A6)."""

import pytest

from rules_engine import board as B
from rules_engine.api import Decision, IllegalEventError

from .helpers import dec, header, pend, put_exact, roll, start, to_action


def _at_first_action(hdr=None, ct="home"):  # type: ignore[no-untyped-def]
    m = start(hdr)
    put_exact(m, "home", {"CENTRE": 3, "H-LM": 2, "H-RM": 2, "A-LM": 2, "H-FRONT": 1}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 3, "A-LC": 2, "A-RC": 2}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    return m


def test_example_free_player_movements_4_3_1() -> None:
    # outnumbering in three areas: one player from each; player A in the corner area touching the
    # goal line may move straight away from the goal line even with equal numbers.
    m = start()
    put_exact(m, "home", {"CENTRE": 3, "H-LM": 2, "A-RM": 2, "A-LC": 1, "H-FRONT": 2}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 2, "H-FRONT": 2, "A-LC": 1, "A-FRONT": 5}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 5)
    assert pend(m) == ("decision", "free_move", "home")
    opts = set(m.pending().options)  # type: ignore[union-attr]
    assert "A-LC>A-LM" in opts  # straight away from the goal line
    assert "A-LC>A-FRONT" not in opts and "A-LC>A-PEN" not in opts
    assert "H-FRONT>H-LC" not in opts  # equal numbers in H-FRONT
    for mv in ("CENTRE>A-LM", "H-LM>H-LC", "A-RM>A-RC", "A-LC>A-LM"):
        dec(m, "free_move", mv)
    assert pend(m) == ("decision", "action", "home")  # four free moves used up


def test_free_move_from_an_area_only_once_4_3_1() -> None:
    m = start()
    put_exact(m, "home", {"CENTRE": 4, "H-FRONT": 6}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 2, "A-FRONT": 8}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 5)
    dec(m, "free_move", "CENTRE>H-LM")
    with pytest.raises(IllegalEventError, match="no free movement from CENTRE"):
        m.apply(Decision("free_move", "home", "CENTRE>H-RM"))


def test_example_player_movements_minimum_by_formation_4_5() -> None:
    # "He rolls 5 and 2, which allows him to move only two players ... The ball is located in the
    #  midfield zone, so Otto can move at least the number of midfielders ... up to four players."
    m = _at_first_action()
    to_action(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 5, 2)
    for mv in ("H-LM>H-LC", "H-RM>H-RC", "CENTRE>H-FRONT", "CENTRE>H-LM"):
        dec(m, "move", mv)
    assert pend(m)[1] != "move"


def test_example_tiredness_reduces_movement_minimum_a1() -> None:
    # "a 4-4-2 starting formation suffers tiredness ... reduced to 3-3-1"
    m = _at_first_action(header(adv=["A1"]))
    m.st.teams[0].tired = True
    to_action(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 2, 1)  # a condition point would not help (2 < 3): not asked
    for mv in ("H-LM>H-LC", "H-RM>H-RC", "CENTRE>H-FRONT"):
        dec(m, "move", mv)
    assert pend(m)[1] != "move"


def test_movement_condition_point_uses_higher_die_a1() -> None:
    m = _at_first_action(header(adv=["A1"]))
    to_action(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 6, 1)
    cp_before = m.st.teams[0].cp[1]
    dec(m, "use_cp", "yes")
    assert m.st.teams[0].cp[1] == cp_before - 1  # from the ball zone (midfield)
    for _ in range(6):
        assert pend(m)[1] == "move"
        dec(m, "move", m.pending().options[0])  # type: ignore[union-attr]
    assert pend(m)[1] != "move"


def test_same_player_cannot_move_twice_in_movement_4_5() -> None:
    m = _at_first_action()
    to_action(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 5, 5)
    dec(m, "move", "H-LM>H-LC")
    with pytest.raises(IllegalEventError, match="already moved"):
        m.apply(Decision("move", "home", "H-LC>H-PEN"))


def test_movement_offside_restriction_4_5_1() -> None:
    m = start()
    put_exact(m, "home", {"CENTRE": 4, "A-FRONT": 2, "H-FRONT": 4}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")  # second-last player in A-FRONT
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    to_action(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 5, 5)
    with pytest.raises(IllegalEventError, match=r"offside position \(4.5.1\)"):
        m.apply(Decision("move", "home", "A-FRONT>A-PEN"))
    dec(m, "move", "A-FRONT>A-LC")  # partly at the level of A-FRONT: not offside
    dec(m, "move", "A-FRONT>CENTRE")  # straight backwards


def test_example_dribbling_4_5_2() -> None:
    m = start()
    put_exact(m, "home", {"H-LM": 3, "A-LM": 1, "CENTRE": 6}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 10}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.H_LM
    m.st.value = 4
    to_action(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 5, 5)
    dec(m, "move", "H-LM>A-LM+ball")  # no opponents in H-LM: the ball goes with the player
    assert m.st.ball == B.A_LM
    with pytest.raises(IllegalEventError, match="dribbling is not possible"):
        m.apply(Decision("move", "home", "A-LM>A-LC+ball"))  # once per movement action


def test_no_dribbling_from_area_with_defenders_4_5_2() -> None:
    m = _at_first_action()
    to_action(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 5, 5)
    with pytest.raises(IllegalEventError, match="defending players in CENTRE"):
        m.apply(Decision("move", "home", "CENTRE>A-FRONT+ball"))


def test_controlling_team_keeps_a_player_with_the_ball_4_5_3() -> None:
    m = start()
    put_exact(m, "home", {"A-LM": 1, "CENTRE": 9}, gk="H-PEN")
    put_exact(m, "away", {"A-LM": 1, "A-FRONT": 9}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.A_LM
    m.st.value = 3
    to_action(m, "home")
    dec(m, "action", "movement")
    roll(m, "movement", 5, 5)
    with pytest.raises(IllegalEventError, match=r"4\.5\.3"):
        m.apply(Decision("move", "home", "A-LM>H-LM"))


def test_example_1_positioning_4_6() -> None:
    # "He rolls 4 and 2. The ball value is dropped two steps (from 5 to 3) ... the maximum adjustment is two."
    m = _at_first_action()
    to_action(m, "home")
    m.st.value = 5
    dec(m, "action", "positioning")
    roll(m, "positioning", 4, 2)
    assert m.st.value == 3


def test_example_2_positioning_4_6() -> None:
    # "He rolls 3 and 4. One die result is higher than the ball value, so ... from 3 to 4."
    m = start()
    put_exact(m, "home", {"CENTRE": 3, "H-FRONT": 7}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    to_action(m, "away")
    m.st.value = 3
    dec(m, "action", "positioning")
    roll(m, "positioning", 3, 4)
    assert m.st.value == 4


def test_positioning_without_players_in_area_is_one_step_less_4_6() -> None:
    m = start()
    put_exact(m, "home", {"CENTRE": 3, "H-FRONT": 7}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 10}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 5
    to_action(m, "away")
    m.st.value = 3
    dec(m, "action", "positioning")
    roll(m, "positioning", 5, 4)
    assert m.st.value == 4  # two dice higher, minus one: no away player in CENTRE


def test_example_pressing_4_7() -> None:
    # "He rolls two dice and gets 2 and 5 ... Santeri gets the ball with the value of the higher
    #  die result, 5."
    m = _at_first_action()
    to_action(m, "away")
    m.st.value = 3
    dec(m, "action", "pressing")
    roll(m, "pressing", 2, 5)
    assert m.st.ct == 1 and m.st.value == 5


def test_pressing_both_lower_and_failure_4_7() -> None:
    m = _at_first_action()
    to_action(m, "away")
    m.st.value = 4
    dec(m, "action", "pressing")
    roll(m, "pressing", 1, 3)
    assert m.st.ct == 1 and m.st.value == 1
    m2 = _at_first_action()
    to_action(m2, "away")
    m2.st.value = 3
    dec(m2, "action", "pressing")
    roll(m2, "pressing", 3, 6)
    assert m2.st.ct == 0 and m2.st.value == 2  # failed: ball value reduced by one


def test_pressing_needs_equal_numbers_4_7() -> None:
    m = start()
    put_exact(m, "home", {"CENTRE": 4, "H-FRONT": 6}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    to_action(m, "away")
    assert "pressing" not in m.pending().options  # type: ignore[union-attr]
    with pytest.raises(IllegalEventError, match=r"at least as many players .*\(3 against 4\)"):
        m.apply(Decision("action", "away", "pressing"))


def test_aggressive_pressing_a6() -> None:
    m = start(header(adv=["A1", "A6"]))
    put_exact(m, "home", {"CENTRE": 4, "H-FRONT": 6}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    to_action(m, "away")
    m.st.value = 3
    assert "aggressive_pressing" in m.pending().options  # type: ignore[union-attr]  # one fewer is enough
    cp = m.st.teams[1].cp[1]
    dec(m, "action", "aggressive_pressing")
    roll(m, "pressing", 3, 6)  # equal to the ball value succeeds
    assert m.st.ct == 1 and m.st.value == 6 and m.st.teams[1].cp[1] == cp - 1


def test_failed_aggressive_pressing_gives_free_kick_and_yellow_test_a6() -> None:
    m = start(header(adv=["A1", "A6"]))
    put_exact(m, "home", {"CENTRE": 4, "H-FRONT": 6}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    to_action(m, "away")
    m.st.value = 3
    dec(m, "action", "aggressive_pressing")
    roll(m, "pressing", 4, 6)
    assert pend(m) == ("roll", "yellow_test", "away")
    roll(m, "yellow_test", 5)
    assert m.st.teams[1].yellows == 1
    # free kick for home in the centre area: always a quick free kick (5.2.3)
    assert m.st.ct == 0 and m.st.ball == B.CENTRE and m.st.value == 2
    assert pend(m) == ("decision", "quick_free_kick_move", "home")


def test_second_actions_must_differ_4_3_2() -> None:
    m = _at_first_action()
    to_action(m, "home")
    m.st.value = 3
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 6)
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    dec(m, "action", "positioning")
    roll(m, "positioning", 1, 1)
    assert pend(m) == ("decision", "second_actions", "home")
    dec(m, "second_actions", "yes")
    assert "positioning" not in m.pending().options  # type: ignore[union-attr]
    with pytest.raises(IllegalEventError, match=r"must differ from the first \(positioning\)"):
        m.apply(Decision("action", "home", "positioning"))


def test_no_second_actions_when_defenders_outnumber_4_3_2() -> None:
    m = start()
    put_exact(m, "home", {"CENTRE": 2, "H-FRONT": 8}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 4, "A-FRONT": 6}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    to_action(m, "away")
    dec(m, "action", "positioning")
    roll(m, "positioning", 1, 1)
    while pend(m)[1] == "free_move":
        dec(m, "free_move", "done")
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 6)
    assert pend(m)[1] == "target_area"  # straight to a new turn

"""Stage 2, game situation progress (4.2): time, control check, new ball value,
order of actions - the worked examples of rulebook 3."""

from rules_engine import board as B

from .helpers import ball, dec, header, pend, put, roll, start


def test_example_control_check_and_new_ball_value_4_2_2() -> None:
    # "target area A ... Otto has rolled 5 and 2. The ball value is 3. ... retains the ball control.
    #  The value will be changed to match the lower die result, two"
    m = start()
    put(m, "home", {"CENTRE": 2, "A-LM": 1}, gk="H-PEN")
    put(m, "away", {"CENTRE": 1, "A-LM": 1}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    dec(m, "target_area", "A-LM")
    assert m.st.value == 3  # no stage-1 modifier applies in this set-up
    roll(m, "situation", 5, 2)
    assert m.st.ct == 0  # retained
    assert m.st.value == 2  # lower die: adjacent target where Otto had a player
    assert m.st.minute() == 3  # "time marker moved as many squares as the difference"
    # only one die >= 3: the defending team acts first (4.2.4)
    assert pend(m)[2] == "away"


def test_new_ball_value_uses_higher_die_without_player_in_target_4_2_3() -> None:
    m = start()
    put(m, "home", {"CENTRE": 2}, gk="H-PEN")
    put(m, "away", {"CENTRE": 2, "A-LM": 1}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    dec(m, "target_area", "A-LM")  # 3 +1 (opponent has more players there) = 4
    assert m.st.value == 4
    roll(m, "situation", 5, 2)
    assert m.st.ct == 0 and m.st.value == 5


def test_example_time_4_2_1() -> None:
    # "Santeri rolls 4 and 1 ... The value difference is 3 so the time marker is moved 3 minutes"
    m = start()
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 4, 1)
    assert m.st.minute_label() == "3"


def test_example_2_time_special_event_4_2_1() -> None:
    # "Santeri rolls 4 and 4 ... moved 4 minutes forward and a special event occurs"
    m = start(header(adv=["A13"]))
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 4, 4)
    assert m.st.minute_label() == "4"
    assert pend(m) == ("roll", "special_event", "both")


def test_double_without_special_events_rule_only_moves_time() -> None:
    m = start(header(adv=[]))
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 4, 4)
    assert m.st.minute_label() == "4"
    assert pend(m)[1] != "special_event"


def test_example_stoppage_time_4_2_1_2() -> None:
    # "The time marker is on the +2 square. Santeri rolls 3 and 2 ... the half ends immediately."
    m = start()
    m.st.clock, m.st.stoppage = 45, 2
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 3, 2)
    assert m.st.half == 2
    assert m.st.turns_per_half == [1, 0]
    assert pend(m)[1] == "half_time_formation"


def test_stoppage_time_moves_one_square_when_difference_is_big_enough() -> None:
    m = start()
    m.st.clock, m.st.stoppage = 45, 2
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 2)
    assert m.st.half == 1 and m.st.minute_label() == "45+3"


def test_time_stops_on_first_stoppage_square() -> None:
    m = start()
    m.st.clock = 43
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 1)  # 5 minutes, but the marker stops at +1
    assert m.st.minute_label() == "45+1"


def test_stoppage_half_continues_to_end_of_turn_when_ball_in_penalty_area() -> None:
    m = start()
    m.st.clock, m.st.stoppage = 45, 3
    put(m, "home", {"H-FRONT": 2}, gk="H-PEN")
    ball(m, "H-FRONT", 2)
    dec(m, "target_area", "H-PEN")
    roll(m, "situation", 3, 2)  # difference 1 < 3, but the ball is in a penalty area
    assert m.st.half == 1 and m.st.half_over_at_turn_end


def test_plus_five_square_ends_half_at_end_of_turn() -> None:
    m = start()
    m.st.clock, m.st.stoppage = 45, 4
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 1)
    assert m.st.minute_label() == "45+5" and m.st.half_over_at_turn_end


def _order_case(d1: int, d2: int) -> tuple[int, str]:
    m = start()
    put(m, "home", {"CENTRE": 2}, gk="H-PEN")
    put(m, "away", {"CENTRE": 2}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    dec(m, "target_area", "CENTRE")
    assert m.st.value == 3
    roll(m, "situation", d1, d2)
    return m.st.ct, pend(m)[2]


def test_example_order_of_actions_4_2_4() -> None:
    # both dice >= ball value: the controlling team plays first
    assert _order_case(4, 5) == (0, "home")
    # only one die >= ball value: the defending team plays first, control kept
    assert _order_case(4, 2) == (0, "away")
    # both dice lower: the yellow (defending) team gets the ball and plays first
    assert _order_case(1, 2) == (1, "away")


def test_easy_situation_4_2_2_2() -> None:
    m = start()
    put(m, "home", {"CENTRE": 2, "A-LM": 1}, gk="H-PEN")
    put(m, "away", {"A-RC": 9, "H-RC": 1}, gk="A-PEN")
    ball(m, "CENTRE", 5)
    dec(m, "target_area", "H-LM")
    roll(m, "situation", 1, 2)  # control check fails ...
    assert m.st.ct == 0  # ... but no defender in or next to H-LM: ball control does not change
    assert pend(m) == ("decision", "easy_situation_move", "away")
    dec(m, "easy_situation_move", "H-RC>H-FRONT")
    assert m.st.teams[1].field[B.H_FRONT] == 1


def test_closest_player_moves_to_target_4_2_2_1() -> None:
    m = start()
    put(m, "home", {"CENTRE": 2, "H-LC": 1, "H-RC": 1}, gk="H-PEN")
    put(m, "away", {"CENTRE": 2}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    dec(m, "target_area", "H-FRONT")
    roll(m, "situation", 1, 2)  # lost: away must bring its closest player to H-FRONT
    assert m.st.ct == 1
    assert m.st.teams[1].field[B.H_FRONT] == 1 and m.st.teams[1].field[B.CENTRE] == 1

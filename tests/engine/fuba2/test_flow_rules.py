"""The FUBA 2 turn flow, rule by rule: each test quotes rulebook 2.0 (shared/seeds/001_...) and
plays the rule through ``Match`` (pending / apply), the worked examples with their numbers."""

from __future__ import annotations

import pytest

from rules_engine import board as B
from rules_engine.api import Decision, IllegalEventError, new_match
from tests.engine.fuba2.scene import header2, scene, start2
from tests.engine.helpers import controlling, dec, pend, put_exact, roll, team_state


def _p(m):  # the pending request, asserted to exist
    p = m.pending()
    assert p is not None
    return p


# ------------------------------------------------------------------ 3 match preparation
def test_3_1_the_higher_die_chooses_who_starts_and_equal_dice_roll_again() -> None:
    # "Heidi gets 5 and Otto 3. Thus Heidi decides who will start as a controlling team"
    m = new_match(header2())
    roll(m, "kick_off", 4, 4)  # I2-13: equal dice are rolled again
    assert pend(m) == ("roll", "kick_off", "both")
    roll(m, "kick_off", 5, 3)
    assert pend(m) == ("decision", "kick_off_team", "home")
    dec(m, "kick_off_team", "home")
    # "1. The controlling team sets up its players. 2. The passive team sets up its players."
    assert pend(m) == ("decision", "setup", "home")
    assert m.st.value == 1  # 3.2.1: "with 1 as the initial ball die value"
    assert m.st.minute_label() == "1"  # 3.3: "One referee is set up on square 1 of the time track"


def test_3_2_1_kick_off_set_up_and_the_two_adjusting_moves() -> None:
    # "She setups four players to the middle area ... Heidi has chance to move two players.
    # She choose to move two players from centre to strengthen the side"
    m = new_match(header2())
    roll(m, "kick_off", 5, 3)
    dec(m, "kick_off_team", "home")
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("setup", "home", {"gk": "H-PEN", "players": {"H-LM": 5, "H-RM": 5}}))
    assert e.value.rule == "3.2.1" and "two players in the centre area" in e.value.reason
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("setup", "home", {"gk": "H-PEN", "players": {"CENTRE": 2, "A-LM": 8}}))
    assert "not in the team's half" in e.value.reason
    heidi = {"gk": "H-PEN", "players": {"CENTRE": 4, "H-PEN": 2, "H-FRONT": 2, "H-RM": 2}}
    dec(m, "setup", heidi)
    dec(m, "setup", {"gk": "A-PEN", "players": {"CENTRE": 2, "A-FRONT": 4, "A-LM": 2, "A-RM": 2}})
    dec(m, "setup_adjust", "CENTRE>H-LM")
    dec(m, "setup_adjust", "CENTRE>H-LM")
    assert pend(m) == ("decision", "target_area", "home")  # at most two: the turn starts
    assert team_state(m, "home").field[B.INDEX["H-LM"]] == 2
    assert team_state(m, "home").field[B.CENTRE] == 2


def test_3_2_an_adjustment_must_still_fill_the_setup_rules() -> None:
    m = new_match(header2())
    roll(m, "kick_off", 5, 3)
    dec(m, "kick_off_team", "home")
    dec(m, "setup", {"gk": "H-PEN", "players": {"CENTRE": 2, "H-FRONT": 8}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-FRONT": 10}})
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("setup_adjust", "home", "CENTRE>H-LM"))  # leaves one in the centre
    assert e.value.rule == "3.2.1"
    with pytest.raises(IllegalEventError):
        m.apply(Decision("setup_adjust", "home", "H-FRONT>CENTRE+ball"))


# ---------------------------------------------------------------------- 4.1 target area
def test_4_1_target_area_with_a_player_there_or_next_to_it() -> None:
    # "He can choose area A as target area because he has a player there. He can choose area B
    # ... adjacent to an area where he has a player. He cannot choose area C"
    m = start2()
    put_exact(m, "home", {"H-LM": 9, "CENTRE": 1}, "H-PEN")
    opts = _p(m).options
    assert "H-LM" in opts and "A-LM" in opts and "A-PEN" not in opts
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("target_area", "home", "A-PEN"))
    assert e.value.rule == "4.1" and e.value.turn == 1 and e.value.stage == 1


def test_4_1_1_no_target_area_where_the_player_is_offside() -> None:
    # "The player in area B is in an offside position, thus Otto cannot choose area B"
    m = start2()
    put_exact(m, "home", {"CENTRE": 9, "A-PEN": 1}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 9, "A-LM": 1}, "A-PEN")  # second-last player in A-FRONT
    scene(m, "CENTRE", 3)
    assert "A-PEN" not in _p(m).options
    put_exact(m, "away", {"A-PEN": 9, "A-LM": 1}, "A-PEN")
    assert "A-PEN" in _p(m).options


# -------------------------------------------------------------------- 4.2, 4.3 time
def test_4_3_time_moves_by_the_difference_of_the_dice() -> None:
    # "Heidi rolls 4 and Otto rolls 1. The dice difference is 3 so the time marker is moved 3"
    m = start2()
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 4, 1)
    assert m.st.minute_label() == "4"


def test_4_3_a_zero_difference_owes_one_extra_minute() -> None:
    # "If the dice difference was 0 ... time will be moved one extra minute forward"
    m = start2()
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 3, 3)  # equal: also a special event (the CT's die equals ... no: ball 1)
    assert m.st.minute_label() == "1" and m.extra.carried == 1


# ---------------------------------------------------------------- 4.4 control check
def _to_turn_dice(m, target: str) -> None:
    dec(m, "target_area", target)
    assert pend(m)[1] == "turn_dice"


def test_4_4_control_check_example() -> None:
    # "Otto has rolled 5 and Heidi 2. The ball value is 3 ... control check is successfully passed
    # ... the value will be changed to equal Heidi's (passive team) die score which was 2"
    m = start2(ct="away")
    put_exact(m, "away", {"CENTRE": 4, "H-LM": 2, "A-LM": 4}, "A-PEN")
    put_exact(m, "home", {"CENTRE": 2, "H-LM": 2, "H-FRONT": 6}, "H-PEN")
    scene(m, "CENTRE", 3)
    _to_turn_dice(m, "H-LM")
    roll(m, "turn_dice", 5, 2)
    assert controlling(m) == "away" and m.st.ball == B.INDEX["H-LM"] and m.st.value == 2


def test_4_4_a_lower_die_turns_the_ball_over_at_the_new_passive_teams_die() -> None:
    # "If the die value is lower than the ball die value, possession is turned over"; 4.5.1: "the
    # new ball value is the die result of the new passive team"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-LM": 3, "A-FRONT": 7}, "A-PEN")
    scene(m, "CENTRE", 4)
    _to_turn_dice(m, "A-LM")
    roll(m, "turn_dice", 2, 5)
    assert controlling(m) == "away" and m.st.value == 2


def test_4_4_1_target_without_passive_players_passes_automatically() -> None:
    # "If the passive team has no player in the target area and the controlling team has at least
    # one player, then the controlling team passes the control check automatically"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "H-LM": 6}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 10}, "A-PEN")
    scene(m, "CENTRE", 5)
    _to_turn_dice(m, "H-LM")
    roll(m, "turn_dice", 1, 4)
    assert controlling(m) == "home"


# ---------------------------------------------------------------- 4.5 ball movement
def test_4_5_2_long_pass_example() -> None:
    # "The passive team's die score where 4. There were two areas between the start and the
    # target area. Thus the ball value is adjusted initially to 4, but then increased by 2 to 6."
    m = start2()
    put_exact(m, "home", {"H-PEN": 2, "A-LM": 3, "H-LC": 5}, "H-PEN")
    put_exact(m, "away", {"H-PEN": 1, "A-LM": 3, "A-FRONT": 6}, "A-PEN")
    scene(m, "H-PEN", 2)
    assert B.DIST[B.INDEX["H-PEN"]][B.INDEX["A-LM"]] == 3
    _to_turn_dice(m, "A-LM")
    roll(m, "turn_dice", 5, 4)
    assert controlling(m) == "home" and m.st.value == 6


def test_4_5_4_above_6_the_ball_goes_to_the_passive_team() -> None:
    # "If the ball value would be adjusted above 6, then the controlling team turns over possession"
    m = start2()
    put_exact(m, "home", {"H-PEN": 2, "A-LM": 3, "H-LC": 5}, "H-PEN")
    put_exact(m, "away", {"H-PEN": 1, "A-LM": 3, "A-FRONT": 6}, "A-PEN")
    scene(m, "H-PEN", 2)
    _to_turn_dice(m, "A-LM")
    roll(m, "turn_dice", 3, 5)  # 5 + 2 areas between = 7
    assert controlling(m) == "away" and m.st.value == 3  # the new passive team's die (4.5.1)


def test_4_5_3_no_passive_player_in_the_start_area_takes_one_off() -> None:
    # "One is reduced from the new ball value after a successful control check if the passive team
    # has no players in the ball starting area"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-LM": 3, "A-FRONT": 7}, "A-PEN")
    scene(m, "CENTRE", 2)
    _to_turn_dice(m, "A-LM")
    roll(m, "turn_dice", 5, 4)
    assert m.st.value == 3


# ---------------------------------------------------------------- 4.4.3 special events
def test_4_4_3_equal_die_and_ball_value_rolls_a_special_event_free_kick_for_ct() -> None:
    # "If the die value of the controlling team's die equals the ball die value, a special event
    # is rolled"; -1: "Free kick for CT. PT must roll for a yellow card"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-LM": 3, "A-FRONT": 7}, "A-PEN")
    scene(m, "CENTRE", 3)
    _to_turn_dice(m, "A-LM")
    roll(m, "turn_dice", 3, 5)
    assert pend(m) == ("roll", "special_event", "both")
    roll(m, "special_event", 2, 3)
    assert pend(m) == ("roll", "yellow_card", "away")
    roll(m, "yellow_card", 4)  # "4-5: Yellow card"
    assert team_state(m, "away").yellows == 1
    # 5.1: the ball to the target area, value 1, a new set-up
    assert pend(m) == ("decision", "setup", "home") and m.st.value == 1 and m.st.ball == B.INDEX["A-LM"]


def test_4_4_3_row_0_skips_both_action_stages() -> None:
    # "0: Both team's action stages are skipped"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-LM": 3, "A-FRONT": 7}, "A-PEN")
    scene(m, "CENTRE", 3)
    _to_turn_dice(m, "A-LM")
    roll(m, "turn_dice", 3, 5)
    roll(m, "special_event", 4, 4)
    # no action stage: the next turn starts with its target area
    assert pend(m) == ("decision", "target_area", "home") and m.st.turn == 2


def test_4_4_3_row_5_the_passive_team_may_not_choose_defence() -> None:
    # "5: The passive team may not choose defence movement option this turn"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-LM": 3, "A-FRONT": 7}, "A-PEN")
    scene(m, "CENTRE", 3, restart="kick_off")
    _to_turn_dice(m, "A-LM")
    roll(m, "turn_dice", 3, 5)
    roll(m, "special_event", 6, 1)
    assert pend(m) == ("decision", "movement_option", "away")  # kick-off: the passive team first
    assert _p(m).options == ("midfield", "forward")
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("movement_option", "away", "defence"))
    assert e.value.rule == "4.4.3"


# ---------------------------------------------------------------- 4.6 action stages
def test_4_6_after_a_kick_off_the_passive_team_acts_first() -> None:
    # "If a corner kick, kick off, a penalty kick or a free kick was given at the beginning of the
    # turn, then the passive team plays the first action stage"
    m = start2()
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 4, 1)
    assert pend(m) == ("decision", "movement_option", "away")


@pytest.mark.parametrize(
    ("moved", "first"),
    [((2, 3), "home"), ((3, 3), "away"), ((4, 1), "away")],
)
def test_4_6_the_team_that_moved_fewer_players_acts_first_again(moved: tuple[int, int], first: str) -> None:
    # "The team which played a team action stage first in the last turn will take again the first
    # team action stage if it moved fewer number of players ... Otherwise the opponent"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "H-LM": 6}, "H-PEN")
    put_exact(m, "away", {"CENTRE": 4, "A-FRONT": 6}, "A-PEN")
    scene(m, "CENTRE", 3, last_first="home", last_moved=moved)
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 5, 1)
    p = _p(m)
    assert p.actor == first and p.name in ("goal_attempt", "movement_option", "use_cp")


# ---------------------------------------------------------------- 4.7 goal attempt
def _shooting_scene(die: int):
    # "The area gives -2 modifier. Her team has more players in the shooting area, which gives +1
    # modifier. Otto's team has more players in the penalty area, which gives -1 modifier ...
    # Thus Heidi must roll 6 to score a goal (6-2=4 > 3). 5 would cause a corner kick and 4 a
    # rebound. 1-3 will be a miss."
    m = start2()
    put_exact(m, "home", {"A-FRONT": 3, "A-PEN": 1, "CENTRE": 6}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 1, "A-PEN": 3, "A-LM": 6}, "A-PEN")
    scene(m, "A-FRONT", 2, last_first="home", last_moved=(1, 3))
    dec(m, "target_area", "A-FRONT")
    roll(m, "turn_dice", 5, 3)  # kept; the new value is Otto's 3
    assert m.st.value == 3
    dec(m, "goal_attempt", "yes")
    roll(m, "goal_attempt", die)
    return m


def test_4_7_goal_attempt_example_six_scores() -> None:
    m = _shooting_scene(6)
    assert m.st.score() == [1, 0]
    # "new team setups for kick-off ... The scoring team becomes the passive team"
    assert pend(m) == ("decision", "setup", "away")


def test_4_7_goal_attempt_example_five_is_a_corner_kick() -> None:
    m = _shooting_scene(5)
    assert pend(m) == ("decision", "corner_spot", "home")
    dec(m, "corner_spot", "A-LCK")
    assert m.st.value == 1  # 5.2: "The ball die value is adjusted to 1"


def test_4_7_goal_attempt_example_four_is_a_rebound() -> None:
    m = _shooting_scene(4)
    assert pend(m) == ("roll", "rebound", "both")
    # 4.7.3: each die plus the players in the penalty area, the passive goalkeeper not counted
    roll(m, "rebound", 3, 4)  # home 3 + 1 = 4, away 4 + 3 = 7: Otto regains the ball
    assert controlling(m) == "away" and m.st.value == 3 and m.st.ball == B.INDEX["A-PEN"]


def test_4_7_goal_attempt_example_three_is_a_miss_and_a_goal_kick() -> None:
    m = _shooting_scene(3)
    # 5.3: "The ball is placed there and the ball die value is adjusted to 1"
    assert controlling(m) == "away" and m.st.value == 1 and m.st.ball == B.INDEX["A-PEN"]
    assert m.extra.before_goal_kick
    assert pend(m) == ("decision", "use_cp", "home") or pend(m)[1] == "movement_option"


# ---------------------------------------------------------------- 4.8 movement
def test_4_8_2_forward_movement_stops_where_the_opponent_has_more_players() -> None:
    # "When Otto moves the first player it must stop to the first area, because the opponent has
    # more players there before that movement. The second forward move can go through that area"
    m = start2()
    put_exact(m, "home", {"H-FRONT": 2, "H-LM": 8}, "H-PEN")
    put_exact(m, "away", {"CENTRE": 1, "A-FRONT": 9}, "A-PEN")
    scene(m, "H-LM", 3, last_first="home", last_moved=(0, 5))
    dec(m, "target_area", "H-LM")
    roll(m, "turn_dice", 5, 2)
    dec(m, "movement_option", "forward")
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("move", "home", "H-FRONT>A-FRONT"))
    assert e.value.rule == "4.8.2" and "stops in CENTRE" in e.value.reason
    dec(m, "move", "H-FRONT>CENTRE")
    # now the teams are equal in the centre: the second forward passes through it
    m.apply(Decision("move", "home", "H-FRONT>A-FRONT"))


def test_4_8_1_midfield_moves_go_sideways_or_diagonally() -> None:
    # "The players can however only move sideways or diagonally, not straight forward"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "H-LM": 6}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 10}, "A-PEN")
    scene(m, "H-LM", 3, last_first="home", last_moved=(0, 5))
    dec(m, "target_area", "H-LM")
    roll(m, "turn_dice", 5, 2)
    dec(m, "movement_option", "midfield")
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("move", "home", "CENTRE>A-FRONT"))
    assert e.value.rule == "4.8.1"
    dec(m, "move", "CENTRE>A-LM")


def test_4_9_ball_value_adjustment_example() -> None:
    # "Otto has one player more than Heidi in that area. Thus the ball value is adjusted by one to
    # Otto's favour, from 3 to 4. The ball value adjustment is compulsory"
    m = start2()
    put_exact(m, "home", {"H-LM": 2, "CENTRE": 2, "H-FRONT": 6}, "H-PEN")
    put_exact(m, "away", {"H-LM": 2, "CENTRE": 4, "A-FRONT": 4}, "A-PEN")
    scene(m, "H-LM", 4, restart="kick_off")
    dec(m, "target_area", "H-LM")
    roll(m, "turn_dice", 5, 3)
    assert m.st.value == 3
    dec(m, "movement_option", "midfield")  # Otto first (kick-off)
    dec(m, "move", "CENTRE>H-LM")
    dec(m, "move", "done")
    assert m.st.value == 4


def test_4_9_1_pressing_example() -> None:
    # "She rolls a die and got 2. The result is lower than the ball value. She immediately gets the
    # ball control and new ball value will be 2"
    m = _adjusted_match()
    dec(m, "pressing", "yes")
    roll(m, "pressing", 2)
    assert controlling(m) == "away" and m.st.value == 2


def test_4_9_1_failed_pressing_passes_the_next_control_check() -> None:
    # "the opponent will automatically pass the control check in the next turn"
    m = _adjusted_match()
    dec(m, "pressing", "yes")
    roll(m, "pressing", 5)
    assert controlling(m) == "home" and m.extra.press_failed_by == 1


def _adjusted_match():
    m = start2()
    put_exact(m, "home", {"H-LM": 2, "CENTRE": 2, "H-FRONT": 6}, "H-PEN")
    put_exact(m, "away", {"H-LM": 2, "CENTRE": 4, "A-FRONT": 4}, "A-PEN")
    scene(m, "H-LM", 4, restart="kick_off")
    dec(m, "target_area", "H-LM")
    roll(m, "turn_dice", 5, 3)
    dec(m, "movement_option", "midfield")
    dec(m, "move", "CENTRE>H-LM")
    dec(m, "move", "done")
    assert pend(m) == ("decision", "pressing", "away")
    return m


# ---------------------------------------------------------------- 5.4 cards
def test_5_4_yellow_and_red_cards_example() -> None:
    # "His team has already two yellow cards and this card will be third yellow card. He rolls a
    # die for a red card and got 2 ... Two of the yellow cards are changed for a red card. Otto
    # continues game with one yellow card and one red card."
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-LM": 3, "A-FRONT": 7}, "A-PEN")
    team_state(m, "away").yellows = 2
    scene(m, "CENTRE", 3)
    _to_turn_dice(m, "A-LM")
    roll(m, "turn_dice", 3, 5)
    roll(m, "special_event", 2, 3)  # -1: the passive team rolls for a yellow card
    roll(m, "yellow_card", 5)
    roll(m, "red_card", 2)
    otto = team_state(m, "away")
    assert otto.yellows == 1 and otto.reds == ["second_yellow"]
    dec(m, "sent_off_player", "A-FRONT")
    assert otto.outfield() == 9

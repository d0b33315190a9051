"""The FUBA 2 flow's set pieces (5.1, 5.3.1, 5.5), the end of a half (4.3.1, 4.3.2), extra time
(I2-18) and the advanced rules A1-A6, each test quoting rulebook 2.0."""

from __future__ import annotations

import pytest

from rules_engine import board as B
from rules_engine.api import Decision, IllegalEventError
from tests.engine.fuba2.scene import header2, scene, start2
from tests.engine.helpers import controlling, dec, pend, put_exact, roll, team_state


def _play_until(m, *names: str) -> None:
    """Answer with "done" or the first option, and roll 1s, until one of `names` is asked."""
    while pend(m)[1] not in names:
        p = m.pending()
        if p.kind == "roll":
            roll(m, p.name, *([1] * p.dice))
        else:
            m.apply(Decision(p.name, p.actor, "done" if "done" in p.options else p.options[0]))


def _free_kick_scene(adv: tuple[str, ...] = ()):
    """Turn 1: the ball in the centre at 3, the target A-FRONT; the controlling team's die equals
    the ball value: a special event."""
    m = start2(header2(adv))
    put_exact(m, "home", {"CENTRE": 4, "A-FRONT": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "A-PEN": 3, "A-LM": 4}, "A-PEN")
    scene(m, "CENTRE", 3)
    dec(m, "target_area", "A-FRONT")
    roll(m, "turn_dice", 3, 5)
    return m


def _set_up_free_kick(m) -> None:
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-FRONT": 3, "CENTRE": 4, "H-LM": 3}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-PEN": 4, "A-FRONT": 2, "A-LM": 4}})
    dec(m, "setup_adjust", "done")


# ------------------------------------------------------------------------- 5.1 free kick
def test_5_1_free_kick_goal_attempt_continues_the_turn_from_stage_6() -> None:
    # "The controlling team can choose to continue the turn from stage 6 if they decide to make a
    # goal attempt, in which case that team takes first action stage"; the table: "-1 Goal
    # attempt from a free kick"
    m = _free_kick_scene()
    roll(m, "special_event", 1, 2)  # -1: free kick for the controlling team
    roll(m, "yellow_card", 1)
    _set_up_free_kick(m)
    # 5.1.1: "The passive team must set up at least one player in an area that is closer to their
    # own goal line than the area from which the free kick will be taken"
    assert m.st.value == 1 and m.st.ball == B.INDEX["A-FRONT"]
    dec(m, "free_kick_attempt", "yes")
    assert pend(m) == ("roll", "goal_attempt", "home") and m.st.stage == 6 and m.st.turn == 1
    roll(m, "goal_attempt", 4)  # -2 area, +1 shooting area, -1 penalty area, -1 free kick: 4-3 = 1, not > 1
    assert pend(m)[0] in ("decision",)


def test_5_1_without_a_goal_attempt_a_new_turn_starts_and_the_opponent_acts_first() -> None:
    # "If the team decides not to attempt this, a new turn starts, and the opponent takes the
    # first action stage"; the start area is a target only "if there are at least two players"
    m = _free_kick_scene()
    roll(m, "special_event", 1, 2)
    roll(m, "yellow_card", 2)
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-FRONT": 1, "CENTRE": 5, "H-LM": 4}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-PEN": 4, "A-FRONT": 2, "A-LM": 4}})
    dec(m, "setup_adjust", "done")
    dec(m, "free_kick_attempt", "no")
    assert pend(m) == ("decision", "target_area", "home") and m.st.turn == 2
    assert "A-FRONT" not in m.pending().options  # one player only in the free kick's area
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 5, 2)
    assert pend(m)[2] == "away"


def test_5_1_a_free_kick_in_the_penalty_area_is_a_penalty_kick() -> None:
    # "If the target area was the passive team's penalty area a penalty kick is awarded instead"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "A-PEN": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "A-PEN": 3, "A-LM": 4}, "A-PEN")
    scene(m, "A-FRONT", 3)
    dec(m, "target_area", "A-PEN")
    roll(m, "turn_dice", 3, 5)
    roll(m, "special_event", 1, 2)
    roll(m, "yellow_card", 1)
    # 5.5.1: "sets up the ball and one player on the penalty spot ... No other players"
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("setup", "home", {"gk": "H-PEN", "players": {"A-PEN": 2, "CENTRE": 8}}))
    assert e.value.rule == "5.5.1"
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-PEN": 1, "A-FRONT": 5, "CENTRE": 4}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-FRONT": 6, "A-LM": 4}})
    dec(m, "setup_adjust", "done")
    # 5.5.2: the keeper's dive first, then the kick; the I2-11 table
    dec(m, "penalty_keeper", "left")
    dec(m, "penalty_shot", "right")
    roll(m, "penalty", 2)
    assert m.st.score() == [1, 0]


def test_5_5_2_a_missed_penalty_is_a_goal_kick() -> None:
    # "If the penalty kick fails, a new turn begins and the game continues with a goal kick"
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "A-PEN": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "A-PEN": 3, "A-LM": 4}, "A-PEN")
    scene(m, "A-FRONT", 3)
    dec(m, "target_area", "A-PEN")
    roll(m, "turn_dice", 3, 5)
    roll(m, "special_event", 1, 2)
    roll(m, "yellow_card", 1)
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-PEN": 1, "A-FRONT": 5, "CENTRE": 4}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-FRONT": 6, "A-LM": 4}})
    dec(m, "setup_adjust", "done")
    dec(m, "penalty_keeper", "left")
    dec(m, "penalty_shot", "left")
    roll(m, "penalty", 5)  # 6 needed: the keeper dived where the ball went
    assert m.st.score() == [0, 0] and controlling(m) == "away" and m.st.ball == B.INDEX["A-PEN"]
    # 5.3.1: the next turn may start with a slow goal kick
    assert pend(m) == ("decision", "slow_goal_kick", "away") and m.st.turn == 2


def test_5_3_1_slow_goal_kick_is_an_extra_movement_stage_for_both_teams() -> None:
    # "one extra player movement stage is carried out for both teams at the beginning of the turn.
    # The controlling team moves first."
    m = start2()
    put_exact(m, "home", {"CENTRE": 4, "A-PEN": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "A-PEN": 3, "A-LM": 4}, "A-PEN")
    scene(m, "A-FRONT", 3)
    dec(m, "target_area", "A-PEN")
    roll(m, "turn_dice", 3, 5)
    roll(m, "special_event", 1, 2)
    roll(m, "yellow_card", 1)
    dec(m, "setup", {"gk": "H-PEN", "players": {"A-PEN": 1, "A-FRONT": 5, "CENTRE": 4}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"A-FRONT": 6, "A-LM": 4}})
    dec(m, "setup_adjust", "done")
    dec(m, "penalty_keeper", "left")
    dec(m, "penalty_shot", "left")
    roll(m, "penalty", 5)
    dec(m, "slow_goal_kick", "yes")
    dec(m, "movement_option", "midfield")
    dec(m, "move", "A-LM>A-FRONT")
    dec(m, "move", "done")
    assert pend(m) == ("decision", "movement_option", "home")
    dec(m, "movement_option", "defence")
    dec(m, "move", "A-FRONT>CENTRE")
    dec(m, "move", "A-FRONT>CENTRE")
    dec(m, "move", "done")
    _play_until(m, "target_area")
    assert pend(m) == ("decision", "target_area", "away")
    # 5.3: "The passive team's players ... cannot try to press the ball control off before the
    # goal kick is taken" and "The controlling team cannot move the ball with a player"
    assert m.extra.before_goal_kick


# ---------------------------------------------------------------------- 4.3.1 stoppage time
def test_4_3_1_the_marker_stops_on_the_first_stoppage_square_then_a_small_difference_ends_the_half() -> None:
    # "If the time marker reaches the first stoppage time square, it stops there"; "If the dice
    # difference between initial values is smaller than the current stoppage time ... the half
    # ends immediately. The rest of the stages are not played."
    m = start2()
    m.extra.minute = 44
    m.st.clock = 44
    scene(m, "CENTRE", 2)
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 6, 2)
    assert m.st.minute_label() == "45+1"
    _play_until(m, "target_area")
    dec(m, "target_area", B.NAMES[m.st.ball])
    roll(m, "turn_dice", 3, 3)  # 0 < 1
    # 4.3.2: half time (2.1.1 formation changes), then the other team kicks off from square 46
    assert pend(m) == ("decision", "half_time_formation", "away")
    dec(m, "half_time_formation", "defence>forward")
    dec(m, "half_time_formation", "none")
    assert team_state(m, "away").formation == [3, 4, 3]
    assert pend(m) == ("decision", "setup", "away") and m.st.minute_label() == "46"


def test_4_3_1_the_plus_five_square_ends_the_half_at_the_end_of_the_turn_and_extra_time_follows() -> None:
    # "When the time marker reaches the +5 square the half is finished at the end of turn"; I2-18
    m = start2({**header2(), "extra_time": True})
    for half_end in (45, 90):
        m.extra.minute = half_end
        m.st.clock = 45
        m.st.stoppage = 4
        scene(m, B.NAMES[m.st.ball], 2)
        dec(m, "target_area", B.NAMES[m.st.ball])
        roll(m, "turn_dice", 6, 2)
        assert m.st.minute_label() == f"{half_end}+5"
        _play_until(m, "extra_time", "half_time_formation", "target_area")
        assert m.pending().name != "target_area"
        if half_end == 45:
            _play_until(m, "target_area")
    assert pend(m) == ("decision", "extra_time", "home")
    dec(m, "extra_time", "yes")
    dec(m, "half_time_formation", "none")
    dec(m, "half_time_formation", "none")
    assert m.st.minute_label() == "91" and m.st.half == 3


# ---------------------------------------------------------------------- A1 condition points
def test_a1_a2_condition_points_example() -> None:
    # "Heidi has the 4-4-2 formation and thus her team has four defence condition points, four
    # midfield condition points and two forward condition points. Otto's 4-5-1 ... as he
    # specified three attacking midfielders ... four defence condition points, two midfield
    # condition points and four forward condition points."
    hdr = header2(("A1", "A2"), away="4-5-1", away_extra={"roles": {"attacking_midfielders": 3}})
    m = start2(hdr)
    assert team_state(m, "home").cp == [4, 4, 2]
    assert team_state(m, "away").cp == [4, 2, 4]


def test_a1_2_tiredness_test_example() -> None:
    # "It is currently the 78th minute ... The team rolls a 5 ... not however enough to pass the
    # test ... the team rolls another die and this time the result is 3 ... 80 ... passes the
    # test, but one point is lost from its condition points for the zone where the target area"
    m = start2(header2(("A1",)))
    m.st.half = 2
    m.extra.minute = 73
    m.st.clock = 28
    scene(m, "CENTRE", 2)
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 6, 1)  # 5 minutes: "both teams must make a tiredness check"
    assert m.st.minute_label() == "78"
    roll(m, "tiredness", 5)
    roll(m, "tiredness", 3)
    assert team_state(m, "home").cp == [4, 3, 2]
    roll(
        m,
        "tiredness",
        6,
    )
    roll(m, "tiredness", 2)
    assert team_state(m, "away").cp == [4, 3, 2]


def test_a1_3_a_tired_team_moves_one_player_fewer_in_each_line() -> None:
    # "If a team with a 4-4-2 starting formation suffers tiredness, then the effective formation
    # in terms of the maximum number of players that could be moved would be reduced to 3-3-1."
    m = start2()
    team_state(m, "away").tired = True
    put_exact(m, "away", {"A-FRONT": 6, "CENTRE": 4}, "A-PEN")
    scene(m, "CENTRE", 3, restart="kick_off")
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 5, 2)
    dec(m, "movement_option", "forward")
    dec(m, "move", "CENTRE>H-FRONT")
    assert pend(m)[1] != "move"


def test_a1_1_a_condition_point_mixes_the_movement_types() -> None:
    # "When a condition point is used the team can mix the movement types used"; I2-8
    m = start2(header2(("A1",)))
    put_exact(m, "away", {"A-FRONT": 6, "CENTRE": 4}, "A-PEN")
    scene(m, "CENTRE", 3, restart="kick_off")
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 5, 2)
    dec(m, "use_cp", "yes")
    assert team_state(m, "away").cp == [4, 3, 2]  # the ball's zone: midfield
    roll(m, "condition_point", 3)
    dec(m, "move", "CENTRE>H-LM")  # midfield
    dec(m, "move", "CENTRE>H-FRONT")  # forward
    dec(m, "move", "A-FRONT>A-PEN")  # defence
    assert pend(m)[1] != "move"


# ---------------------------------------------------------------------- A3, A4, A5, A6
def test_a3_substitutions_at_the_end_of_the_action_stage() -> None:
    # "Substitutions are made at the end of the team's action stage ... Fresh player ... Roll two
    # dice and multiply the result by 10. If the result is higher than current game time, then
    # add one point"
    m = start2(header2(("A1", "A3")))
    scene(m, "CENTRE", 3, restart="kick_off")
    dec(m, "target_area", "CENTRE")
    roll(m, "turn_dice", 5, 2)
    dec(m, "movement_option", "midfield")
    dec(m, "move", "done")
    dec(m, "substitution", "fresh:forward")
    roll(m, "fresh_player", 1, 1)  # 20 > 3
    assert team_state(m, "away").cp == [4, 4, 3] and team_state(m, "away").subs_used == 1
    dec(m, "substitution", "formation:defence>forward")
    assert team_state(m, "away").formation == [3, 4, 3]
    dec(m, "substitution", "done")


def test_a4_injuries_of_row_0_and_the_return_to_the_centre() -> None:
    # row 0: "If the die scores were 6, both teams suffer an injury"; A4: "1: The player returns to
    # the game at the beginning of the next turn's movement stage ... in the area containing the
    # centre circle"
    m = start2(header2(("A4",)))
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-LM": 3, "A-FRONT": 7}, "A-PEN")
    scene(m, "CENTRE", 3)
    dec(m, "target_area", "A-LM")
    roll(m, "turn_dice", 3, 5)
    roll(m, "special_event", 6, 6)
    dec(m, "injured_player", "H-LM")
    roll(m, "injury", 1)
    dec(m, "injured_player", "A-FRONT")
    roll(m, "injury", 4)  # "4+: The player cannot return to game"
    assert team_state(m, "home").outfield() == 9 and team_state(m, "away").off_pieces == 1
    assert pend(m) == ("decision", "target_area", "home")
    dec(m, "target_area", "A-LM")
    roll(m, "turn_dice", 5, 2)
    assert team_state(m, "home").outfield() == 9
    _play_until(m, "movement_option", "use_cp")
    assert team_state(m, "home").outfield() == 10 and team_state(m, "home").field[B.CENTRE] >= 1


def test_a4_the_injured_player_returns_at_his_own_teams_movement_not_the_opponents() -> None:
    # A4: "1: The player returns to the game at the beginning of the next turn's movement stage";
    # the movement stage is a team's own (4.4.2 "the number of moves the team is allowed to make
    # at the player movement stage", 4.8.8 "once in the movement stage"), I2-22
    m = start2(header2(("A4",)))
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-LM": 3, "A-FRONT": 7}, "A-PEN")
    scene(m, "CENTRE", 3)
    dec(m, "target_area", "A-LM")
    roll(m, "turn_dice", 3, 5)
    roll(m, "special_event", 6, 6)
    dec(m, "injured_player", "H-LM")
    roll(m, "injury", 1)  # home's player: back next turn
    dec(m, "injured_player", "A-FRONT")
    roll(m, "injury", 4)
    # turn 2: away played first last turn and moved fewer players, so it acts first again (4.6)
    assert pend(m) == ("decision", "target_area", "home")
    scene(m, "CENTRE", 3, last_first="away", last_moved=(3, 0))
    dec(m, "target_area", "A-LM")
    roll(m, "turn_dice", 5, 2)
    assert pend(m) == ("decision", "movement_option", "away")
    home = team_state(m, "home")
    assert home.outfield() == 9 and home.field[B.CENTRE] == 4  # not back in the opponent's stage
    dec(m, "movement_option", "midfield")
    _play_until(m, "movement_option")
    assert pend(m) == ("decision", "movement_option", "home")
    assert home.outfield() == 10 and home.field[B.CENTRE] == 5  # back as his team starts moving


def test_a5_a_keeper_outside_its_goal_area_gives_the_shooter_two() -> None:
    # "If the goal keeper is outside of the goal keeper's area ... the opponent team will get +2
    # die roll modifier for goal attempts"
    m = start2(header2(("A5",)))
    put_exact(m, "home", {"A-FRONT": 3, "A-PEN": 1, "CENTRE": 6}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 1, "A-PEN": 3, "A-LM": 6}, "A-PEN")
    m.extra.gk_outside[1] = True
    scene(m, "A-FRONT", 2, last_first="home", last_moved=(1, 3))
    dec(m, "target_area", "A-FRONT")
    roll(m, "turn_dice", 5, 3)
    dec(m, "goal_attempt", "yes")
    roll(m, "goal_attempt", 4)  # -2 +1 and the counted keeper: 3 against 4 in the penalty area -1, +2
    assert m.st.score() == [1, 0]


def test_a6_aggressive_style_rolls_two_special_event_dice_and_keeps_the_highest() -> None:
    # "If the team's playing style in the target area zone is aggressive, then the team rolls two
    # dice and ignores the result of the lowest die"
    hdr = header2(("A6",), away_extra={"styles": {"defence": "aggressive"}})
    m = start2(hdr)
    put_exact(m, "home", {"CENTRE": 4, "A-FRONT": 2, "H-LM": 4}, "H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "A-PEN": 3, "A-LM": 4}, "A-PEN")
    scene(m, "CENTRE", 3)
    dec(m, "target_area", "A-FRONT")  # the away team's defence zone
    roll(m, "turn_dice", 3, 5)
    p = m.pending()
    assert p is not None and p.name == "special_event" and p.dice == 3
    roll(m, "special_event", 6, 1, 5)  # home 6, away keeps 5: +1, free kick for the passive team
    assert pend(m) == ("roll", "yellow_card", "home")

"""Rulebook 2.0, 4.6 the order of the action stages, 4.8 player movement."""

from rules_engine import board as B
from rules_engine.fuba2.movement import (
    ball_kept_problem,
    dribble_problem,
    first_action_team,
    free_move_problem,
    move_problem,
    moves_allowed,
    straight_path,
)
from rules_engine.fuba2.offside import side

I = B.INDEX  # noqa: E741
HOME, AWAY = B.HOME, B.AWAY


def test_first_action_stage_worked_example_4_6() -> None:
    # "Otto's blue team is a passive team. Otto moved fever number of players last turn, so he will play
    # first team action stage" (he played first last turn: it "will take again the first team action stage
    # if it moved fewer number of players ... Otherwise the opponent will take the first action stage")
    otto = AWAY
    assert first_action_team(otto, (3, 2), False, False, pt=otto) == otto
    assert first_action_team(otto, (2, 2), False, False, pt=otto) == HOME
    # "If a corner kick, kick off, a penalty kick or a free kick was given at the beginning of the turn,
    # then the passive team plays the first action stage." / "If a target area contains only passive
    # team's players (inc. goal keeper) at the beginning of the turn"
    assert first_action_team(HOME, (1, 4), True, False, pt=AWAY) == AWAY
    assert first_action_team(HOME, (1, 4), False, True, pt=AWAY) == AWAY


def test_moves_per_option_worked_example_4_8_and_a1_3() -> None:
    # "He uses the 4-4-2 formation ... he has four defenders"; "Otto could move four midfielders";
    # "he is allowed to move two players, because he has two forwards"; A1.3 tired: 3-3-1
    assert [moves_allowed((4, 4, 2), o, False) for o in ("defence", "midfield", "forward")] == [4, 4, 2]
    assert [moves_allowed((4, 4, 2), o, True) for o in ("defence", "midfield", "forward")] == [3, 3, 1]


def test_midfield_move_sideways_or_diagonal_4_8_1() -> None:
    # "Each of these players can be moved one area ... only move sideways or diagonally, not straight
    # forward towards the opposition goal line or straight backwards"
    own = side(HOME, {"CENTRE": 4, "H-FRONT": 6}, gk="H-PEN")
    opp = side(AWAY, {"A-FRONT": 10}, gk="A-PEN")
    assert move_problem(own, opp, "midfield", I["CENTRE"], I["A-LM"], False, I["CENTRE"]) is None
    assert move_problem(own, opp, "midfield", I["H-FRONT"], I["H-LC"], False, I["CENTRE"]) is None
    straight = move_problem(own, opp, "midfield", I["CENTRE"], I["A-FRONT"], False, I["CENTRE"])
    assert straight is not None and straight.startswith("4.8.1: a midfield move goes sideways")
    far = move_problem(own, opp, "midfield", I["H-FRONT"], I["A-LM"], False, I["CENTRE"])
    assert far is not None and far.startswith("4.8.1: a midfield move goes to an adjacent area")


def test_forward_move_stops_where_the_opponent_has_more_worked_example_4_8_2() -> None:
    # "When Otto moves the first player it must stop to the first area, because the opponent has more
    # players there before that movement. The second forward move can go through that area, because now
    # the teams has equal number of players in that area."
    assert straight_path(HOME, I["H-FRONT"], I["A-FRONT"]) == (I["CENTRE"], I["A-FRONT"])
    opp = side(AWAY, {"CENTRE": 1, "A-LM": 9}, gk="A-PEN")
    first = side(HOME, {"H-FRONT": 2, "H-LM": 8}, gk="H-PEN")
    problem = move_problem(first, opp, "forward", I["H-FRONT"], I["A-FRONT"], False, I["H-FRONT"])
    assert problem == "4.8.2: the move stops in CENTRE, where the opponent has more players"
    assert move_problem(first, opp, "forward", I["H-FRONT"], I["CENTRE"], False, I["H-FRONT"]) is None
    second = side(HOME, {"H-FRONT": 1, "CENTRE": 1, "H-LM": 8}, gk="H-PEN")
    assert move_problem(second, opp, "forward", I["H-FRONT"], I["A-FRONT"], False, I["H-FRONT"]) is None


def test_straight_only_and_goalkeeper_two_areas_4_8_2_to_4_8_4() -> None:
    # "A player can move only straight forward. No sideways or diagonal movement is allowed."; defence:
    # "only straight backwards"; 4.8.4 the goalkeeper "cannot move more than two areas"
    own = side(HOME, {"CENTRE": 10}, gk="H-PEN")
    opp = side(AWAY, {"A-LM": 10}, gk="A-PEN")
    side_step = move_problem(own, opp, "forward", I["CENTRE"], I["A-RM"], False, I["CENTRE"])
    assert side_step == "4.8.2: a forward move goes straight forward"
    assert move_problem(own, opp, "defence", I["CENTRE"], I["H-PEN"], False, I["CENTRE"]) is None
    back = move_problem(own, opp, "defence", I["CENTRE"], I["A-FRONT"], False, I["CENTRE"])
    assert back == "4.8.3: a defence move goes straight backwards"
    assert move_problem(own, opp, "forward", I["H-PEN"], I["CENTRE"], True, I["CENTRE"]) is None
    assert move_problem(own, opp, "forward", I["H-PEN"], I["A-FRONT"], True, I["CENTRE"]) == (
        "4.8.4: the goalkeeper moves at most two areas"
    )


def test_no_move_into_offside_except_straight_back_4_8_5() -> None:
    # "A player cannot be moved into an offside position ... This restriction does not apply if the
    # player is moved straight backward."
    own = side(HOME, {"A-LM": 1, "CENTRE": 9}, gk="H-PEN")
    opp = side(AWAY, {"A-LM": 2, "CENTRE": 8}, gk="A-PEN")  # second last in A-LM (rows 6-8)
    into = move_problem(own, opp, "forward", I["A-LM"], I["A-LC"], False, I["CENTRE"])
    assert into == "4.8.5: a player cannot be moved into an offside position"
    assert move_problem(own, opp, "midfield", I["CENTRE"], I["A-RM"], False, I["CENTRE"]) is None


def test_free_moves_dribble_and_the_ball_4_8_7_to_4_8_9() -> None:
    # 4.8.7 "can be moved straight forward/backward one area away from the goal line ... cannot however
    # move to an area where the ball is currently located"
    own = side(HOME, {"H-LC": 1, "CENTRE": 9}, gk="H-PEN")
    assert free_move_problem(own, I["H-LC"], I["H-LM"], I["CENTRE"]) is None
    into_ball = free_move_problem(own, I["H-LC"], I["H-LM"], I["H-LM"])
    assert into_ball == "4.8.7: a free move cannot go into the ball's area"
    assert free_move_problem(own, I["H-PEN"], I["H-FRONT"], I["CENTRE"]) is not None  # the keeper only
    # 4.8.8 "only if this movement starts from an area where there are no passive team players"; once
    opp = side(AWAY, {"CENTRE": 1, "A-LM": 9}, gk="A-PEN")
    assert dribble_problem(opp, I["H-LC"], I["H-LM"], False) is None
    assert dribble_problem(opp, I["CENTRE"], I["A-FRONT"], False) is not None
    assert dribble_problem(opp, I["H-LC"], I["H-LM"], True) is not None
    # 4.8.9 "at least one player in the same area as the ball after the team has finished its moves"
    assert ball_kept_problem(own, I["CENTRE"]) is None and ball_kept_problem(own, I["A-PEN"]) is not None


def test_closest_player_into_an_empty_target_area_4_4_2() -> None:
    # "it must move its closest player to the target area. The team which started the turn as a passive
    # team, but got the ball control, can choose to move their second closest player if the goalkeeper is
    # currently the closest player."
    from rules_engine.fuba2.movement import GOALKEEPER, closest_players

    s = side(HOME, {"CENTRE": 5, "A-LM": 5}, gk="H-PEN")
    assert closest_players(s, I["A-LC"], False) == (I["A-LM"],)
    back = side(HOME, {"CENTRE": 5, "A-LM": 5}, gk="H-FRONT")
    assert closest_players(back, I["H-PEN"], False) == (GOALKEEPER,)
    assert closest_players(back, I["H-PEN"], True) == (GOALKEEPER, I["CENTRE"])
    level = side(HOME, {"H-LM": 1, "H-RM": 1, "A-FRONT": 8}, gk="H-PEN")
    assert closest_players(level, I["H-FRONT"], False) == (I["H-LM"], I["H-RM"], GOALKEEPER)

"""Special events table (A13): every one of the 36 results."""

import pytest

from rules_engine import board as B
from rules_engine.special_events import ALL_EVENTS, event_name

from .helpers import dec, header, pend, put_exact, roll, skip_free_moves, start


def test_table_has_every_row_and_the_3_6_row_a13() -> None:
    assert event_name(1, 1) == event_name(1, 2) == "excellent_attack_move"
    assert event_name(3, 5) == "defenders_rude_foul"
    assert event_name(3, 6) == "attackers_rude_foul"  # printed as a second "3 5" row (I-11)
    assert event_name(6, 6) == "new_talent_ct"
    assert len(ALL_EVENTS) == 29  # 36 dice results, some share an event


def _event(ct_die: int, dt_die: int, adv=("A13",), target="A-LM", value=3, skills=()):  # type: ignore[no-untyped-def]
    m = start(header(adv=adv, home_skills=skills, away_skills=skills))
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 2, "H-FRONT": 4}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-LM": 2, "A-FRONT": 5}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = value
    dec(m, "target_area", target)
    roll(m, "situation", 4, 4)
    roll(m, "special_event", ct_die, dt_die)
    return m


@pytest.mark.parametrize("dt_die", [1, 2])
def test_excellent_attack_move(dt_die: int) -> None:
    m = _event(1, dt_die)
    assert pend(m) == ("decision", "special_event_move", "home")


def test_excellent_defence_move() -> None:
    m = _event(1, 3)
    assert pend(m) == ("decision", "special_event_move", "away")


def test_fast_situation_skips_action_stage() -> None:
    m = _event(1, 6)
    dec(m, "special_event_move", "CENTRE>A-FRONT")
    assert pend(m)[1] == "target_area" and m.st.turn == 2
    m = _event(1, 5)
    assert pend(m) == ("decision", "special_event_move", "away")
    dec(m, "special_event_move", "done")
    assert pend(m)[1] == "target_area"


def test_ball_bounces() -> None:
    m = _event(2, 1)  # +2 to the new ball value
    assert m.st.value == 6  # die 4 + 2
    m = _event(2, 3)
    assert m.st.value == 2  # die 4 - 2


def test_lost_momentum_and_failed_man_marking() -> None:
    m = _event(2, 5)
    assert 0 in m.st.flags.no_free_moves
    m = _event(2, 6)
    assert 1 in m.st.flags.no_free_moves


def test_defenders_and_attackers_fouls() -> None:
    m = _event(3, 1)
    assert pend(m) == ("roll", "yellow_test", "away")
    roll(m, "yellow_test", 1)
    assert m.st.ct == 0 and m.st.ball == B.A_LM
    m = _event(3, 4)
    assert pend(m) == ("roll", "yellow_test", "home")
    roll(m, "yellow_test", 1)
    assert m.st.ct == 1  # free kick for the defending team


def test_rude_fouls_yellow_red_test_and_injury() -> None:
    m = _event(3, 5, adv=("A13", "A4"))
    assert m.st.teams[1].yellows == 1
    assert pend(m) == ("roll", "red_test", "away")
    roll(m, "red_test", 1)  # 1 < 1 + 1: red
    assert m.st.teams[1].reds == ["direct"]
    dec(m, "sent_off_player", "A-FRONT")
    assert pend(m) == ("decision", "injured_player", "home")  # the fouled team rolls for an injury
    m = _event(3, 6, adv=("A13", "A4"))
    assert m.st.teams[0].yellows == 1 and pend(m) == ("roll", "red_test", "home")


def test_slow_play_adds_minute_and_recovers_condition() -> None:
    m = _event(4, 1, adv=("A13", "A1"))
    assert m.st.minute_label() == "5"
    m2 = start(header(adv=["A13", "A1"]))
    m2.st.teams[0].cp[1] -= 1
    dec(m2, "target_area", "CENTRE")
    roll(m2, "situation", 2, 2)
    roll(m2, "special_event", 4, 2)
    assert m2.st.teams[0].cp[1] == 4


def test_ball_over_touchline() -> None:
    m = _event(4, 3)  # A-LM touches the touchline: control check fails, value 2, new CT first
    assert m.st.ct == 1 and m.st.value == 2 and pend(m)[2] == "away"
    m = _event(4, 3, target="CENTRE")  # centre area does not touch it: no effect
    assert m.st.ct == 0


def test_ball_over_goal_line_only_from_goal_line_areas() -> None:
    m = _event(4, 4)
    assert pend(m)[1] != "corner_spot"


def _dribbles(m) -> list[str]:  # type: ignore[no-untyped-def]
    """The dribbles the controlling team is offered in a movement action (4.5.2)."""
    skip_free_moves(m)
    dec(m, "action", "movement")
    roll(m, "movement", 3, 3)
    p = m.pending()
    assert p is not None and p.name == "move", p
    return [o for o in p.options if o.endswith("+ball")]


def test_momentum_allows_dribbling_past_defenders() -> None:
    # Two away defenders stand in A-LM, the ball area: without momentum home cannot dribble out.
    assert _dribbles(_event(4, 4)) == []  # ball over the goal line: no effect from A-LM
    m = _event(4, 5)
    assert _dribbles(m) == ["A-LM>H-LM+ball", "A-LM>CENTRE+ball", "A-LM>A-FRONT+ball", "A-LM>A-LC+ball"]
    dec(m, "move", "A-LM>A-FRONT+ball")
    assert m.st.ball == B.A_FRONT and m.st.ct == 0
    assert m.st.teams[0].field[B.A_LM] == 1 and m.st.teams[0].field[B.A_FRONT] == 1


def test_aggressive_defence_free_pressing() -> None:
    m = _event(4, 6)
    assert pend(m) == ("roll", "pressing", "away")
    roll(m, "pressing", 1, 2)
    assert m.st.ct == 1


def test_head_collision() -> None:
    m = _event(5, 1, adv=("A13", "A4"))
    roll(m, "head_collision", 3, 3)  # tie: rolled again
    roll(m, "head_collision", 2, 4)
    assert pend(m)[1] == "injured_player"


def test_failed_opening_and_perfect_pass() -> None:
    m = _event(5, 2)
    assert m.st.ball == B.CENTRE and m.st.ct == 1
    m = _event(5, 3, value=6)
    assert m.st.ct == 0  # control regardless of the dice
    assert pend(m)[2] == "home"


def test_behind_the_referees_back() -> None:
    m = _event(5, 4, adv=("A13", "A4"))
    assert pend(m) == ("decision", "injured_player", "home")


def test_streaker() -> None:
    m = _event(5, 5)
    roll(m, "streaker", 3)
    assert m.st.minute_label() == str(4 + 3 + 1)


def test_out_of_position_goalkeeper() -> None:
    m = _event(5, 6)
    assert m.st.flags.attempt_bonus == [2, 2]


def test_terrace_chants() -> None:
    m = _event(6, 1, adv=("A13", "A1"))
    assert m.st.flags.free_cp == 1 and pend(m)[2] == "away"
    m = _event(6, 2, adv=("A13", "A1"))
    assert m.st.flags.free_cp == 0 and pend(m)[2] == "home"


def test_injured_star_player_and_new_talent() -> None:
    m = _event(6, 3, adv=("A13", "A11"), skills=("runner", "tackler"))
    assert pend(m) == ("roll", "injured_star_player", "away")
    assert m.pending().sides == 2  # type: ignore[union-attr]
    roll(m, "injured_star_player", 2)
    assert m.st.teams[1].skills == ["runner"] and m.st.teams[1].skills_lost == ["tackler"]
    m = _event(6, 6, adv=("A13", "A11"), skills=("runner", "tackler"))
    p = m.pending()
    assert p is not None and p.name == "new_talent" and p.sides == 36
    roll(m, "new_talent", 1)
    assert m.st.teams[0].skills_gained == ["advancing_goalkeeper"]

"""Stage 1 (4.1): target area and ball value modification; offside (5.1) and
offside risk (A7); goalkeeper charge (A5)."""

import pytest

from rules_engine.api import Decision, IllegalEventError

from .helpers import ball, dec, header, pend, put, put_exact, start


def test_example_choosing_target_area_4_1_1() -> None:
    m = start()
    put_exact(m, "home", {"CENTRE": 10}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 10}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    p = m.pending()
    assert p is not None
    opts = set(p.options)
    assert "CENTRE" in opts  # A: has a player there
    assert "A-LM" in opts  # B: adjacent to an area with a player
    assert "A-LC" not in opts  # C: no player there or next to it
    with pytest.raises(IllegalEventError, match="no player there or in an adjacent area"):
        m.apply(Decision("target_area", "home", "A-LC"))


def test_example_long_pass_4_1_2_2() -> None:
    # "play the ball into the opponent's penalty area. There are two areas between ...
    #  Thus the ball value is adjusted from 4 to 6."
    m = start()
    put(m, "home", {"H-LM": 2, "A-PEN": 1}, gk="H-PEN")
    put(m, "away", {"H-LM": 1, "A-LC": 1}, gk="A-PEN")
    ball(m, "H-LM", 4)
    dec(m, "target_area", "A-PEN")
    assert m.st.value == 6


def test_ball_value_over_six_is_illegal_4_1_2() -> None:
    m = start()
    put(m, "home", {"H-LM": 2, "A-PEN": 1}, gk="H-PEN")
    put(m, "away", {"H-LM": 1, "A-LC": 1}, gk="A-PEN")
    ball(m, "H-LM", 5)
    with pytest.raises(IllegalEventError, match=r"ball value would be 7 \(over 6\)") as e:
        m.apply(Decision("target_area", "home", "A-PEN"))
    assert e.value.rule == "4.1.2" and e.value.stage == 1


def test_no_defender_in_start_area_and_target_situation() -> None:
    m = start()
    put(m, "home", {"CENTRE": 2, "A-LM": 2}, gk="H-PEN")
    put(m, "away", {"A-LM": 1}, gk="A-PEN")
    ball(m, "CENTRE", 4)
    dec(m, "target_area", "A-LM")  # -1 empty start area (4.1.2.1), -1 more players (4.1.2.3)
    assert m.st.value == 2


def test_example_offside_5_1_and_message() -> None:
    m = start()
    put(m, "home", {"CENTRE": 3, "A-PEN": 1, "A-LC": 1}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "CENTRE": 7}, gk="A-PEN")
    ball(m, "CENTRE", 2)
    p = m.pending()
    assert p is not None and "A-LC" in p.options  # A: partly at the level of the second-lowest player
    assert "A-PEN" not in p.options  # B: offside
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("target_area", "home", "A-PEN"))
    assert str(e.value).startswith(
        "turn 1, stage 1: target area A-PEN is illegal: your player there is offside (5.1); "
        "the defending team's second-last player is in A-FRONT"
    )
    assert e.value.rule == "4.1.1.1"


def test_offside_not_when_passing_backwards_or_from_goal_kick() -> None:
    m = start()
    put(m, "home", {"A-PEN": 2, "A-FRONT": 1}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 3, "CENTRE": 7}, gk="A-PEN")
    ball(m, "A-FRONT", 2)
    p = m.pending()
    assert p is not None and "A-PEN" not in p.options
    m.st.flags.restart = "goal_kick"  # 5.1 "does not apply when a goal kick ... is taken"
    assert "A-PEN" in m.pending().options  # type: ignore[union-attr]


def test_example_offside_risk_a7() -> None:
    # "First the ball value is adjusted down one due to there being no opponent players in the
    #  target area. ... four players in the defence line, but only three ... the new ball value is four"
    m = start(header(adv=["A7"], away="3-5-2"))
    put(m, "home", {"CENTRE": 2, "A-FRONT": 1}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 4, "H-LM": 3, "H-RM": 3}, gk="A-PEN")
    ball(m, "CENTRE", 2)
    dec(m, "target_area", "A-FRONT")
    assert m.st.value == 4
    assert m.st.flags.offside_risk


def test_offside_risk_not_when_second_lowest_in_side_area_a7() -> None:
    m = start(header(adv=["A7"], away="3-5-2"))
    put(m, "home", {"CENTRE": 2, "A-LC": 1}, gk="H-PEN")
    put_exact(m, "away", {"A-LM": 4, "CENTRE": 6}, gk="A-PEN")
    ball(m, "CENTRE", 3)
    dec(m, "target_area", "A-LC")  # +1 long pass, -1 more players; no offside risk:
    assert m.st.value == 3  # "second lowest player is in a side area"


def test_example_goalkeeper_charge_a5() -> None:
    # "Santeri plays the ball to Otto's penalty area ... Otto chooses to make a goalkeeper's
    #  charge. The ball value is increased one step."
    m = start(header(adv=["A5"]), ct="away")
    put(m, "away", {"H-FRONT": 2, "H-PEN": 1}, gk="A-PEN")
    put(m, "home", {"H-FRONT": 1, "H-LC": 1}, gk="H-PEN")
    ball(m, "H-FRONT", 3)
    dec(m, "target_area", "H-PEN")
    before = m.st.value
    assert pend(m) == ("decision", "goalkeeper_charge", "home")
    dec(m, "goalkeeper_charge", "yes")
    assert m.st.value == before + 1
    assert m.st.flags.attempt_bonus[1] == 1  # +1 for the opponent's goal attempts this turn


def test_goalkeeper_cannot_charge_when_ball_played_from_same_penalty_area_a5() -> None:
    m = start(header(adv=["A5"]), ct="away")
    put(m, "away", {"H-PEN": 2}, gk="A-PEN")
    put(m, "home", {"H-PEN": 1}, gk="H-PEN")
    ball(m, "H-PEN", 3)
    dec(m, "target_area", "H-PEN")
    assert pend(m) == ("roll", "situation", "away")


def test_free_kick_start_area_needs_two_players_5_2_2() -> None:
    m = start()
    put(m, "home", {"A-LM": 1, "CENTRE": 2}, gk="H-PEN")
    put(m, "away", {"A-LM": 1}, gk="A-PEN")
    ball(m, "A-LM", 2)
    m.st.flags.restart = "free_kick"
    with pytest.raises(IllegalEventError, match="two of your players"):
        m.apply(Decision("target_area", "home", "A-LM"))

"""Advanced rules A1-A10: condition points, roles, substitutions, injuries,
slowing play, weather, V.A.R. (rulebook 3)."""

import pytest

from rules_engine import board as B
from rules_engine.api import HeaderError, Match, new_match

from .helpers import dec, header, pend, put_exact, roll, skip_free_moves, start, to_action


def test_example_condition_points_a1_a2() -> None:
    # "Santeri has the 4-4-2 formation and thus ... four defence, four midfield and two forward
    #  condition points. Otto's 4-5-1 ... three attacking midfielders ... four defence, two
    #  midfield and four forward condition points."
    m = new_match(
        header(adv=["A1", "A2"], home="4-5-1", away="4-4-2", home_roles={"attacking_midfielders": 3})
    )
    assert m.st.teams[1].cp == [4, 4, 2]
    assert m.st.teams[0].cp == [4, 2, 4]


def test_roles_need_a2_and_must_fit_formation() -> None:
    with pytest.raises(HeaderError, match="A2"):
        new_match(header(adv=["A1"], home_roles={"attacking_midfielders": 1}))
    with pytest.raises(HeaderError, match="more attacking/defending midfielders"):
        new_match(header(adv=["A2"], home="5-2-3", home_roles={"attacking_midfielders": 3}))


def test_other_roles_a2() -> None:
    m = new_match(
        header(
            adv=["A2"],
            home="4-4-2",
            home_roles={
                "attacking_centre_back": 1,
                "withdrawn_striker": 1,
                "offensive_wing_backs": 2,
                "defending_midfielders": 1,
            },
        )
    )
    # defence 4 -1 (ACB) -2 (OWB) +1 (DM) = 2; midfield 4 +1 (ACB) +1 (WS) -1 (DM) = 5; forward 2 -1 +2 = 3
    assert m.st.teams[0].cp == [2, 5, 3]


def test_tiredness_test_a1() -> None:
    m = start(header(adv=["A1"]))
    m.st.clock = 30
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 1)  # 5 minutes: tiredness tests, controlling team first
    assert m.st.minute() == 35
    assert pend(m) == ("roll", "tiredness", "home")
    roll(m, "tiredness", 1, 2)  # 30 < 35: one point lost from the ball zone (midfield)
    assert m.st.teams[0].cp == [4, 3, 2]
    roll(m, "tiredness", 2, 2)  # 40 >= 35: passed
    assert m.st.teams[1].cp == [4, 4, 2]


def test_no_tiredness_when_stoppage_starts_first_a1() -> None:
    m = start(header(adv=["A1"]))
    m.st.clock = 43
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 1)
    assert m.st.minute_label() == "45+1" and pend(m)[1] != "tiredness"


def test_team_without_points_becomes_tired_a1() -> None:
    m = start(header(adv=["A1"]))
    m.st.clock = 30
    m.st.teams[0].cp = [0, 1, 0]
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 6, 1)
    roll(m, "tiredness", 1, 1)
    assert m.st.teams[0].tired and m.st.teams[0].cp == [0, 0, 0]


def test_substitutions_at_end_of_turn_in_midfield_a3() -> None:
    m = start(header(adv=["A3"]))
    put_exact(m, "home", {"CENTRE": 3, "H-FRONT": 7}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-FRONT": 7}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    m.st.teams[0].yellows = 1
    to_action(m, "home")
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 6)
    skip_free_moves(m)
    dec(m, "action", "positioning")
    roll(m, "positioning", 6, 6)
    dec(m, "second_actions", "no")
    assert pend(m) == ("decision", "substitutions", "home")
    dec(m, "substitutions", 2)
    p = m.pending()
    assert p is not None and "yellow" in p.options and "fresh:midfield" in p.options
    dec(m, "substitution", "yellow")
    dec(m, "substitution", "fresh:forward")
    roll(m, "fresh_player", 1, 1)  # 20 > current minute (5)? no: 20 > 5 -> one point
    assert m.st.teams[0].yellows == 0 and m.st.teams[0].subs_used == 2
    assert pend(m) == ("decision", "substitutions", "away")  # the controlling team made some
    dec(m, "substitutions", 0)
    assert pend(m)[1] == "target_area"


def test_condition_point_caps_a3() -> None:
    from rules_engine.condition import add_cp

    m = new_match(header(adv=["A1", "A3"], home="3-6-1"))
    ts = m.st.teams[0]
    assert add_cp(ts, 1, 2) == 0  # six in a zone at most
    assert add_cp(ts, 0, 2) == 0  # ten in total at most


def test_injury_temporary_return_a4() -> None:
    m = start(header(adv=["A13", "A4"]))
    put_exact(m, "home", {"CENTRE": 4, "H-FRONT": 6}, gk="H-PEN")
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 2, 2)
    roll(m, "special_event", 5, 4)  # behind the referee's back: controlling team rolls for an injury
    dec(m, "injured_player", "CENTRE")
    roll(m, "injury", 3)
    assert m.st.teams[0].outfield() == 9 and m.st.teams[0].injured_out == [(2 + 3, 1)]
    inj = m.st.teams[0].injuries[0]
    assert inj["out_minutes"] == 3 and inj["permanent"] is False


def _home_hurt_with_keeper_in(gk: str) -> Match:
    """Home (in control, ball in CENTRE) suffers an injury: "behind the referee's back" (A13)."""
    m = start(header(adv=["A13", "A4"]))
    put_exact(m, "home", {"CENTRE": 4, "H-LC": 3, "H-RC": 3}, gk=gk)
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 2, 2)
    roll(m, "special_event", 5, 4)
    return m


def test_injured_goalkeeper_another_player_goes_and_attempts_get_plus_one_a4() -> None:
    # A4: "If a goalkeeper is injured, another player piece is removed instead of the
    # goalkeeper, but the opponent gets a +1 die roll modifier for all upcoming goal attempts."
    from rules_engine.rules import goal_attempt_modifier

    m = _home_hurt_with_keeper_in("H-FRONT")  # next to the ball
    p = m.pending()
    assert p is not None and p.name == "injured_player" and "GK" in p.options and "CENTRE" in p.options
    before = goal_attempt_modifier(m.st, 1, B.H_PEN, False)
    dec(m, "injured_player", "GK")
    p = m.pending()  # the players closest to the keeper: CENTRE, H-LC and H-RC are all next to H-FRONT
    assert p is not None and p.name == "injured_player_instead"
    assert set(p.options) == {"CENTRE", "H-LC", "H-RC"}
    dec(m, "injured_player_instead", "H-LC")
    roll(m, "injury", 5)
    ts = m.st.teams[0]
    assert ts.gk == B.H_FRONT and ts.field[B.H_LC] == 2 and ts.outfield() == 9
    assert ts.injuries[0]["goalkeeper"] is True and ts.injuries[0]["permanent"] is True
    # H-PEN holds no player of either team: only the injury changed the away team's modifier
    assert goal_attempt_modifier(m.st, 1, B.H_PEN, False) == before + 1


def test_a_log_that_leaves_out_the_keeper_question_still_replays_a4() -> None:
    # Before the keeper could be named (I-28), a single outfield choice was not asked:
    # such logs go on to the injury roll, and the engine takes that player.
    m = _home_hurt_with_keeper_in("H-FRONT")
    p = m.pending()
    assert p is not None and p.options == ("CENTRE", "GK") and p.default == "CENTRE"
    roll(m, "injury", 2)
    ts = m.st.teams[0]
    assert ts.field[B.CENTRE] == 3 and ts.attempt_bonus_for_opponent == 0
    assert m.events[-2].name == "injured_player" and m.events[-2].choice == "CENTRE"


def test_goalkeeper_away_from_the_ball_cannot_be_named_injured_a4() -> None:
    m = _home_hurt_with_keeper_in("H-PEN")
    # the only outfield players near the ball are in CENTRE: no question, and no keeper option
    assert m.pending() is not None and m.pending().name == "injury"  # type: ignore[union-attr]
    assert m.st.teams[0].field[B.CENTRE] == 3


def test_injury_permanent_with_substitution_a4() -> None:
    m = start(header(adv=["A13", "A4", "A3"]))
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 2, 2)
    roll(m, "special_event", 5, 4)
    if pend(m)[1] == "injured_player":
        dec(m, "injured_player", m.pending().options[0])  # type: ignore[union-attr]
    roll(m, "injury", 6)
    dec(m, "injury_substitution", "yes")
    assert m.st.teams[0].outfield() == 10 and m.st.teams[0].subs_used == 1


def test_cold_weather_injury_modifier_a9() -> None:
    m = start(header(adv=["A13", "A4", "A9"]))
    m.st.weather = "cold"
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 2, 2)
    roll(m, "special_event", 5, 4)
    if pend(m)[1] == "injured_player":
        dec(m, "injured_player", m.pending().options[0])  # type: ignore[union-attr]
    roll(m, "injury", 4)  # 4 + 1: cannot return
    assert m.st.teams[0].injuries[0]["permanent"] is True


def test_slow_play_a8() -> None:
    m = start(header(adv=["A13", "A8"]))
    m.st.clock = 40
    dec(m, "target_area", "A-LM")
    roll(m, "situation", 2, 2)
    roll(m, "special_event", 3, 1)  # defender's foul: free kick for home
    roll(m, "yellow_test", 1)
    assert m.st.minute_label() == "43"  # +1 at the beginning of the free kick
    assert pend(m) == ("decision", "slow_play", "home")
    dec(m, "slow_play", "yes")
    assert m.st.minute_label() == "44"
    roll(m, "slow_play", 1, 2)  # 30 < 44: yellow card and a red card test
    assert m.st.teams[0].yellows == 1
    assert pend(m) == ("roll", "red_test", "home")


def test_weather_change_second_half_a9() -> None:
    m = start(header(adv=["A9"]))
    m.st.weather = "rain"
    m.st.clock, m.st.stoppage = 45, 5
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 1, 1)  # ends the half
    assert pend(m) == ("roll", "weather_change", "away")
    roll(m, "weather_change", 6)
    assert m.st.weather == "storm"


def test_rain_raises_new_ball_value_a9() -> None:
    m = start(header(adv=["A9"]))
    m.st.weather = "rain"
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 3, 4)
    assert m.st.value == 4  # lower die 3 (same area, player there) + 1


def test_windy_long_pass_a9() -> None:
    m = start(header(adv=["A9"]))
    put_exact(m, "home", {"H-LM": 2, "A-LC": 1, "H-FRONT": 7}, gk="H-PEN")
    put_exact(m, "away", {"H-LM": 1, "A-LC": 1, "A-FRONT": 8}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.H_LM
    m.st.value = 2
    m.st.weather = "windy"
    dec(m, "target_area", "A-LC")  # one area between: +2 instead of +1
    assert m.st.value == 4


def test_sunshine_blocks_goalkeeper_charge_first_half_a9() -> None:
    m = start(header(adv=["A5", "A9"]), ct="away")
    m.st.weather = "sunshine"
    m.st.first_half_starter = 0  # home started as the controlling team: home suffers sunshine
    put_exact(m, "away", {"H-FRONT": 4, "CENTRE": 6}, gk="A-PEN")
    put_exact(m, "home", {"H-FRONT": 3, "H-LC": 7}, gk="H-PEN")
    m.st.ball = m.st.flags.start = B.H_FRONT
    m.st.value = 3
    dec(m, "target_area", "H-PEN")
    assert pend(m)[1] == "situation"


def test_var_denies_goal_a10() -> None:
    m = start(header(adv=["A10"]))
    put_exact(m, "home", {"A-PEN": 2, "CENTRE": 8}, gk="H-PEN")
    put_exact(m, "away", {"A-FRONT": 10}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.A_PEN
    m.st.value = 3
    to_action(m, "home")
    m.st.value = 2
    dec(m, "action", "goal_attempt")
    roll(m, "goal_attempt", 6)
    assert pend(m) == ("roll", "var", "home")
    roll(m, "var", 6, 6)
    assert m.st.score() == [0, 0] and m.st.ct == 1  # free kick to the other team


def test_half_time_formation_change_2_2() -> None:
    m = start()
    m.st.clock, m.st.stoppage = 45, 5
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 1, 1)
    dec(m, "half_time_formation", "defence>forward")
    assert m.st.teams[1].formation == [3, 4, 3]  # away starts the second half as controlling team
    dec(m, "half_time_formation", "none")
    assert pend(m) == ("decision", "setup", "away")

"""Match preparation (3.2, 3.3, 3.3.1) and the set-up example of chapter 3."""

import pytest

from rules_engine.api import Decision, IllegalEventError, new_match

from .helpers import dec, header, pend, roll


def test_example_match_preparations_3_3() -> None:
    # "Santeri gets a 5 and Otto 3 ... He chooses to start as a controlling team"
    m = new_match(header())
    roll(m, "kick_off", 3, 5)  # home = Otto 3, away = Santeri 5
    assert pend(m) == ("decision", "kick_off_team", "away")
    dec(m, "kick_off_team", "away")
    # "four players into the middle area ... two players into each of the side areas adjacent
    #  to the middle area and the last two players into the area in front of his penalty area"
    santeri = {"gk": "A-PEN", "players": {"CENTRE": 4, "A-LM": 2, "A-RM": 2, "A-FRONT": 2}}
    dec(m, "setup", santeri)
    otto = {"gk": "H-PEN", "players": {"H-FRONT": 4, "H-LM": 3, "H-RM": 3}}
    dec(m, "setup", otto)
    # "he chooses to move two players from the centre to strengthen the left side"
    dec(m, "setup_adjust", "CENTRE>A-LM")
    dec(m, "setup_adjust", "CENTRE>A-LM")
    assert pend(m) == ("decision", "target_area", "away")
    assert m.st.teams[1].field[7] == 4 and m.st.teams[1].field[6] == 2
    assert m.st.value == 2  # 3.3.1 "2 as the initial ball value"


def test_kick_off_setup_needs_two_in_centre_and_own_half() -> None:
    m = new_match(header())
    roll(m, "kick_off", 6, 1)
    dec(m, "kick_off_team", "home")
    p = m.pending()
    assert p is not None
    with pytest.raises(IllegalEventError, match=r"two players in the centre area \(3.3.1\)"):
        m.apply(Decision("setup", "home", {"gk": "H-PEN", "players": {"H-FRONT": 9, "CENTRE": 1}}))
    with pytest.raises(IllegalEventError, match="not at least partly in your own half"):
        m.apply(Decision("setup", "home", {"gk": "H-PEN", "players": {"A-FRONT": 8, "CENTRE": 2}}))
    with pytest.raises(IllegalEventError, match="places 9 outfield players"):
        m.apply(Decision("setup", "home", {"gk": "H-PEN", "players": {"H-FRONT": 7, "CENTRE": 2}}))
    with pytest.raises(IllegalEventError, match="goalkeeper"):
        m.apply(Decision("setup", "home", {"gk": "H-FRONT", "players": {"H-FRONT": 8, "CENTRE": 2}}))
    assert all(isinstance(o, dict) for o in p.options)


def test_setup_adjust_only_two_players_one_area() -> None:
    m = new_match(header())
    roll(m, "kick_off", 6, 1)
    dec(m, "kick_off_team", "home")
    dec(m, "setup", {"gk": "H-PEN", "players": {"CENTRE": 4, "H-FRONT": 6}})
    dec(m, "setup", {"gk": "A-PEN", "players": {"CENTRE": 4, "A-FRONT": 6}})
    with pytest.raises(IllegalEventError, match="not adjacent"):
        m.apply(Decision("setup_adjust", "home", "H-FRONT>H-LCK"))
    with pytest.raises(IllegalEventError, match="own half"):
        m.apply(Decision("setup_adjust", "home", "CENTRE>A-FRONT"))
    dec(m, "setup_adjust", "CENTRE>H-LM")
    dec(m, "setup_adjust", "H-FRONT>H-LC")
    assert pend(m)[1] == "target_area"  # no third adjustment


def test_kick_off_tie_is_rolled_again_and_sets_weather_with_a9() -> None:
    m = new_match(header(adv=["A9"]))
    roll(m, "kick_off", 4, 4)
    assert m.st.weather == "windy"
    roll(m, "kick_off", 4, 4)  # second tie: weather is only decided by the first roll
    assert m.st.weather == "windy"
    roll(m, "kick_off", 1, 2)
    assert pend(m) == ("decision", "kick_off_team", "away")

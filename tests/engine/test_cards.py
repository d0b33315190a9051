"""Yellow and red cards (5.6) via the fouls of the special events table (A13)."""

from rules_engine import board as B

from .helpers import dec, header, pend, put_exact, roll, start


def _foul(defender_yellows: int = 0):  # type: ignore[no-untyped-def]
    m = start(header(adv=["A13"]))
    put_exact(m, "home", {"CENTRE": 4, "A-LM": 6}, gk="H-PEN")
    put_exact(m, "away", {"CENTRE": 3, "A-LM": 2, "A-FRONT": 5}, gk="A-PEN")
    m.st.ball = m.st.flags.start = B.CENTRE
    m.st.value = 3
    m.st.teams[1].yellows = defender_yellows
    dec(m, "target_area", "A-LM")
    roll(m, "situation", 3, 3)
    roll(m, "special_event", 3, 1)  # defender's foul: free kick for CT, DT rolls for a yellow
    assert pend(m) == ("roll", "yellow_test", "away")
    return m


def test_example_yellow_and_red_cards_5_6() -> None:
    # "His team already has two yellow cards and this card will be the third yellow card. He rolls
    #  a die for a red card and gets a 2 ... Otto continues the game with one yellow card and one red card."
    m = _foul(defender_yellows=2)
    roll(m, "yellow_test", 4)
    assert pend(m) == ("roll", "red_test", "away")
    roll(m, "red_test", 2)
    assert m.st.teams[1].yellows == 1 and m.st.teams[1].reds == ["second_yellow"]
    dec(m, "sent_off_player", "A-FRONT")
    assert m.st.teams[1].outfield() == 9


def test_direct_red_card_with_a_one_5_6_2() -> None:
    m = _foul(defender_yellows=1)
    roll(m, "yellow_test", 5)
    roll(m, "red_test", 1)
    assert m.st.teams[1].reds == ["direct"] and m.st.teams[1].yellows == 1


def test_red_test_passed_5_6_2() -> None:
    m = _foul(defender_yellows=1)
    roll(m, "yellow_test", 5)
    roll(m, "red_test", 2)  # 2 is not lower than 2 yellow cards
    assert m.st.teams[1].reds == [] and m.st.teams[1].yellows == 2


def test_yellow_test_results_5_6_1() -> None:
    for die, yellow in ((1, False), (2, False), (4, True), (5, True)):
        m = _foul()
        roll(m, "yellow_test", die)
        assert (m.st.teams[1].yellows == 1) is yellow
    # 3: yellow only if the target area is at least partly on the carded team's side (A-LM: away's side)
    m = _foul()
    roll(m, "yellow_test", 3)
    assert m.st.teams[1].yellows == 1


def test_yellow_test_six_gives_red_test_with_one_more_5_6_1() -> None:
    m = _foul()
    roll(m, "yellow_test", 6)
    assert pend(m) == ("roll", "red_test", "away")
    roll(m, "red_test", 1)  # 1 < 1 yellow + 1: red card (direct)
    assert m.st.teams[1].reds == ["direct"]


def test_free_kick_after_foul_in_opponent_half_is_set_up_5_2_1() -> None:
    m = _foul()
    roll(m, "yellow_test", 1)
    # A-LM is entirely in away's half: not a quick free kick -> set-up by the controlling team
    assert m.st.ct == 0 and m.st.ball == B.A_LM and m.st.value == 2
    assert pend(m) == ("decision", "setup", "home")
    assert m.st.minute_label() == "4"  # 3 (dice) ... +1 at the beginning of a free kick (4.2.1.1)

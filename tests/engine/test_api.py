"""The public API (rules_engine.api) as the simulator and the web scorer use it."""

import json

import pytest

from rules_engine import board as B
from rules_engine.api import (
    Decision,
    Dice,
    HeaderError,
    IllegalEventError,
    MalformedLogError,
    MatchOverError,
    Roll,
    event_from_dict,
    event_to_dict,
    new_match,
    validate_log,
)

from .helpers import dec, header, put_exact, roll, start


def test_drive_a_whole_match_with_injected_dice() -> None:
    m = new_match(header(adv="all"))
    dice = Dice(7)
    n = 0
    while (p := m.pending()) is not None:
        d = p.describe()
        json.dumps(d)
        assert d["kind"] in ("roll", "decision") and d["actor"] in ("home", "away", "both")
        if p.kind == "roll":
            m.apply(dice.roll_for(p))
        else:
            m.apply(Decision(p.name, p.actor, p.options[-1] if p.default is None else p.default))
        n += 1
    assert m.finished and m.result().to_dict()["finished"]
    with pytest.raises(MatchOverError):
        m.apply(Roll("situation", "home", (1, 2)))
    assert validate_log(m.to_log()).result == m.result()


def test_same_seed_same_match() -> None:
    from rules_engine.autoplay import play_random

    a = play_random(header(adv="all"), 11).to_log()
    b = play_random(header(adv="all"), 11).to_log()
    c = play_random(header(adv="all"), 12).to_log()
    assert a == b and a != c


def test_refused_event_leaves_state_unchanged() -> None:
    m = start()
    before = m.st.digest()
    p = m.pending()
    with pytest.raises(IllegalEventError) as e:
        m.apply(Decision("target_area", "home", "A-PEN"))
    assert e.value.turn == 1 and e.value.stage == 1 and e.value.rule
    assert m.st.digest() == before and m.pending() == p
    with pytest.raises(IllegalEventError, match="taken by home, not away"):
        m.apply(Decision("target_area", "away", "CENTRE"))


def test_bad_header() -> None:
    with pytest.raises(HeaderError, match="11 outfield players"):
        new_match(header(home="4-4-3"))
    with pytest.raises(HeaderError, match="unknown skill"):
        new_match(
            {
                "advanced_rules": ["A11"],
                "teams": {
                    "home": {"name": "a", "formation": "4-4-2", "skills": ["magic"]},
                    "away": {"name": "b", "formation": "4-4-2"},
                },
            }
        )


def test_event_json_round_trip() -> None:
    for ev in (Roll("situation", "home", (3, 4)), Decision("target_area", "away", "A-LM")):
        assert event_from_dict(event_to_dict(ev)) == ev
    with pytest.raises(MalformedLogError):
        event_from_dict({"roll": "situation", "by": "home"})


def test_temporarily_injured_player_returns_to_centre_a4() -> None:
    m = start(header(adv=["A13", "A4"]))
    put_exact(m, "home", {"CENTRE": 4, "H-FRONT": 6}, gk="H-PEN")
    dec(m, "target_area", "CENTRE")
    roll(m, "situation", 2, 2)
    roll(m, "special_event", 5, 4)
    dec(m, "injured_player", "CENTRE")
    roll(m, "injury", 1)  # out for 1 minute: back at the end of the first turn ending at minute >= 3
    assert m.st.teams[0].field[B.CENTRE] == 3 and m.st.teams[0].injured_out == [(3, 1)]
    while m.st.turn <= 2:
        p = m.pending()
        assert p is not None
        if p.kind == "roll":
            m.apply(Roll(p.name, p.actor, (6,) * p.dice))
        else:
            m.apply(Decision(p.name, p.actor, p.default if p.default is not None else p.options[0]))
    assert m.st.minute() >= 3
    assert m.st.teams[0].injured_out == [] and m.st.teams[0].outfield() == 10

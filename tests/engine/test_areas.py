"""The one vocabulary of the board's areas (rules_engine.areas): names people read, never codes."""

from __future__ import annotations

import re

from rules_engine import board as B
from rules_engine.api import AREAS, area_name, area_place, board_areas, in_words, towards_goal


def test_every_area_has_one_name_with_the_team_whose_end_it_lies_in() -> None:
    assert [a.code for a in AREAS] == list(B.NAMES)
    names = [area_name(code, "Canada", "Peru") for code in B.NAMES]
    assert len(set(names)) == len(names)
    assert area_name("H-PEN", "Canada", "Peru") == "Canada box"
    assert area_name("A-LC", "Canada", "Peru") == "Peru left wing"
    assert area_name("H-LM", "Canada", "Peru") == "Canada left midfield"
    assert area_name("CENTRE", "Canada", "Peru") == "centre circle"
    assert area_name("GK", "Canada", "Peru") == "goalkeeper"
    # the end names the area whatever the team (1.4: home defends the H end all match)
    for code in B.NAMES:
        name = area_name(code, "Canada", "Peru")
        assert ("Canada" in name) == code.startswith("H-") and ("Peru" in name) == code.startswith("A-")


def test_board_areas_carry_the_template_the_script_fills() -> None:
    rows = board_areas("Canada", "Peru")
    assert len(rows) == B.N_LOC and rows[B.H_FRONT]["index"] == B.H_FRONT
    for row in rows:
        filled = str(row["template"]).replace("{end}", "Canada" if row["end"] == "home" else "Peru")
        assert filled == row["name"]
    assert [r["corner_spot"] for r in rows].count(True) == len(B.CORNER_SPOTS)


def test_engine_messages_read_in_names() -> None:
    text = in_words("move H-LM>CENTRE is illegal: you have no outfield player in A-RCK", "Canada", "Peru")
    assert text == (
        "move (the Canada left midfield to the centre circle) is illegal: "
        "you have no outfield player in the Peru right corner flag"
    )
    assert in_words("GK>H-FRONT+ball", "C", "P") == "(the goalkeeper to the C edge of the box with the ball)"
    assert not re.search(r"[HA]-[A-Z]+|CENTRE", in_words(" ".join(B.NAMES), "Canada", "Peru"))
    assert area_place("CENTRE", "C", "P") == "the centre circle"


def test_towards_goal_is_seen_from_the_team_that_moves() -> None:
    # home attacks the A end, away the H end (1.4); the centre circle sits between the halves
    assert towards_goal("H-LM", "CENTRE", "home") == 1
    assert towards_goal("H-LM", "CENTRE", "away") == -1
    assert towards_goal("A-FRONT", "A-PEN", "away") == -1
    assert towards_goal("A-LM", "A-RM", "away") == 0
    assert towards_goal("GK", "H-PEN", "home") == 0

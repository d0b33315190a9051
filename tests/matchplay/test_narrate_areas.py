"""Questions, options, event lines and notes name areas by the one vocabulary, never by the log's
codes (issue 20: "no area code on screen")."""

from __future__ import annotations

import re

from matchplay import narrate
from matchplay.engine_door import Decision, Dice, event_to_dict, new_match

CODE = re.compile(r"\b(?:[HA]-(?:PEN|LC|RC|FRONT|LM|RM|LCK|RCK)|CENTRE|GK)\b")
NAMES = {"home": "Canada", "away": "Peru"}


def _header() -> dict[str, object]:
    teams = {"home": {"name": "Canada", "formation": "4-4-2"}, "away": {"name": "Peru", "formation": "3-5-2"}}
    return {"advanced_rules": "all", "teams": teams}


def test_a_whole_match_in_words_has_no_area_code() -> None:
    m = new_match(_header())
    dice = Dice(seed=5)
    seen = 0
    while (p := m.pending()) is not None:
        shown = [narrate.pending_text(p.describe(), NAMES)]
        if p.kind == "roll":
            ev = dice.roll_for(p)
        else:
            options = p.options
            shown += [narrate.choice_text(p.name, o, NAMES) for o in options]
            ev = Decision(p.name, p.actor, options[len(options) // 2])
        before = len(m.log)
        m.apply(ev)
        shown.append(narrate.event_text(event_to_dict(ev), NAMES))
        shown += [t for n in m.log[before:] if (t := narrate.note_text(n, NAMES))]
        for text in shown:
            assert not CODE.search(text), text
        seen += len(shown)
    assert seen > 500


def test_a_move_names_places_not_a_team_of_players() -> None:
    label = narrate.choice_text("move", "H-LM>CENTRE", NAMES)
    assert label == "Canada left midfield → centre circle"
    line = narrate.event_text({"decide": "move", "by": "away", "choice": "H-LM>H-FRONT+ball"}, NAMES)
    assert line == (
        "Peru moved a player from the Canada left midfield to the Canada edge of the box"
        " with the ball (dribbling)"
    )
    assert narrate.choice_text("target_area", "A-PEN", NAMES) == "Peru box"


def test_a_player_named_by_his_area_reads_as_a_player_in_a_place() -> None:
    assert narrate.choice_text("injured_player", "H-LM", NAMES) == "the player in the Canada left midfield"
    assert narrate.choice_text("injured_player", "GK", NAMES) == "goalkeeper"
    line = narrate.event_text({"decide": "sent_off_player", "by": "away", "choice": "H-FRONT"}, NAMES)
    assert line.startswith("Peru") and line.endswith("the player in the Canada edge of the box")

"""The plain-language renderer knows FUBA 2's questions, rolls and events (rulebook 2.0; the names
of docs/fuba2-engine.md, "Events of a FUBA 2 turn"): no engine name reaches a person."""

from __future__ import annotations

from matchplay import match_feed, narrate

NAMES = {"home": "Heidi", "away": "Otto"}


def _ask(name: str, actor: str = "home", kind: str = "decision", dice: int = 1) -> dict:
    return {"kind": kind, "name": name, "actor": actor, "dice": dice, "sides": 6}


def test_fuba_2_questions_in_words() -> None:
    assert narrate.pending_text(_ask("movement_option"), NAMES) == (
        "Heidi: choose the movement: defence, midfield or forward"
    )
    assert narrate.pending_text(_ask("goal_attempt", "away"), NAMES) == "Otto: try a goal attempt?"
    assert narrate.pending_text(_ask("pressing", "away"), NAMES) == "Otto: press for the ball?"
    assert narrate.pending_text(_ask("goalkeeper_position"), NAMES).endswith(
        "inside or outside the goal area?"
    )
    assert "slowly" in narrate.pending_text(_ask("slow_goal_kick"), NAMES)
    assert narrate.pending_text(_ask("turn_dice", "both", "roll", 2), NAMES) == (
        "Both teams: roll each team's die (2 dice)"
    )
    assert narrate.pending_text(_ask("yellow_card", "away", "roll"), NAMES) == "Otto: roll for a yellow card"
    assert narrate.choice_text("movement_option", "forward", NAMES) == "attack movement"
    assert narrate.choice_text("goalkeeper_position", "outside", NAMES) == "goalkeeper outside the goal area"


def test_fuba_2_events_in_words() -> None:
    roll = {"roll": "turn_dice", "by": "both", "dice": [5, 2]}
    assert narrate.event_text(roll, NAMES) == "Both teams rolled each team's die: 5 and 2"
    option = {"decide": "movement_option", "by": "away", "choice": "defence"}
    assert (
        narrate.event_text(option, NAMES)
        == "Otto — choose the movement: defence, midfield or forward: defence movement"
    )
    move = {"decide": "move", "by": "home", "choice": "H-LM>CENTRE"}
    assert narrate.event_text(move, NAMES).startswith("Heidi moved a player from their own left midfield")


def test_the_special_event_table_names_its_teams() -> None:
    # 4.4.3, row +1: "Free kick for PT. CT must roll for a yellow card"
    note = {"kind": "special_event", "event": "free_kick_pt", "team": "home", "minute": 12}
    assert narrate.note_text(note, NAMES) == "12' Special event: foul by Heidi, free kick for Otto"
    note = {"kind": "special_event", "event": "pt_moves_two", "team": "away", "minute": 30}
    assert narrate.note_text(note, NAMES) == "30' Special event: Heidi move two players"
    # an A4 injury of rulebook 2.0 counts turns, not minutes
    injury = {"kind": "injury", "team": "away", "minute": 40, "permanent": False}
    assert narrate.note_text(injury, NAMES) == "40' Otto player injured"


def test_a_fuba_2_turn_in_the_feed() -> None:
    entries = [
        {"turn": 3, "minute": 14, "event": {"decide": "target_area", "by": "home", "choice": "A-PEN"}},
        {"turn": 3, "minute": 14, "event": {"roll": "turn_dice", "by": "both", "dice": [6, 3]}},
        {"turn": 3, "minute": 14, "event": {"decide": "pressing", "by": "away", "choice": "yes"}},
        {
            "turn": 3,
            "minute": 14,
            "event": {"roll": "pressing", "by": "away", "dice": [2]},
            "notes": [{"kind": "pressing_won", "team": "away", "area": "A-PEN"}],
        },
        {"turn": 3, "minute": 14, "event": {"decide": "movement_option", "by": "away", "choice": "forward"}},
    ]
    (line,) = match_feed.turn_feed(entries, NAMES)
    assert line["text"] == (
        "Turn 3 · 14' · Heidi: ball to the Otto box · "
        "Otto: pressing 2, won the ball by pressing, attack movement"
    )

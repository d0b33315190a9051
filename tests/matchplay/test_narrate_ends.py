"""The match text names the right side's end: the box a team attacks is its opponent's, an area of
its own end reads "their own ..." (the big screen showed "Argentina aimed for the Argentina box"
for a pass back into Argentina's own box). Checked over a recorded log (docs/examples) and a
simulated one, both teams, both halves; the ends do not change at half time (I-50).

The oracle is the log itself, not the vocabulary under test: a team's own box in a half is where
its goalkeeper stands at that half's kick-off set-up."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from matchplay import narrate
from matchplay.engine_door import SimulationOptions, TeamSetup, event_from_dict, new_match, simulate_match
from matchplay.match_feed import key_moments, turn_feed

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "example-match.json"
OTHER = {"home": "away", "away": "home"}


def _recorded() -> dict[str, Any]:
    return json.loads(EXAMPLE.read_text())


def _simulated() -> dict[str, Any]:
    home = TeamSetup.from_dict({"name": "Brazil", "formation": "4-4-2"})
    away = TeamSetup.from_dict({"name": "Argentina", "formation": "3-4-3"})
    return simulate_match(home, away, SimulationOptions(), seed=5)


def _entries(log: dict[str, Any]) -> list[dict[str, Any]]:
    """Each event with its half, the engine's notes and the own box of each team in that half
    (from the kick-off set-up's goalkeeper)."""
    m = new_match({k: v for k, v in log.items() if k != "events"})
    half, own_box = 1, {}
    entries = []
    for i, data in enumerate(log["events"]):
        if data.get("decide") == "setup" and len(own_box) < 2 * half:
            own_box[(half, data["by"])] = data["choice"]["gk"]
        seen = len(m.log)
        m.apply(event_from_dict(data))
        notes = [dict(n) for n in m.log[seen:]]
        entries.append({"turn": i, "minute": "", "event": data, "notes": notes, "half": half})
        if any(n["kind"] == "half_time" for n in notes):
            half += 1
    for entry in entries:
        entry["own"] = {side: own_box[(entry["half"], side)] for side in ("home", "away")}
    return entries


def _end(code: str) -> str:
    return code.split("-")[0] if "-" in code else ""


LOGS = {"recorded": _recorded, "simulated": _simulated}


@pytest.mark.parametrize("which", sorted(LOGS))
def test_a_target_area_names_the_box_attacked_as_the_opponents(which: str) -> None:
    log = LOGS[which]()
    names = {side: log["teams"][side]["name"] for side in ("home", "away")}
    entries = _entries(log)
    # the ends are the same in both halves (I-50): each team's goalkeeper kicks off in one box
    for side in ("home", "away"):
        assert {e["own"][side] for e in entries} == {"H-PEN" if side == "home" else "A-PEN"}
    seen: Counter[tuple[int, str, bool]] = Counter()
    for entry in entries:
        ev = entry["event"]
        if ev.get("decide") != "target_area":
            continue
        side, target = ev["by"], ev["choice"]
        who, other = names[side], names[OTHER[side]]
        own = _end(target) == _end(entry["own"][side])
        seen[(entry["half"], side, own)] += 1
        text = narrate.event_text(ev, names)
        assert f"aimed for the {who} " not in text, text
        if own:
            assert text.startswith(f"{who} played the ball into their own "), text
        elif target == entry["own"][OTHER[side]]:
            assert text == f"{who} aimed for the {other} box", text
        elif _end(target):
            assert text.startswith(f"{who} aimed for the {other} "), text
        else:
            assert text == f"{who} aimed for the centre circle", text
    # both teams in both halves, attacking (and, in the recorded log, playing it back)
    for half in (1, 2):
        for side in ("home", "away"):
            assert seen[(half, side, False)], (half, side, seen)
            if which == "recorded":
                assert seen[(half, side, True)], (half, side, seen)


@pytest.mark.parametrize("which", sorted(LOGS))
def test_the_feed_lines_and_notes_name_each_side_rightly(which: str) -> None:
    log = LOGS[which]()
    names = {side: log["teams"][side]["name"] for side in ("home", "away")}
    entries = _entries(log)
    score = [0, 0]
    kinds: Counter[str] = Counter()
    for entry in entries:
        ev = entry["event"]
        for note in entry["notes"]:
            kind, side = note["kind"], note.get("team")
            text = narrate.note_text(note, names) or ""
            if kind == "goal":  # the team named is the one whose count went up
                assert note["score"][0 if side == "home" else 1] == score[0 if side == "home" else 1] + 1
                score = list(note["score"])
                assert f"GOAL for {names[side]}!" in text, text
            elif kind == "goal_attempt":  # a shot is at the box the team attacks, never its own
                assert ev.get("roll") == "goal_attempt" and ev["by"] == side
                assert _end(note["area"]) != _end(entry["own"][side]), note
                if note["area"] == entry["own"][OTHER[side]]:
                    assert f"{names[side]} shot from the {names[OTHER[side]]} box" in text, text
            elif kind == "pressing_won":
                assert ev.get("roll") == "pressing" and ev["by"] == side
                assert text.split(" won the ball")[0].endswith(names[side]), text
                if _end(note["area"]) == _end(entry["own"][side]):
                    assert "pressing in their own " in text, text
            elif kind == "free_kick":  # for the team awarded it, where the foul was
                assert f"Free kick for {names[side]} in " in text, text
                own = _end(note["area"]) == _end(entry["own"][side])
                assert ("in their own " in text) == own, text
            else:
                continue
            kinds[kind] += 1
        if ev.get("decide") == "corner_spot":  # the corner is taken at the end the team attacks
            side = ev["by"]
            assert _end(ev["choice"]) == _end(entry["own"][OTHER[side]])
            assert names[OTHER[side]] in narrate.event_text(ev, names)
            kinds["corner_spot"] += 1
    assert kinds["goal_attempt"] and kinds["pressing_won"], kinds
    # no line of the feed or the key moments says a team acts in "the <its own name> ..." end
    lines = [line["text"] for line in turn_feed(entries, names)]
    lines += [m["text"] for m in key_moments(entries, names)]
    for who in names.values():
        for line in lines:
            assert f"{who}: ball to the {who} " not in line, line
            assert f"{who} shot from the {who} " not in line, line
    assert any(": ball to their own " in line for line in lines) or which == "simulated"


def test_place_of_says_own_end_only_for_the_subject_team() -> None:
    names = {"home": "Brazil", "away": "Argentina"}
    assert narrate.place_of("A-PEN", "away", names) == "their own box"
    assert narrate.place_of("A-PEN", "home", names) == "the Argentina box"
    assert narrate.place_of("H-LC", "home", names) == "their own left wing"
    assert narrate.place_of("CENTRE", "home", names) == "the centre circle"
    assert narrate.place_of("A-PEN", "both", names) == "the Argentina box"
    ev = {"decide": "target_area", "by": "away", "choice": "A-PEN"}
    assert narrate.event_text(ev, names) == "Argentina played the ball into their own box"
    ev = {"decide": "target_area", "by": "away", "choice": "H-PEN"}
    assert narrate.event_text(ev, names) == "Argentina aimed for the Brazil box"
    move = {"decide": "move", "by": "home", "choice": "GK>H-PEN"}
    assert narrate.event_text(move, names) == "Brazil moved the goalkeeper to their own box"
    foul = {"kind": "free_kick", "team": "home", "area": "H-FRONT", "why": "attackers_foul", "minute": 9}
    assert narrate.note_text(foul, names) == (
        "9' Free kick for Brazil in their own edge of the box (foul by the team in control)"
    )
    foul = {"kind": "free_kick", "team": "away", "area": "H-FRONT", "minute": 9}
    assert narrate.note_text(foul, names) == "9' Free kick for Argentina in the Brazil edge of the box"

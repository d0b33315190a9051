"""Golden test: the worked examples of rulebook 2.0 played by hand as the opening of one match
(tests/engine/data/fuba2-worked-examples.json, with the players' written-down checks), replayed
and validated by the engine; completed by the random driver, it is a legal whole match."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from rules_engine.api import Decision, Dice, Match, validate_log
from rules_engine.logformat import header_from_dict, parse_events

LOG = Path(__file__).resolve().parents[1] / "data" / "fuba2-worked-examples.json"


def _log() -> dict[str, Any]:
    return json.loads(LOG.read_text())


def _replay(upto: int | None = None) -> Match:
    log = _log()
    m = Match(header_from_dict({k: v for k, v in log.items() if k != "events"}))
    for ev in parse_events(log, [])[:upto]:
        m.apply(ev)
    return m


def test_every_written_event_is_legal_and_every_check_matches() -> None:
    report = validate_log(_log())
    assert [e.kind for e in report.errors] == ["incomplete"]  # the log stops after turn 3's goal
    assert report.events_applied == len(_log()["events"])
    assert report.partial is not None and report.partial.score == (0, 1) and report.partial.turns == 3


def test_the_examples_numbers() -> None:
    events = _log()["events"]
    at = {i: e for i, e in enumerate(events)}
    # Time: "Heidi rolls 4 and Otto rolls 1 ... moved 3 minutes forward" (square 1 -> 4)
    m = _replay(next(i for i in at if at[i].get("roll") == "turn_dice") + 1)
    assert m.st.minute_label() == "4"
    # Team action stage: the passive team Otto plays first after the kick-off
    assert m.pending().actor == "away" and m.pending().name == "movement_option"
    # Pressing: "She rolls a die and got 2 ... new ball value will be 2"
    m = _replay(next(i for i in at if at[i].get("roll") == "pressing") + 1)
    assert m.st.ct == 1 and m.st.value == 2
    # Goal attempt: "Thus Heidi must roll 6 to score a goal (6-2=4 > 3)"
    m = _replay()
    assert m.st.score() == [0, 1] and m.log[-1]["kind"] == "goal"
    attempt = next(n for n in m.log if n["kind"] == "goal_attempt")
    assert (attempt["modifier"], attempt["ball"], attempt["area"]) == (-2, 3, "H-FRONT")


def test_a_wrong_written_down_value_and_an_illegal_move_are_reported() -> None:
    log = _log()
    bad = copy.deepcopy(log)
    i = next(i for i, e in enumerate(bad["events"]) if e.get("roll") == "pressing")
    bad["events"][i]["check"]["ball"] = 5
    (err, *_) = validate_log(bad).errors
    assert err.kind == "annotation" and err.path == f"$.events[{i}].check.ball"
    bad = copy.deepcopy(log)
    j = next(i for i, e in enumerate(bad["events"]) if e.get("choice") == "H-FRONT>CENTRE")
    bad["events"][j]["choice"] = "H-FRONT>H-LM"  # "A player can move only straight forward" (4.8.2)
    err = validate_log(bad).errors[0]
    assert err.kind == "illegal" and err.turn == 1 and err.stage == 7 and err.path == f"$.events[{j}]"
    assert err.rule == "4.8.2" and "straight forward" in err.reason


def test_completed_by_the_random_driver_it_is_a_legal_whole_match() -> None:
    m = _replay()
    dice = Dice(2014)
    while (p := m.pending()) is not None:
        m.apply(dice.roll_for(p) if p.kind == "roll" else Decision(p.name, p.actor, dice.choice(p.options)))
    report = validate_log(m.to_log())
    assert report.valid and report.result is not None and report.result.finished

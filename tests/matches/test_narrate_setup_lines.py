"""A set-up reads as one short line in every feed (issue 20: the scorer's feed, the live panel's
"Last" line, the replay), "Canada set up for the corner: goalkeeper and 10 players", with the whole
placement where one event is shown at a time (the replay's frame); the log keeps the set-up whole."""

from __future__ import annotations

import copy
import random
import re

from matches.replay import replay_frames
from matchplay import narrate, scorer_view
from matchplay.engine_door import Decision, Dice, new_match

NAMES = {"home": "Canada", "away": "Peru"}
TEAMS = {"home": {"name": "Canada", "formation": "4-4-2"}, "away": {"name": "Peru", "formation": "3-5-2"}}
CODE = re.compile(r"\b(?:[HA]-(?:PEN|LC|RC|FRONT|LM|RM|LCK|RCK)|CENTRE|GK)\b")
KICK_OFF = {"gk": "H-PEN", "players": {"H-LC": 3, "H-RC": 3, "H-FRONT": 2, "CENTRE": 2}}
LINE = re.compile(
    r"(Canada|Peru) set up( for the (kick-off|free kick|corner|penalty))?: goalkeeper and \d+ players?"
)


def _setup(choice: object, by: str = "home") -> dict[str, object]:
    return {"decide": "setup", "by": by, "choice": choice}


def test_a_set_up_is_one_short_line_and_its_placement_a_detail() -> None:
    assert narrate.event_text(_setup(KICK_OFF), NAMES) == "Canada set up: goalkeeper and 10 players"
    line = narrate.event_text(_setup(KICK_OFF, "away"), NAMES, occasion="the kick-off")
    assert line == "Peru set up for the kick-off: goalkeeper and 10 players"
    # the count is the set-up's own: a team down to nine placed nine
    nine = {"gk": "A-PEN", "players": {"A-LC": 4, "A-RC": 4, "CENTRE": 1}}
    assert narrate.event_text(_setup(nine, "away"), NAMES).endswith(": goalkeeper and 9 players")
    assert narrate.event_text(_setup({"gk": "A-PEN", "players": {"A-LC": 1}}), NAMES).endswith(
        "goalkeeper and 1 player"
    )
    # the whole placement, in the one vocabulary, for a page that shows one event at a time
    detail = narrate.event_detail(_setup(KICK_OFF), NAMES)
    assert detail == (
        "goalkeeper in the Canada box; 3 in the Canada left wing, 3 in the Canada right wing, "
        "2 in the Canada edge of the box, 2 in the centre circle"
    )
    assert narrate.event_detail({"decide": "move", "by": "home", "choice": "H-LM>CENTRE"}, NAMES) is None
    # the scorer's feed and the live panel's "Last" line are the same short line
    rows = [{"seq": 4, "data": _setup(KICK_OFF), "side": "home", "rolled_by_app": False}]
    assert scorer_view.event_lines(rows, NAMES)[0]["text"] == "Canada set up: goalkeeper and 10 players"


def test_every_set_up_question_names_its_occasion_in_both_rulesets() -> None:
    """The engine's set-up questions (kick-off, free kick, corner: 3.3.1, 5.2.1, 5.3.1; rulebook
    2.0: 3.2.1, 5.1.1, 5.2.1) each say what they are for; any other question says nothing."""
    for ruleset in ("fuba-3", "fuba-2"):
        said = set()
        for seed in range(4):
            m = new_match({"ruleset": ruleset, "advanced_rules": "all", "teams": TEAMS})
            dice, rng = Dice(seed=seed), random.Random(seed)
            while (p := m.pending()) is not None:
                occasion = narrate.setup_occasion(p.describe())
                if p.name == "setup":
                    assert occasion is not None, p.prompt
                    said.add(occasion)
                else:
                    assert occasion is None
                if p.kind == "roll":
                    m.apply(dice.roll_for(p))
                else:
                    m.apply(Decision(p.name, p.actor, rng.choice(p.options)))
        assert {"the kick-off", "the free kick", "the corner"} <= said, (ruleset, said)
    assert narrate.setup_occasion({"name": "setup", "prompt": "penalty set-up"}) == "the penalty"
    assert narrate.setup_occasion(None) is None


def test_the_replay_shows_each_set_up_in_one_line_and_the_placement_under_it() -> None:
    m = new_match({"advanced_rules": "all", "teams": TEAMS})
    dice, rng = Dice(seed=7), random.Random(7)
    while (p := m.pending()) is not None:
        m.apply(dice.roll_for(p) if p.kind == "roll" else Decision(p.name, p.actor, rng.choice(p.options)))
    log = m.to_log()
    kept = copy.deepcopy(log)
    frames = replay_frames(log)["frames"]
    setups = [(f, e) for f, e in zip(frames[1:], log["events"], strict=True) if e.get("decide") == "setup"]
    assert len(setups) >= 4
    for frame, event in setups:
        assert LINE.fullmatch(frame["text"]) and len(frame["text"]) <= 60, frame["text"]
        assert frame["detail"] == narrate.choice_text("setup", event["choice"], NAMES)
        assert not CODE.search(frame["text"] + frame["detail"])
    assert sum(" for the kick-off: " in f["text"] for f, _ in setups) >= 2
    assert all(
        f["detail"] is None for f in frames[1:] if not f["text"].startswith(("Canada set up", "Peru set up"))
    )
    assert log == kept  # the log keeps its set-ups whole

"""The replay's frames draw the pitch from the engine snapshot's own shape (issue 31, item 4: one
match state shape drawn by one renderer, static/fubaleague/pitch.js): each frame's ``teams`` (pieces
in board order, the keeper's area), ``ball``, ``value`` and ``last`` are the snapshot's, as the
scorer's and the live panel's ``state`` are."""

from __future__ import annotations

import random

from matches.replay import replay_frames
from matchplay.engine_door import Decision, Dice, event_from_dict, new_match, snapshot

TEAMS = {"home": {"name": "Canada", "formation": "4-4-2"}, "away": {"name": "Peru", "formation": "3-5-2"}}
PITCH = ("ball", "value", "last")


def test_every_frame_draws_the_pitch_as_the_snapshot_after_its_event() -> None:
    m = new_match({"teams": TEAMS})
    dice, rng = Dice(seed=11), random.Random(11)
    while (p := m.pending()) is not None and len(m.to_log()["events"]) < 400:
        m.apply(dice.roll_for(p) if p.kind == "roll" else Decision(p.name, p.actor, rng.choice(p.options)))
    log = m.to_log()
    # the snapshot after each of the log's events, replayed here apart from the replay
    again = new_match({"teams": TEAMS})
    states = [snapshot(again).to_dict()]
    for event in log["events"]:
        again.apply(event_from_dict(event))
        states.append(snapshot(again).to_dict())
    frames = replay_frames(log)["frames"]
    assert len(frames) > 300
    keepers = set()
    for frame in frames:
        # frame i shows the match after its i-th event (frame 0: before the first)
        state = states[frame["i"]]
        for side in ("home", "away"):
            team = state["teams"][side]
            assert frame["teams"][side] == {"pieces": team["pieces"], "gk": team["gk"]}, (frame["i"], side)
            keepers.add(team["gk"])
        assert {k: frame[k] for k in PITCH} == {k: state[k] for k in PITCH}, frame["i"]
    # the keepers are named by area code, as the state names them (no index to look up)
    assert keepers and all(k is None or isinstance(k, str) for k in keepers)

"""One snapshot of a match (rules_engine.snapshot): what the pages draw, read from the engine once."""

from __future__ import annotations

import json

from rules_engine import board as B
from rules_engine.api import Decision, Dice, MatchSnapshot, clock, new_match, snapshot

from .helpers import dec, header, put, start


def test_snapshot_reads_pieces_ball_and_clock_of_the_state() -> None:
    m = start(header("all"))
    put(m, "home", {"H-LM": 3, "CENTRE": 4, "H-LC": 3}, gk="H-PEN")
    snap = snapshot(m)
    assert isinstance(snap, MatchSnapshot)
    assert snap.home.pieces[B.H_LM] == 3 and snap.home.pieces[B.H_PEN] == 1  # the keeper counts
    assert snap.home.gk == "H-PEN" and snap.away.gk == "A-PEN"
    assert snap.ball == "CENTRE" and snap.value == 2 and snap.control == "home"
    assert snap.turn == 1 and snap.half == 1 and snap.minute == "0" and snap.score == (0, 0)
    assert snap.home.condition_points == (4, 4, 2) and not snap.finished
    assert clock(m) == (snap.turn, snap.minute)
    data = snap.to_dict()
    assert data["teams"]["home"]["on"] == {"H-PEN": 1, "H-LC": 3, "H-LM": 3, "CENTRE": 4}
    assert data["teams"]["home"]["condition_points"] == {"defence": 4, "midfield": 4, "forward": 2}
    assert json.loads(json.dumps(data)) == data  # JSON-ready as it is


def test_last_action_marks_a_pass_and_a_move_with_their_areas() -> None:
    m = start()
    put(m, "home", {"H-LM": 3, "CENTRE": 4, "H-LC": 3}, gk="H-PEN")
    dec(m, "target_area", "H-LM")
    last = snapshot(m).last
    assert last is not None and (last.kind, last.src, last.dst) == ("pass", "CENTRE", "H-LM")
    m2 = start()
    p = m2.pending()
    assert p is not None
    # the set-up adjustment before turn 1 is the last decision of the freshly started match
    last2 = snapshot(m2).last
    assert last2 is not None and last2.kind == "choice" and last2.name == "setup_adjust"


def test_last_action_of_a_move_and_of_a_roll() -> None:
    m = new_match(header())
    dice = Dice(seed=3)
    moves = 0
    while m.pending() is not None and moves < 3:
        p = m.pending()
        assert p is not None
        if p.kind == "roll":
            m.apply(dice.roll_for(p))
            last = snapshot(m).last
            assert last is not None and last.kind == "roll" and last.areas == ()
            continue
        choice = next((o for o in p.options if isinstance(o, str) and ">" in o), p.options[0])
        m.apply(Decision(p.name, p.actor, choice))
        last = snapshot(m).last
        assert last is not None
        if isinstance(choice, str) and ">" in choice and not choice.startswith("GK"):
            src, dst = choice.removesuffix("+ball").split(">")
            assert (last.kind, last.src, last.dst, last.areas) == ("move", src, dst, (src, dst))
            moves += 1
    assert moves == 3


def test_snapshot_counts_cards_injuries_and_the_end_of_the_match() -> None:
    m = new_match(header("all"))
    dice = Dice(seed=11)
    while (p := m.pending()) is not None:
        m.apply(dice.roll_for(p) if p.kind == "roll" else Decision(p.name, p.actor, p.options[0]))
    snap = snapshot(m)
    result = m.result()
    assert snap.finished and snap.score == result.score
    for team, res in ((snap.home, result.home), (snap.away, result.away)):
        assert team.yellow_cards == res.yellow_cards
        assert team.red_cards == res.red_cards_detail
        assert len(team.injuries) == len(res.injuries)
        outfield_on_pitch = sum(team.pieces) - (1 if team.gk is not None else 0)
        assert outfield_on_pitch + team.players_off == 10
        assert team.substitutions == res.substitutions

"""The decision asked right after the usual answer (one tap answers both), and the roll asked
right after an answer (its first die answers both): found on a copy of the match, it is exactly
what the match asks once the answer is applied, and the match itself is left as it was."""

from __future__ import annotations

import random
from collections import Counter

from rules_engine import decisions as D
from rules_engine.api import Copies, Decision, Dice, Match, after_default, new_match, rolls_after
from rules_engine.lookahead import MAX_ROLL_ANSWERS

from .helpers import header


def test_the_next_decision_is_the_one_the_match_asks_after_the_usual_answer() -> None:
    offered: Counter[tuple[str, str]] = Counter()
    for seed in range(3):
        m = new_match(header("all"))
        dice = Dice(seed=seed)
        rng = random.Random(seed)
        while (p := m.pending()) is not None:
            fork = after_default(m) if p.kind == "decision" else None
            assert m.pending() is p  # the match is not touched
            if fork is not None:
                nxt = fork.pending()
                assert nxt is not None and nxt.kind == "decision" and nxt.default is None
                assert nxt.name not in D.MOVE_DECISIONS and nxt.name != D.SETUP
                offered[(p.name, nxt.name)] += 1
                m.apply(Decision(p.name, p.actor, p.default))  # the usual answer, as a page sends it
                real = m.pending()
                assert real is not None
                assert (real.name, real.actor, tuple(real.options)) == (
                    nxt.name,
                    nxt.actor,
                    tuple(nxt.options),
                )
                continue
            if p.kind == "roll":
                m.apply(dice.roll_for(p))
            else:
                m.apply(Decision(p.name, p.actor, rng.choice(p.options)))
    # 4.3.1 then 4.3: a team that ends its free movements chooses its action at once
    assert offered[(D.FREE_MOVE, D.ACTION)] > 10, offered
    assert offered[(D.SECOND_ACTIONS, D.TARGET_AREA)] > 0, offered


def test_no_next_decision_without_a_usual_answer() -> None:
    m = new_match(header("all"))
    p = m.pending()
    assert p is not None and p.kind == "roll"
    assert after_default(m) is None


def test_an_answer_followed_at_once_by_a_roll_is_offered_with_that_roll() -> None:
    offered: Counter[tuple[str, str]] = Counter()
    for seed in range(2):
        m = new_match(header("all"))
        dice = Dice(seed=seed)
        rng = random.Random(seed)
        while (p := m.pending()) is not None:
            if p.kind == "roll":
                m.apply(dice.roll_for(p))
                continue
            follow = rolls_after(m)
            assert m.pending() is p  # the match is not touched
            assert len(follow) <= MAX_ROLL_ANSWERS
            for choice, fork in follow:
                assert choice in p.options and choice != p.default
                nxt = fork.pending()
                assert nxt is not None and nxt.kind == "roll"
                offered[(p.name, nxt.name)] += 1
            choice = rng.choice(p.options)
            m.apply(Decision(p.name, p.actor, choice))
            real = m.pending()
            fork = next((f for c, f in follow if c == choice), None)
            if fork is not None:  # exactly the roll the match asks after that answer
                nxt = fork.pending()
                assert real is not None and nxt is not None
                asked = (real.kind, real.name, real.actor, real.dice)
                assert asked == ("roll", nxt.name, nxt.actor, nxt.dice)
            else:  # any other answer: the match asks no roll at once (or a usual answer, left out)
                assert real is None or real.kind != "roll" or choice == p.default or len(follow) == 0
    # 4.3: the action is followed at once by its roll (4.5 movement, 4.6 positioning, 4.7 pressing)
    assert offered[(D.ACTION, "movement")] > 10, offered
    assert offered[(D.ACTION, "positioning")] > 10, offered
    assert offered[(D.ACTION, "pressing")] > 0, offered
    assert (D.FREE_MOVE, "movement") not in {k for k in offered}  # moves are never offered with dice


def _asked(m: Match | None) -> tuple[object, ...] | None:
    if m is None or (p := m.pending()) is None:
        return None
    return (p.kind, p.name, p.actor, tuple(p.options), p.default, p.dice, len(m.events))


def test_copies_made_ahead_give_the_forks_a_replay_gives() -> None:
    """Copies made at one question and brought up to date at the next (the phone's prepare) fork
    exactly as a replay of the match does; a match rebuilt from its events takes none of them."""
    m = new_match(header("all"))
    dice = Dice(seed=7)
    rng = random.Random(7)
    copies = Copies()
    taken = 0
    while (p := m.pending()) is not None and len(m.events) < 200:  # the first half: a few seconds
        if p.kind == "decision":
            before = len(copies)
            fork = after_default(m, copies)
            follow = rolls_after(m, copies)
            taken += before - len(copies)
            assert _asked(fork) == _asked(after_default(m))
            assert [(c, _asked(f)) for c, f in follow] == [(c, _asked(f)) for c, f in rolls_after(m)]
            assert all(f.events[: len(m.events)] == m.events for _, f in follow)
        while len(copies) < 3:
            copies.make(m)
        m.apply(dice.roll_for(p) if p.kind == "roll" else Decision(p.name, p.actor, rng.choice(p.options)))
    assert taken > 30  # the forks came from the copies, not from replays
    rebuilt = new_match(header("all"))  # as an undo rebuilds it: a header of its own
    for ev in m.events[:-1]:
        rebuilt.apply(ev)
    kept = len(copies)
    assert copies.take(rebuilt).events == rebuilt.events and len(copies) == 0 and kept > 0

"""Prompts with no real choice (issue 20, fewer taps): a move sequence where no move is legal is
not asked, a condition point for a step the ball value cannot take is marked moot, and logs
written when such prompts were asked still validate."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules_engine import decisions as D
from rules_engine.api import (
    Decision,
    Dice,
    IllegalEventError,
    Match,
    auto_answer,
    event_to_dict,
    new_match,
    validate_log,
)

from .helpers import header


def _play(seed: int, adv: Any = "all") -> tuple[Match, list[dict[str, Any]]]:
    """A random match, and its events with the passed-over prompts answered by their default
    where they used to be asked (as a log of the earlier engine has them)."""
    m = new_match(header(adv))
    dice = Dice(seed=seed)
    rng = random.Random(seed)
    old_log: list[dict[str, Any]] = []
    while (p := m.pending()) is not None:
        if p.kind == "decision":
            assert not (p.name in D.MOVE_DECISIONS and tuple(p.options) == (D.DONE,)), p
        ev = dice.roll_for(p) if p.kind == "roll" else Decision(p.name, p.actor, rng.choice(p.options))
        m.apply(ev)
        old_log.append(event_to_dict(ev))
        old_log += [{"decide": name, "by": by, "choice": default} for name, by, default in m.skipped]
    return m, old_log


def test_a_move_sequence_with_no_legal_move_is_not_asked_and_old_logs_still_replay() -> None:
    skipped = 0
    for seed in range(4):
        m, old_log = _play(seed)
        skipped += len(old_log) - len(m.events)
        report = validate_log({**m.to_log(), "events": old_log})
        assert report.valid, report.errors[:1]
        assert report.result is not None and report.result.score == m.result().score
        assert report.result == m.result()
    assert skipped > 20  # about a dozen "done"-only prompts a match


def test_only_a_default_answers_a_passed_over_prompt() -> None:
    m = new_match(header("all"))
    dice = Dice(seed=2)
    while not m.skipped:
        p = m.pending()
        assert p is not None
        m.apply(dice.roll_for(p) if p.kind == "roll" else Decision(p.name, p.actor, p.options[0]))
    name, by, _default = m.skipped[0]
    with pytest.raises(IllegalEventError):
        m.apply(Decision(name, by, "H-LM>CENTRE"))


def _replay(header_: dict[str, Any], events: list[Any]) -> Match:
    m = new_match(header_)
    for ev in events:
        m.apply(ev)
    return m


def test_a_moot_condition_point_changes_nothing_in_play_and_a_useful_one_does() -> None:
    hdr = header(["A1"])
    seen = {True: 0, False: 0}
    for seed in range(12):
        m = new_match(hdr)
        dice = Dice(seed=seed)
        rng = random.Random(seed)
        while (p := m.pending()) is not None:
            if p.kind == "decision" and p.name == D.USE_CP and p.prompt.endswith("one more step?"):
                values = []
                for answer in ("no", "yes"):
                    copy = _replay(hdr, list(m.events))
                    copy.apply(Decision(p.name, p.actor, answer))
                    values.append(copy.st.value)
                assert (values[0] == values[1]) == p.moot, (values, p.moot)
                assert auto_answer(p) == ((True, "no") if p.moot else (False, None))
                seen[p.moot] += 1
            ev = dice.roll_for(p) if p.kind == "roll" else Decision(p.name, p.actor, rng.choice(p.options))
            m.apply(ev)
    assert seen[True] and seen[False]

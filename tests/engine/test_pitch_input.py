"""The pitch as input (rules_engine.pitch_input): legal sources and destinations per decision,
a reason in words for every other area, and the set-up check of the board editor."""

from __future__ import annotations

import random
from typing import Any

from rules_engine import board as B
from rules_engine import decisions as D
from rules_engine.api import (
    Decision,
    Dice,
    IllegalEventError,
    Match,
    new_match,
    only_answer,
    pitch_input,
    setup_check,
)

from .helpers import header, put, start

CODES = set(B.NAMES)


def _moves_of(data: dict[str, Any]) -> set[str]:
    moves = {f"{src}>{dst}" for src, dsts in data["sources"].items() for dst in dsts}
    moves |= {f"{src}>{dst}+ball" for src, dsts in data["dribbles"].items() for dst in dsts}
    if data["keeper"]:
        moves |= {f"GK>{dst}" for dst in data["keeper"]["to"]}
    return moves


def _play(seed: int, adv: str = "all") -> Any:
    """Every pending decision of a seeded match with its pitch input, answered at random."""
    m = new_match(header(adv))
    dice = Dice(seed=seed)
    rng = random.Random(seed)
    while (p := m.pending()) is not None:
        if p.kind == "roll":
            m.apply(dice.roll_for(p))
            continue
        yield m, p, pitch_input(m)
        m.apply(Decision(p.name, p.actor, rng.choice(p.options)))


def test_move_sources_and_destinations_are_exactly_the_legal_moves() -> None:
    checked = 0
    for m, p, board in _play(7):
        if p.name not in D.MOVE_DECISIONS:
            continue
        assert board is not None and board.kind == "move"
        data = board.to_dict()
        assert _moves_of(data) == {o for o in p.options if o != D.DONE}
        assert data["done"] == (D.DONE in p.options)
        # every area is a source, the keeper's area or explained
        team = m.st.teams[B.TEAM_NAMES.index(p.actor)]
        explained = set(data["why_not"]) | set(data["sources"])
        if data["keeper"]:
            explained.add(data["keeper"]["from"])
        assert explained | ({B.NAMES[team.gk]} if team.gk >= 0 else set()) == CODES
        for area, why in data["why_not"].items():
            assert why and not any(code in why for code in CODES), (area, why)
            if not team.has(B.INDEX[area]):
                assert why == f"no {m.header.teams[B.TEAM_NAMES.index(p.actor)].name} player there"
        checked += 1
    assert checked > 50


def test_area_answers_and_why_the_others_are_not() -> None:
    kinds = set()
    for _m, p, board in _play(3):
        if board is None or board.kind != "area":
            continue
        kinds.add(p.name)
        assert set(board.areas) == {o for o in p.options if o in CODES}
        assert set(dict(board.why_not)) == CODES - set(board.areas)
    assert D.TARGET_AREA in kinds


def test_a_target_area_out_of_reach_is_explained_by_the_rule() -> None:
    m = start()
    put(m, "home", {"H-PEN": 3, "H-LC": 4, "H-RC": 3}, gk="H-PEN")
    board = pitch_input(m)
    assert board is not None and board.kind == "area"
    why = dict(board.why_not)["A-PEN"]
    assert why == "Otto have no player there or in an adjacent area (4.1.1)"


def test_only_answer_marks_a_question_with_one_legal_answer() -> None:
    seen = {True: 0, False: 0}
    for _m, p, _board in _play(5):
        single, answer = only_answer(p)
        assert single == (len(p.options) == 1 and not p.open)
        if single:
            assert answer == p.options[0]
        seen[single] += 1
    assert seen[True] and seen[False]


def _at_kick_off_setup() -> Match:
    m = new_match(header())
    dice = Dice(seed=2)
    while (p := m.pending()) is not None and p.name != D.SETUP:
        m.apply(dice.roll_for(p) if p.kind == "roll" else Decision(p.name, p.actor, p.options[0]))
    return m


def test_setup_check_names_every_problem_in_words() -> None:
    m = _at_kick_off_setup()
    p = m.pending()
    assert p is not None and p.name == D.SETUP
    wrong = {"gk": "H-FRONT", "players": {"A-PEN": 1, "H-LM": 5}}
    if p.actor == "away":
        wrong = {"gk": "A-FRONT", "players": {"H-PEN": 1, "A-LM": 5}}
    check = setup_check(m, wrong)
    assert not check.ok and check.placed == 6 and check.outfield == 10
    text = " | ".join(check.problems)
    assert "places 6 outfield players but the team has 10" in text
    assert "box is not at least partly in" in text and "goalkeeper must be placed" in text
    assert not any(code in text for code in CODES)
    assert setup_check(m, p.options[0]).ok
    # the board editor's areas: where an outfield player may stand at a kick-off (3.3.1)
    board = pitch_input(m)
    assert board is not None and board.kind == "setup" and board.outfield == 10
    side = B.TEAM_NAMES.index(p.actor)
    assert set(board.areas) == {B.NAMES[a] for a in range(B.N_AREAS) if B.in_own_half_partly(side, a)}
    other_box = "A-PEN" if side == 0 else "H-PEN"
    assert "is not at least partly in" in dict(board.why_not)[other_box]


def test_setup_check_agrees_with_the_setup_decision() -> None:
    m = _at_kick_off_setup()
    p = m.pending()
    assert p is not None and p.verify_fn is not None
    rng = random.Random(9)
    accepted = 0
    for _ in range(400):
        players: dict[str, int] = {}
        for _ in range(10):
            area = rng.choice(B.NAMES[: B.N_AREAS])
            players[area] = players.get(area, 0) + 1
        choice = {"gk": rng.choice(["H-PEN", "A-PEN", "CENTRE"]), "players": players}
        try:
            p.verify_fn(choice)
            legal = True
        except IllegalEventError:
            legal = False
        check = setup_check(m, choice)
        assert check.ok == legal and (not check.problems) == legal
        accepted += legal
    assert accepted > 0

"""The scorer's pitch answers FUBA 2's questions (rulebook 2.0): every legal move can be tapped,
those that cross several areas in a straight line too (4.8: defence and forward movements), and
the set-up editor's check is the set-up decision's own (3.2.1, 5.1.1, 5.2.1, 5.5.1)."""

from __future__ import annotations

from typing import Any

from rules_engine import board as B
from rules_engine import decisions as D
from rules_engine.api import pitch_input, setup_check
from rules_engine.events import Event
from rules_engine.machine import Match
from rules_engine.simulate import SimulationOptions, TeamSetup, play_match

OPTIONS = SimulationOptions(advanced_rules=("A1", "A2", "A3", "A4", "A5", "A6"), ruleset="fuba-2")


def _tappable(match: Match) -> set[str]:
    pi = pitch_input(match)
    assert pi is not None and pi.kind == "move"
    moves = {f"{src}>{dst}" for src, dsts in pi.sources for dst in dsts}
    moves |= {f"{src}>{dst}+ball" for src, dsts in pi.dribbles for dst in dsts}
    if pi.keeper is not None:
        moves |= {f"GK>{dst}" for dst in pi.keeper[1]}
    return moves


def test_every_legal_fuba_2_move_can_be_tapped() -> None:
    asked: list[tuple[set[str], set[str]]] = []
    far = 0

    def observe(match: Match, _event: Event) -> None:
        nonlocal far
        p = match.pending()
        if p is None or p.kind != "decision" or p.name not in D.MOVE_DECISIONS:
            return
        legal = {str(o) for o in p.options if o != D.DONE}
        asked.append((legal, _tappable(match)))
        far += any(o.split(">")[1].removesuffix("+ball") not in _next_to(o) for o in legal if ">" in o)

    for seed in range(2):
        play_match(TeamSetup("Heidi", "4-4-2"), TeamSetup("Otto", "4-5-1"), OPTIONS, seed, observer=observe)
    assert asked and far, "the matches asked moves across several areas"
    assert [legal - tapped for legal, tapped in asked if legal - tapped] == []
    assert [tapped - legal for legal, tapped in asked if tapped - legal] == []


def _next_to(move: str) -> set[str]:
    src = move.split(">")[0]
    if src == "GK":
        return set(B.NAMES)
    return {B.NAMES[d] for d in B.ADJ[B.INDEX[src]]}


def test_the_set_up_editor_checks_a_fuba_2_set_up_by_its_own_rules() -> None:
    checked: list[Any] = []

    def observe(match: Match, _event: Event) -> None:
        p = match.pending()
        if p is None or p.kind != "decision" or p.name != D.SETUP or checked:
            return
        offered = p.options[0]
        checked.append(
            (p.rule, setup_check(match, offered), setup_check(match, {"gk": "CENTRE", "players": {}}))
        )

    play_match(TeamSetup("Heidi", "4-4-2"), TeamSetup("Otto", "4-5-1"), OPTIONS, 3, observer=observe)
    ((rule, good, bad),) = checked
    assert rule == "3.2.1"  # the kick-off set-up of rulebook 2.0
    assert good.ok and good.problems == () and good.placed == good.outfield == 10
    assert not bad.ok and bad.problems

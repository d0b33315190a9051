"""Short words for a phone's one line (issue 20): the half-time position change offered as the
formations it gives (2.2), and every set-up problem the engine's check words, shortened with its
chapter for the set-up editor's one line (3.3.1, 5.2.1, 5.3.1, 5.5.1)."""

from __future__ import annotations

import random

from matchplay import narrate, scorer_view
from matchplay.engine_door import Decision, Dice, new_match, setup_check

NAMES = {"home": "Canada", "away": "Peru"}
TEAMS = {"home": {"name": "Canada", "formation": "4-4-2"}, "away": {"name": "Peru", "formation": "3-5-2"}}
AREAS = ("H-PEN", "H-LC", "H-FRONT", "H-LM", "CENTRE", "A-LM", "A-FRONT", "A-RC", "A-PEN", "H-LCK", "A-RCK")


def _to(name: str, seed: int = 3) -> object:
    m = new_match({"advanced_rules": [], "teams": TEAMS})
    dice = Dice(seed=seed)
    while (p := m.pending()) is not None and p.name != name:
        if p.kind == "roll":
            m.apply(dice.roll_for(p))
        else:
            m.apply(Decision(p.name, p.actor, p.default if p.default is not None else p.options[0]))
    assert p is not None
    return m


def test_the_half_time_change_offers_the_formations_it_gives() -> None:
    m = _to("half_time_formation")
    view = scorer_view.match_view(m, NAMES)
    p = view["pending"]
    formation = TEAMS[p["actor"]]["formation"]
    labels = {o["value"]: o["label"] for o in p["options"]}
    assert labels["none"] == f"keep {formation}"
    d, mid, f = (int(n) for n in formation.split("-"))
    assert labels["defence>midfield"] == f"{d - 1}-{mid + 1}-{f}"
    assert labels["forward>defence"] == f"{d + 1}-{mid}-{f - 1}"
    assert len(labels) <= 8 and all(len(t) <= 10 for t in labels.values()), labels
    assert view["question"] == f"{NAMES[p['actor']]}: change formation?"
    # without the formation (an event line) the change reads in words
    assert narrate.choice_text("half_time_formation", "defence>midfield", NAMES) == (
        "a player from defence to midfield"
    )
    line = narrate.event_text({"decide": "half_time_formation", "by": "home", "choice": "none"}, NAMES)
    assert line == "Canada kept the formation"
    assert narrate.formation_after("4-4-2", "midfield>forward") == "4-3-3"
    assert narrate.formation_after("4-4", "midfield>forward") is None


def test_every_set_up_problem_has_short_words_with_its_chapter() -> None:
    seen: dict[str, str] = {}
    kinds = set()
    for seed in range(20):
        m = new_match({"advanced_rules": "all", "teams": TEAMS})
        dice, rng = Dice(seed=seed), random.Random(seed)
        while (p := m.pending()) is not None:
            if p.kind == "decision" and p.name == "setup" and (p.rule != "3.3.1" or seed == 0):
                kinds.add(p.rule)
                outfield = setup_check(m, p.options[0]).outfield
                wrong = [
                    {"gk": gk, "players": {a: n}}
                    for gk in ("H-PEN", "A-PEN", "A-LCK", None)
                    for a in AREAS
                    for n in (1, outfield)
                ]
                for choice in wrong:
                    check = scorer_view.checked_setup(setup_check(m, choice).to_dict())
                    assert len(check["short"]) == len(check["problems"])
                    seen.update(zip(check["problems"], check["short"], strict=True))
            answer = Decision(p.name, p.actor, rng.choice(p.options)) if p.kind == "decision" else None
            m.apply(answer or dice.roll_for(p))
    assert kinds == {"3.3.1", "5.2.1", "5.3.1", "5.5.1"}, kinds
    assert len(set(seen.values())) >= 12
    for problem, short in seen.items():
        assert short != problem, problem  # every problem the engine words has its short form
        assert len(short) <= 48, short
        assert short.endswith(problem[problem.rindex(" (") :]), (short, problem)  # the same chapter

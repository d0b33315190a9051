"""simulate_match: determinism, every simulated log validates, bounds."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rules_engine.api import validate_log
from rules_engine.coaches import HeuristicCoach
from rules_engine.coaches.tables import MOVE_NAME
from rules_engine.decisions import MOVE_DECISIONS
from rules_engine.errors import IllegalEventError
from rules_engine.events import Decision, Pending
from rules_engine.logformat import header_from_dict
from rules_engine.machine import Match
from rules_engine.rng import Dice
from rules_engine.simulate import (
    SimulationError,
    SimulationLimitError,
    SimulationOptions,
    TeamSetup,
    header_for,
    log_of,
    play_match,
    simulate_match,
)
from rules_engine.skills import skill_weight

FORMATIONS = ("4-4-2", "3-5-2", "4-5-1", "5-3-2", "3-4-3", "4-3-3", "5-4-1", "4-2-4")
SKILL_SETS = (
    ("runner", "tackler", "great_condition"),
    ("catenaccio", "dribbler", "midfield_general"),
    ("shot_stopper", "stopper"),  # shot_stopper counts twice
    ("clinical_finisher", "crossing"),  # clinical_finisher counts twice
    ("sweeper_keeper", "fiery_coach", "creative_midfielder"),
    ("gegenpressing", "mezzala", "aggressive_striker"),
    ("strength_in_depth", "trained_formation_change", "penalty_saver"),
    ("creative_goalkeeper", "short_passes", "doubling_up"),
)
ROLES = (
    (),
    (("attacking_midfielders", 2),),
    (("defending_midfielders", 1), ("withdrawn_striker", 1)),
    (("offensive_wing_backs", 2),),
    (("attacking_centre_back", 1),),
)


def setups(i: int) -> tuple[TeamSetup, TeamSetup]:
    """A varied but deterministic pair of teams (equal skill weights, A11)."""
    r = random.Random(i)
    skills = r.sample(SKILL_SETS, 2)
    while skill_weight(skills[0]) != skill_weight(skills[1]):
        skills = r.sample(SKILL_SETS, 2)
    short = int(r.random() < 0.1)
    home = TeamSetup("Blues", r.choice(FORMATIONS), r.choice(ROLES), skills[0], players_short=short)
    away = TeamSetup("Yellows", r.choice(FORMATIONS), r.choice(ROLES), skills[1])
    return home, away


def _legal_roles(team: TeamSetup) -> TeamSetup:
    d, _m, f = (int(x) for x in team.formation.split("-"))
    roles = dict(team.roles)
    if (
        roles.get("withdrawn_striker", 0) > f
        or roles.get("offensive_wing_backs", 0) + roles.get("attacking_centre_back", 0) > d
    ):
        roles = {}
    return TeamSetup(team.name, team.formation, tuple(roles.items()), team.skills, team.players_short)


def varied(i: int) -> tuple[TeamSetup, TeamSetup, SimulationOptions]:
    home, away = (_legal_roles(t) for t in setups(i))
    kinds = ("heuristic", "heuristic", "random")
    opts = SimulationOptions(
        advanced_rules="all",
        home_coach=kinds[i % 3],
        away_coach=kinds[(i // 3) % 3],
    )
    return home, away, opts


H, A = TeamSetup("Blues", "4-4-2"), TeamSetup("Yellows", "3-5-2")


def test_same_seed_same_log() -> None:
    opts = SimulationOptions(advanced_rules="all")
    assert simulate_match(H, A, opts, seed=7) == simulate_match(H, A, opts, seed=7)
    assert simulate_match(H, A, opts, seed="fixture-12") == simulate_match(H, A, opts, seed="fixture-12")


def test_different_seeds_differ() -> None:
    opts = SimulationOptions()
    logs = {json.dumps(simulate_match(H, A, opts, seed=s)["events"]) for s in range(5)}
    assert len(logs) == 5


def test_global_random_untouched() -> None:
    random.seed(123)
    state = random.getstate()
    simulate_match(H, A, SimulationOptions(home_coach="random"), seed=3)
    assert random.getstate() == state


def test_log_header_is_the_registered_setup() -> None:
    roles = (("attacking_midfielders", 2),)
    home = TeamSetup("Otto's Blues", "4-5-1", roles, ("catenaccio", "great_condition"))
    away = TeamSetup("Santeri's Yellows", "3-5-2", (), ("runner", "tackler"), players_short=1)
    log = simulate_match(home, away, SimulationOptions(meta=(("competition", "Spring"),)), seed=1)
    assert log["format"] == "fuba-log/1" and log["ruleset"] == "fuba-3"
    assert log["teams"]["home"] == {
        "name": "Otto's Blues",
        "formation": "4-5-1",
        "roles": {"attacking_midfielders": 2},
        "skills": ["catenaccio", "great_condition"],
    }
    assert log["teams"]["away"]["players_short"] == 1
    assert log["meta"] == {"competition": "Spring"}
    report = validate_log(log)
    assert report.valid, report.errors[:3]
    assert report.result is not None and report.result.finished is True


@pytest.mark.parametrize("rules", ["all", "none", ("A1", "A3"), ("A5", "A6", "A7"), ("A9", "A10", "A13")])
def test_rule_subsets_validate(rules: str | tuple[str, ...]) -> None:
    skills = ("runner", "tackler") if rules == "all" else ()
    home = TeamSetup("Blues", "4-4-2", skills=skills)
    away = TeamSetup("Yellows", "4-3-3", skills=("dribbler", "stopper") if skills else ())
    for seed in range(4):
        log = simulate_match(home, away, SimulationOptions(advanced_rules=rules), seed=seed)
        report = validate_log(log)
        assert report.valid, (rules, seed, [e.message for e in report.errors[:3]])


@pytest.mark.parametrize("chunk", range(6))
def test_many_simulated_logs_validate(chunk: int) -> None:
    """60 varied matches (formations, roles, skills, coach kinds, one player short)."""
    for i in range(chunk * 10, chunk * 10 + 10):
        home, away, opts = varied(i)
        log = simulate_match(home, away, opts, seed=i)
        report = validate_log(json.dumps(log))
        assert report.valid, (i, home, away, [e.message for e in report.errors[:3]])
        result = play_match(home, away, opts, seed=i).result()
        assert report.result is not None and report.result.score == result.score


def test_max_events_bound() -> None:
    with pytest.raises(SimulationLimitError, match="did not end within 50 events"):
        simulate_match(H, A, SimulationOptions(max_events=50), seed=1)


def test_options_are_checked() -> None:
    with pytest.raises(ValueError, match="unknown coach kind"):
        SimulationOptions(home_coach="genius")
    with pytest.raises(ValueError):
        SimulationOptions(max_events=0)


def test_header_rules_none_is_an_empty_list() -> None:
    assert header_for(H, A, SimulationOptions(advanced_rules="none"))["advanced_rules"] == []
    assert header_for(H, A, SimulationOptions(advanced_rules=("A1", "A5")))["advanced_rules"] == ["A1", "A5"]


def test_illegal_coach_answer_is_reported() -> None:
    class Stubborn:
        def choose(self, match: object, pending: object) -> object:
            return "no such choice"

    with pytest.raises(SimulationError, match="answered"):
        play_match(H, A, SimulationOptions(), seed=1, coaches=(Stubborn(), Stubborn()))


def test_observer_sees_every_event() -> None:
    seen: list[object] = []
    m = play_match(H, A, SimulationOptions(), seed=2, observer=lambda match, ev: seen.append(ev))
    assert seen == m.events


def test_1000_random_seeds_validate() -> None:
    # in the default run since the engine is compiled (about 5 s; 20 s on plain Python)
    rng = random.Random(20261121)
    failures = []
    for _ in range(1000):
        seed = rng.randrange(2**32)
        home, away, opts = varied(seed)
        report = validate_log(simulate_match(home, away, opts, seed=seed))
        if not report.valid:
            failures.append((seed, [e.message for e in report.errors[:2]]))
    print(f"\n1000 random seeds: {1000 - len(failures)} valid")
    assert not failures, failures[:5]


def test_deterministic_across_processes() -> None:
    """No dependence on hash randomisation or process state: same log in two processes."""
    import subprocess
    import sys

    code = (
        "import json, hashlib;"
        "from rules_engine.simulate import SimulationOptions, TeamSetup, simulate_match;"
        "log = simulate_match(TeamSetup('H', '4-4-2', skills=('runner', 'tackler')),"
        " TeamSetup('A', '3-5-2', skills=('stopper', 'crossing')), SimulationOptions(), seed='fixture-9');"
        "print(hashlib.sha256(json.dumps(log, sort_keys=True).encode()).hexdigest())"
    )
    root = Path(__file__).resolve().parents[2]
    digests = set()
    for hashseed in ("1", "2"):
        env = {"PYTHONHASHSEED": hashseed, "PYTHONPATH": str(root), "PATH": "/usr/bin:/bin"}
        cmd = [sys.executable, "-c", code]
        out = subprocess.run(cmd, cwd=root, env=env, capture_output=True, text=True, check=True, timeout=120)
        digests.add(out.stdout.strip())
    assert len(digests) == 1


def test_full_log_by_default_and_compact_on_request() -> None:
    home = TeamSetup(
        "H",
        "3-2-5",
        (("defending_midfielders", 1),),
        ("midfield_general", "seconda_punta", "creative_midfielder"),
    )
    away = TeamSetup("A", "4-0-6", (), ("clinical_finisher", "catenaccio"))
    opts = SimulationOptions(home_coach="random", away_coach="random")
    match = play_match(home, away, opts, seed=1801114310)
    full = simulate_match(home, away, opts, seed=1801114310)
    assert len(full["events"]) == len(match.events)  # every decision, "done"/"no" included
    assert validate_log(full).valid


def test_compact_log_validates_too() -> None:
    """Regression (found by fuzzing the simulator, fixed in the engine): home
    "use_skill no", away "use_skill no", home "use_skill midfield_general" -
    both "no"s were left out of the compact log and the replay applied
    "midfield_general" to the creative_midfielder question."""
    home = TeamSetup(
        "H",
        "3-2-5",
        (("defending_midfielders", 1),),
        ("midfield_general", "seconda_punta", "creative_midfielder"),
    )
    away = TeamSetup("A", "4-0-6", (), ("clinical_finisher", "catenaccio"))
    opts = SimulationOptions(home_coach="random", away_coach="random", compact_log=True)
    report = validate_log(simulate_match(home, away, opts, seed=1801114310))
    assert report.valid, report.errors[:1]


def test_non_strict_mode_falls_back_to_a_legal_option() -> None:
    class Stubborn:
        def choose(self, match: object, pending: object) -> object:
            return "no such choice"

    opts = SimulationOptions(strict=False)
    m = play_match(H, A, opts, seed=4, coaches=(Stubborn(), Stubborn()))
    assert m.pending() is None
    assert validate_log(log_of(m)).valid


def _first_vouched_move(seed: int) -> tuple[Match, Pending, Any, str]:
    """A match played by heuristic coaches up to the first move its coach answered with a
    checked move: (match, request, the coach's choice, an illegal move of the same request)."""
    match = Match(header_from_dict(header_for(H, A, SimulationOptions())))
    dice = Dice(f"dice:{seed}")
    coaches = (HeuristicCoach(random.Random(seed)), HeuristicCoach(random.Random(seed + 1)))
    while (p := match.pending()) is not None:
        if p.kind == "roll":
            match.apply(dice.roll_for(p))
            continue
        choice = coaches[0 if p.actor == "home" else 1].choose(match, p)
        if p.name in MOVE_DECISIONS and p.check_fn is not None and p.vouched is not None:
            illegal = next(o for o in MOVE_NAME if p.check_fn(o) is not None)
            return match, p, choice, illegal
        match.apply(Decision(p.name, p.actor, choice))
    raise AssertionError("no checked move in a whole match")


def test_a_checked_move_is_vouched_for_one_answer_only() -> None:
    """The coach marks the move its check passed (``Pending.vouched``, the very object), the
    match takes it without checking it again and forgets it once the request is answered."""
    match, p, choice, _ = _first_vouched_move(5)
    assert p.vouched is choice and p.check_fn is not None and p.check_fn(choice) is None
    match.apply(Decision(p.name, p.actor, choice))
    assert p.vouched is None


def test_only_the_vouched_object_skips_the_check() -> None:
    """An equal answer that is another object is checked as always (a vouched request never
    lets another answer through): a refused move is refused, vouched or not."""
    match, p, _, illegal = _first_vouched_move(6)
    p.vouched = "".join(illegal)  # equal, not the same object
    assert p.vouched == illegal and p.vouched is not illegal
    with pytest.raises(IllegalEventError):
        match.apply(Decision(p.name, p.actor, illegal))

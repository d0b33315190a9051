"""Benchmark: FUBA logs validated per second vs python-chess PGN replays per second.

Both are measured in the same process run on one core:

* engine (headline row): realistic full-match logs, 36-44 turns over both
  halves, all advanced rules A1-A13 and three skills per team, played by the
  heuristic coach on both sides (``rules_engine.api.simulate_match``,
  the simulator's full log), serialized to JSON text; the timed work is
  ``validate_log(text)`` (JSON decoding, structure check, replay of every die
  and decision with legality checks, result derivation);
* engine (second row): logs of the same length produced by seeded random legal
  play (``rules_engine.api.play_random``, compact logs);
* chess: 80-ply games produced by a seeded random legal-move walk, exported
  as PGN; the timed work is ``chess.pgn.read_game`` (SAN parsing checks
  legality) and replaying the mainline with ``board.push``.

The sides are timed by CPU time in alternating slices (bench/measure.py) and the ratio is printed
as min / median / max over the slices; the exit code is non-zero when a target is missed.
Prints a table with rates, the ratio engine/chess and the peak RSS.
Run: ``.venv/bin/python bench/bench_engine.py [--quick]``.
"""

from __future__ import annotations

import io
import json
import random
import resource
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import chess
import chess.pgn
from measure import Verdict, interleaved, load_line, ratios

import rules_engine
from rules_engine.api import SimulationOptions, TeamSetup, play_random, simulate_match, validate_log

# Issue 35: validation per CPU second at least twice python-chess's replays compiled, half in
# plain Python.
RATIO_TARGET_NATIVE = 2.0
RATIO_TARGET_PURE = 0.5

HEADER = {
    "advanced_rules": "all",
    "teams": {
        "home": {
            "name": "Blue",
            "formation": "4-4-2",
            "roles": {"attacking_midfielders": 1},
            "skills": ["runner", "stopper", "great_condition"],
        },
        "away": {
            "name": "Yellow",
            "formation": "3-5-2",
            "skills": ["midfield_general", "tackler", "crossing"],
        },
    },
}


SIM_HOME = TeamSetup(
    "Blue", "4-4-2", (("attacking_midfielders", 1),), ("runner", "stopper", "great_condition")
)
SIM_AWAY = TeamSetup("Yellow", "3-5-2", skills=("midfield_general", "tackler", "crossing"))


def make_sim_logs(n: int) -> list[str]:
    """Realistic 40-turn logs: heuristic coach on both sides, all advanced rules."""
    out = []
    seed = 0
    opts = SimulationOptions(advanced_rules="all")
    while len(out) < n:
        log = simulate_match(SIM_HOME, SIM_AWAY, opts, seed)
        seed += 1
        turns = sum(validate_log(log).result.turns_per_half)  # type: ignore[union-attr]
        if 36 <= turns <= 44:  # "a 40-turn log"
            out.append(json.dumps(log))
    return out


def make_logs(n: int) -> list[str]:
    out = []
    seed = 0
    while len(out) < n:
        m = play_random(HEADER, seed)
        seed += 1
        if 36 <= m.st.turn <= 44:  # "a 40-turn log"
            out.append(json.dumps(m.to_log()))
    return out


def make_pgns(n: int, plies: int = 80) -> list[str]:
    rng = random.Random(1)
    out = []
    while len(out) < n:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            mv = rng.choice(moves)
            board.push(mv)
            node = node.add_variation(mv)
        if board.ply() == plies:
            out.append(str(game))
    return out


def replay_pgn(text: str) -> int:
    game = chess.pgn.read_game(io.StringIO(text))
    assert game is not None and not game.errors
    board = game.board()
    n = 0
    for mv in game.mainline_moves():
        board.push(mv)
        n += 1
    return n


def main() -> int:
    quick = "--quick" in sys.argv
    n = 10 if quick else 30
    slices = 3 if quick else 9
    print(f"bench_engine: {load_line()}")
    sims = make_sim_logs(n)
    logs = make_logs(n)
    pgns = make_pgns(n)
    for text in sims + logs:
        assert validate_log(text).valid
    assert all(replay_pgn(p) == 80 for p in pgns)
    sim_events = sum(len(json.loads(x)["events"]) for x in sims) / len(sims)
    sim_turns = sum(sum(validate_log(x).result.turns_per_half) for x in sims) / len(sims)  # type: ignore[union-attr]
    events = sum(len(json.loads(x)["events"]) for x in logs) / len(logs)
    # CPU seconds of each side in short alternating slices (engine, chess, engine, chess, ...):
    # a burst of other load falls on both sides of a ratio, not on one.
    sim_cpu, chs_cpu, eng_cpu = interleaved(
        [
            lambda: [validate_log(x) for x in sims],
            lambda: [replay_pgn(x) for x in pgns],
            lambda: [validate_log(x) for x in logs],
        ],
        slices=slices,
        at_least=0.3,
    )
    sim = len(sims) / statistics.median(sim_cpu)
    chs = len(pgns) / statistics.median(chs_cpu)
    eng = len(logs) / statistics.median(eng_cpu)
    # Items per CPU second, engine over chess, slice by slice.
    headline = ratios([len(sims) / c for c in sim_cpu], [len(pgns) / c for c in chs_cpu])
    random_play = ratios([len(logs) / c for c in eng_cpu], [len(pgns) / c for c in chs_cpu])
    target = RATIO_TARGET_NATIVE if rules_engine.NATIVE else RATIO_TARGET_PURE
    verdict = Verdict("bench_engine")
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    rows = [
        (
            "fuba-3 log validation, simulated match (heuristic x2, all advanced rules)",
            f"{sim:,.0f} logs/s",
            f"{sim_turns:.0f} turns, {sim_events:.0f} events/log",
        ),
        ("  events replayed per second", f"{sim * sim_events:,.0f} ev/s", "dice and decisions"),
        (
            "fuba-3 log validation, random legal play (40 turns, all advanced rules)",
            f"{eng:,.0f} logs/s",
            f"{events:.0f} events/log (compact)",
        ),
        ("  events replayed per second", f"{eng * events:,.0f} ev/s", "dice and decisions"),
        ("python-chess PGN parse + replay (80 plies)", f"{chs:,.0f} games/s", "legality checked"),
        ("  python-chess plies replayed per second", f"{chs * 80:,.0f} plies/s", "SAN parse + push"),
        (
            "ratio engine / chess per CPU s (simulated match, headline)",
            headline.spread(),
            f"min / median / max of {slices} slices; target median >= {target}: "
            + verdict.check(f"engine / chess >= {target}", headline.median >= target),
        ),
        ("ratio engine / chess per CPU s (random play)", random_play.spread(), "min / median / max"),
        (
            "peak RSS of this process",
            f"{peak_mb:.1f} MB",
            "target < 100 MB: " + verdict.check("peak RSS < 100 MB", peak_mb < 100),
        ),
        (
            "engine build",
            "mypyc" if rules_engine.NATIVE else "pure Python",
            "FUBA_ENGINE=pure for plain Python",
        ),
    ]
    w = max(len(r[0]) for r in rows)
    print(f"{'benchmark':<{w}}  {'rate':>16}  note")
    for a, b, c in rows:
        print(f"{a:<{w}}  {b:>16}  {c}")
    return verdict.exit_code()


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: simulated full matches per CPU second (FUBA 3 and FUBA 2) and validated logs.

Simulation: heuristic coach on both sides, FUBA 3 with all advanced rules (A1-A13) and three
skills a team, FUBA 2 (ruleset ``fuba-2``) with A1-A6 as ``bench_fuba2.py`` plays it; seeded
dice; one core (the process is pinned to one CPU where the platform allows). The two rulesets
are timed by CPU time in alternating slices (bench/measure.py: FUBA 3, FUBA 2, FUBA 3, ...), so
a burst of other load falls on both; rates and the FUBA 2 / FUBA 3 ratio are printed as
min / median / max over the slices and judged on the median.
Targets (issue 35, compiled engine): >= 500 FUBA 3 matches per CPU second, FUBA 2 at least
FUBA 3's rate; plain Python (FUBA_ENGINE=pure) is judged on the ratio only.
Validation: the FUBA 3 logs as JSON text through ``validate_log``; the engine alone replays the
same events. The table also carries the plausibility figures: average turns per half, goals
per match, share of draws (heuristic against heuristic) and the heuristic coach's win rate
against the random coach over 500 matches. Exits non-zero when a target is missed.

Run: ``.venv/bin/python bench/bench_simulate.py [--quick] [--versus N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import Verdict, interleaved, load_line, ratios

import rules_engine
from rules_engine.api import (
    Match,
    SimulationOptions,
    SimulationStats,
    TeamSetup,
    log_of,
    play_match,
    play_with_stats,
    validate_log,
    versus_random,
)

ENGINE_BUILD = "mypyc" if rules_engine.NATIVE else "pure Python"
# Issue 35: FUBA 3 matches per CPU second (compiled engine), and FUBA 2 at least as fast.
TARGET = 500.0
FUBA2_RATIO_TARGET = 1.0
PAIRS = [
    (
        TeamSetup("Blues", "4-4-2", skills=("runner", "tackler", "great_condition")),
        TeamSetup("Yellows", "3-5-2", skills=("dribbler", "stopper", "midfield_general")),
    ),
    (
        TeamSetup(
            "Reds", "4-5-1", (("attacking_midfielders", 2),), ("catenaccio", "crossing", "fiery_coach")
        ),
        TeamSetup("Greens", "4-3-3", skills=("gegenpressing", "mezzala", "sweeper_keeper")),
    ),
]
FUBA3_OPTIONS = SimulationOptions(advanced_rules="all")
# FUBA 2 as bench_fuba2.py plays it (A1-A6, the A6 styles left normal)
FUBA2_OPTIONS = SimulationOptions(advanced_rules=("A1", "A2", "A3", "A4", "A5", "A6"), ruleset="fuba-2")
FUBA2_PAIRS = [
    (TeamSetup("Heidi", "4-4-2"), TeamSetup("Otto", "4-5-1", (("attacking_midfielders", 1),))),
    (TeamSetup("Blues", "3-5-2"), TeamSetup("Yellows", "4-3-3")),
]


def pin_one_core() -> str:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return "pinned to one CPU"
    except (AttributeError, OSError):
        return "not pinned"


class Series:
    """Seeded matches of one ruleset, one per call: the side of an interleaved comparison."""

    def __init__(self, fuba2: bool) -> None:
        self.fuba2 = fuba2
        self.seed = 0
        self.stats = SimulationStats()
        self.matches: list[Match] = []

    def play(self) -> None:
        i = self.seed
        self.seed += 1
        if self.fuba2:
            home, away = FUBA2_PAIRS[i % len(FUBA2_PAIRS)]
            play_match(home, away, FUBA2_OPTIONS, i)
            return
        home, away = PAIRS[i % len(PAIRS)]
        self.matches.append(play_with_stats(home, away, FUBA3_OPTIONS, i, self.stats))


def per_cpu_second(matches: list[Match], work: str) -> float:
    """Logs per CPU second of validating (``work`` "validate") or replaying ("replay") them."""
    if work == "validate":
        texts = [json.dumps(log_of(m)) for m in matches]
        t0 = time.process_time()
        valid = sum(validate_log(t).valid for t in texts)
        spent = time.process_time() - t0
        assert valid == len(texts), f"{len(texts) - valid} simulated logs do not validate"
        return len(texts) / spent
    games = [(m.header, list(m.events)) for m in matches]
    t0 = time.process_time()
    for header, events in games:
        replay = Match(header)
        for ev in events:
            replay.apply(ev)
    return len(games) / (time.process_time() - t0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer slices (smoke run)")
    ap.add_argument("--versus", type=int, default=0, help="heuristic-vs-random matches (default 500)")
    args = ap.parse_args()
    slices = 3 if args.quick else 9
    nv = args.versus or (60 if args.quick else 500)
    pinned = pin_one_core()
    print(f"bench_simulate: {load_line()}")

    fuba3, fuba2 = Series(fuba2=False), Series(fuba2=True)
    for _ in range(2):  # warm-up
        Series(False).play()
        Series(True).play()
    f3_cpu, f2_cpu = interleaved([fuba3.play, fuba2.play], slices=slices, at_least=0.4)
    f3_rates = ratios([1.0] * slices, f3_cpu)  # matches per CPU second, slice by slice
    f2_rates = ratios([1.0] * slices, f2_cpu)
    f2_vs_f3 = ratios(f3_cpu, f2_cpu)  # FUBA 2's rate over FUBA 3's, slice by slice
    n = len(fuba3.matches)
    stats = fuba3.stats
    val_rate = per_cpu_second(fuba3.matches, "validate")
    replay_rate = per_cpu_second(fuba3.matches, "replay")
    rate = f3_rates.median
    t0 = time.process_time()
    wins, draws, losses = versus_random(PAIRS, nv, 100_000)
    vs_time = time.process_time() - t0

    verdict = Verdict("bench_simulate")
    f2_ok = f2_vs_f3.median >= FUBA2_RATIO_TARGET
    if rules_engine.NATIVE:
        rate_note = f"target median >= {TARGET:.0f}: " + verdict.check(
            f"FUBA 3 matches / CPU s >= {TARGET:.0f}", rate >= TARGET
        )
    else:
        rate_note = f"target {TARGET:.0f} judged on the compiled engine (make engine)"
    rows = [
        ("FUBA 3 simulated matches / CPU s (heuristic x2, A1-A13)", f3_rates.spread("{:,.1f}"), rate_note),
        ("  ms per match", f"{1000 / rate:.2f}", f"{stats.events / max(n, 1):.0f} events/match; {n} matches"),
        (
            "  of which coaches and simulator loop, ms per match",
            f"{1000 / rate - 1000 / replay_rate:.2f}",
            "simulation minus engine replay",
        ),
        (
            "FUBA 2 simulated matches / CPU s (heuristic x2, A1-A6)",
            f2_rates.spread("{:,.1f}"),
            f"{fuba2.seed} matches",
        ),
        (
            "ratio FUBA 2 / FUBA 3 matches per CPU s",
            f2_vs_f3.spread(),
            f"target median >= {FUBA2_RATIO_TARGET}: "
            + verdict.check(f"FUBA 2 / FUBA 3 >= {FUBA2_RATIO_TARGET}", f2_ok),
        ),
        ("validated FUBA 3 logs / CPU s (same logs, JSON text)", f"{val_rate:,.1f}", f"{n}/{n} valid"),
        ("engine alone: replays / CPU s (same events, Match.apply)", f"{replay_rate:,.1f}", "ceiling"),
        ("engine build", ENGINE_BUILD, "make engine compiles it; FUBA_ENGINE=pure for plain Python"),
        ("average turns per half", f"{stats.turns_per_half:.2f}", "rulebook: about 17"),
        ("shortest half (minutes reached)", f"{stats.shortest_half}", "must be >= 45"),
        ("goals per match", f"{stats.goals_per_match:.2f}", "football: about 2.5-2.9"),
        ("share of draws", f"{stats.draw_share:.1%}", "football: about 22-30 %"),
        (
            f"heuristic vs random, {nv} matches: win rate",
            f"{wins / nv:.1%}",
            f"{wins} W {draws} D {losses} L; {nv / vs_time:.1f} matches/s",
        ),
    ]
    w0 = max(len(r[0]) for r in rows)
    w1 = max(len(r[1]) for r in rows)
    print(
        f"simulator benchmark: {slices} slices a ruleset, min / median / max per CPU second "
        f"({pinned}; median of the slices: {statistics.median(f3_cpu) * 1000:.1f} ms a FUBA 3 match)"
    )
    print(f"{'measure':<{w0}}  {'value':>{w1}}  note")
    print(f"{'-' * w0}  {'-' * w1}  {'-' * 30}")
    for name, value, note in rows:
        print(f"{name:<{w0}}  {value:>{w1}}  {note}")
    return verdict.exit_code()


if __name__ == "__main__":
    sys.exit(main())

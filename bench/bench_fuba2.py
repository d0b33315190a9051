"""Benchmark: FUBA 2 (rulebook 2.0, ruleset ``fuba-2``) simulated matches, and whether they look
like the game the dice describe.

Heuristic coach on both sides, advanced rules A1-A6 (the A6 playing styles left normal, so each
team rolls one special event die and the table's rows follow the two dice), seeded dice, one
core.  Every log is validated as JSON text.  Plausibility: turns per half (the issue's estimate
from the time track, 4.3: about 23), goals per match, draws; special events per control check
against the 1/6 of the controlling die equalling the ball value (4.4: "If the die value is the
same as the ball die value, then a special event occurs"; an automatic pass, 4.4.1, is no
check); the special event table's rows against the difference of two dice ((6 - |k|) / 36,
4.4.3); cards and penalties per match.

Run: ``.venv/bin/python bench/bench_fuba2.py [--quick] [--matches N]``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import load_line

import rules_engine
from rules_engine.api import (
    Event,
    Match,
    Roll,
    SimulationOptions,
    SimulationStats,
    TeamSetup,
    log_of,
    play_match,
    validate_log,
)

ENGINE_BUILD = "mypyc" if rules_engine.NATIVE else "pure Python"
OPTIONS = SimulationOptions(advanced_rules=("A1", "A2", "A3", "A4", "A5", "A6"), ruleset="fuba-2")
PAIRS = [
    (TeamSetup("Heidi", "4-4-2"), TeamSetup("Otto", "4-5-1", (("attacking_midfielders", 1),))),
    (TeamSetup("Blues", "3-5-2"), TeamSetup("Yellows", "4-3-3")),
]


class Tally:
    """What the dice did in every match (seen by the simulator's observer before each event)."""

    def __init__(self) -> None:
        self.turn_dice = 0
        self.ct_die_equal = 0  # the controlling team's die equal to the ball value (4.4)
        self.special_events = 0
        self.rows: Counter[int] = Counter()
        self.rolls: Counter[str] = Counter()
        self.reached = [0, 0, 0, 0]  # the largest minute of each half, from the half's kick-off

    def observe(self, match: Match, event: Event) -> None:
        st = match.st
        self.reached[st.half - 1] = max(self.reached[st.half - 1], st.clock + st.stoppage)
        if not isinstance(event, Roll):
            return
        self.rolls[event.name] += 1
        if event.name == "turn_dice":
            self.turn_dice += 1
            self.ct_die_equal += event.dice[0] == match.st.value
        elif event.name == "special_event" and len(event.dice) == 2:
            self.special_events += 1
            self.rows[event.dice[0] - event.dice[1]] += 1


def pin_one_core() -> str:
    try:
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
        return "pinned to one CPU"
    except (AttributeError, OSError):
        return "not pinned"


def simulate(n: int) -> tuple[float, SimulationStats, Tally, list[Match]]:
    stats, tally, matches = SimulationStats(), Tally(), []
    t0 = time.process_time()
    for i in range(n):
        home, away = PAIRS[i % len(PAIRS)]
        matches.append(_play(home, away, i, stats, tally))
    return time.process_time() - t0, stats, tally, matches


def _play(home: TeamSetup, away: TeamSetup, seed: int, stats: SimulationStats, tally: Tally) -> Match:
    tally.reached = [0, 0, 0, 0]
    match = play_match(home, away, OPTIONS, seed, observer=tally.observe)
    st = match.st
    tally.reached[st.half - 1] = max(tally.reached[st.half - 1], st.clock + st.stoppage)
    stats.add(match, (tally.reached[0], tally.reached[1]))
    return match


def versus_random(n: int) -> tuple[int, int, int]:
    """(wins, draws, losses) of the heuristic coach against the random coach, sides alternating."""
    wins = draws = losses = 0
    for i in range(n):
        heuristic_home = i % 2 == 0
        options = SimulationOptions(
            advanced_rules=OPTIONS.advanced_rules,
            ruleset="fuba-2",
            home_coach="heuristic" if heuristic_home else "random",
            away_coach="random" if heuristic_home else "heuristic",
        )
        home, away = PAIRS[i % len(PAIRS)]
        h, a = play_match(home, away, options, 50_000 + i).st.score()
        if h == a:
            draws += 1
        elif (h > a) == heuristic_home:
            wins += 1
        else:
            losses += 1
    return wins, draws, losses


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer matches (smoke run)")
    ap.add_argument("--matches", type=int, default=0, help="matches (default 300)")
    ap.add_argument("--versus", type=int, default=0, help="heuristic-vs-random matches (default 200)")
    args = ap.parse_args()
    n = args.matches or (40 if args.quick else 300)
    print(f"bench_fuba2: {load_line()}")
    nv = args.versus or (20 if args.quick else 200)
    pinned = pin_one_core()
    sim_time, stats, tally, matches = simulate(n)
    texts = [json.dumps(log_of(m)) for m in matches]
    t0 = time.process_time()
    valid = sum(validate_log(t).valid for t in texts)
    val_time = time.process_time() - t0
    events = sum(len(m.events) for m in matches)
    wins, draws, losses = versus_random(nv)
    specials = tally.special_events
    rows = (
        " ".join(f"{k:+d}:{tally.rows[k] / specials:.1%}/{(6 - abs(k)) / 36:.1%}" for k in range(-5, 6))
        if specials
        else "none"
    )
    table = [
        ("FUBA 2 matches simulated (heuristic x2, A1-A6)", f"{n}", f"{valid}/{n} logs valid"),
        ("  matches / s (simulation, 1 core)", f"{n / sim_time:,.1f}" if sim_time else "-", pinned),
        (
            "  validated events / s (JSON text)",
            f"{events / val_time:,.0f}" if val_time else "-",
            f"{events / n:.0f} events/match",
        ),
        ("engine build", ENGINE_BUILD, "FUBA_ENGINE=pure for plain Python"),
        ("average turns per half", f"{stats.turns_per_half:.2f}", "issue 24: about 23 (4.3)"),
        ("shortest half (minutes reached)", f"{stats.shortest_half}", "must be >= 45"),
        ("goals per match", f"{stats.goals_per_match:.2f}", "football: about 2.5-2.9"),
        ("share of draws", f"{stats.draw_share:.1%}", "football: about 22-30 %"),
        (
            "special events per turn",
            f"{specials / max(tally.turn_dice, 1):.1%}",
            f"dice: 1/6 = 16.7% of control checks; controlling die = ball value in "
            f"{tally.ct_die_equal / max(tally.turn_dice, 1):.1%} of turns (less automatic passes)",
        ),
        ("special event rows (measured/dice)", rows, "4.4.3: ct die - pt die, (6-|k|)/36"),
        (
            "yellow card rolls per match",
            f"{tally.rolls['yellow_card'] / n:.2f}",
            f"dice: rows -1 and +1 of the special events, 10/36 x {specials / n:.2f} = "
            f"{specials / n * 10 / 36:.2f}",
        ),
        ("goal attempts per match", f"{tally.rolls['goal_attempt'] / n:.2f}", ""),
        ("penalties per match", f"{tally.rolls['penalty'] / n:.2f}", ""),
        (
            f"heuristic vs random, {nv} matches: win rate",
            f"{wins / nv:.1%}",
            f"{draws} draws, {losses} losses",
        ),
    ]
    width = max(len(r[0]) for r in table)
    for label, value, note in table:
        print(f"{label:<{width}}  {value:>12}  {note}")
    print(f"bench_fuba2: {load_line()} at the end")
    return 0 if valid == n else 1


if __name__ == "__main__":
    sys.exit(main())

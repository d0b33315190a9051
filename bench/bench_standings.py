"""Benchmark: how the standings grow with the number of teams, league and Swiss, 10 rounds.

A league (FIFA tie-breaks: head-to-head among the teams level) and a Swiss stage (points,
Buchholz, …) of 1,000, 10,000 and 100,000 teams with 10 played rounds are written to this run's own
database (bench/isolation.py). For each kind:

* first computation (``standings_compute`` with no lots drawn yet: it draws and stores them),
  timed once per size, wall and CPU seconds, and its queries;
* recompute (the same call once the lots are stored), CPU seconds of this process per call,
  the sizes measured in interleaved slices (1k 10k 100k 1k 10k 100k …); the growth per x10 teams
  is printed as min / median / max of the slices' ratios.

Targets: recompute growing at most x12 per x10 teams (median ratio), the first computation of the
largest Swiss within 60 s (wall).

Run: ``. scripts/test-env.sh && .venv/bin/python bench/bench_standings.py [--quick] [--sizes 1000,10000]
[--kinds swiss]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from isolation import create_database, isolate  # noqa: E402
from measure import Verdict, interleaved, load_line, ratios  # noqa: E402

GROWTH_TARGET = 12.0
FIRST_SWISS_TARGET_S = 60.0
ROUNDS = 10


def setup_django() -> None:
    env = dict(os.environ)
    if not env.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit(
            "bench_standings: needs DATABASE_URL (PostgreSQL): source scripts/test-env.sh first."
        )
    env.update({"DEBUG": "0", "LOG_LEVEL": "WARNING"})
    env = isolate(env, "standings")
    create_database(env)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fubaleague.settings")
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true", help="1,000 and 10,000 teams, 3 slices")
    parser.add_argument("--sizes", default="", help="comma-separated team counts (even)")
    parser.add_argument("--kinds", default="round_robin,swiss", help="round_robin, swiss or both")
    parser.add_argument("--slices", type=int, default=5)
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s] or (
        [1000, 10000] if args.quick else [1000, 10000, 100000]
    )
    slices = 3 if args.quick else args.slices
    print(f"bench_standings: {load_line()}")
    setup_django()

    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext
    from standings_data import build_stage

    from matches.standings.services import standings_compute
    from tournaments.models import Stage

    verdict = Verdict("bench_standings")
    for kind in args.kinds.split(","):
        stages: dict[int, Stage] = {}
        print(f"\n{kind}, {ROUNDS} rounds")
        print(
            f"{'teams':>8} {'build s':>8} {'first wall s':>13} {'first CPU s':>12} {'queries':>8} {'lots':>7}"
        )
        for n in sizes:
            started = time.perf_counter()
            stage = Stage.objects.get(pk=build_stage(kind=kind, teams=n, rounds=ROUNDS))
            built = time.perf_counter() - started
            reset_queries()
            wall, cpu = time.perf_counter(), time.process_time()
            with CaptureQueriesContext(connection) as queries:
                table = standings_compute(stage=stage)
            wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
            assert len(table) == n, (len(table), n)
            # Not kept: the largest table (100,000 rows and their lists) alive through the recompute
            # slices was walked by every full collection of the cyclic collector in them (a
            # 10,000-team recompute 0.16 -> 0.27 s CPU): the bench's own heap, not the code's cost.
            del table
            lots = stage.lot_draws.count()
            print(f"{n:>8} {built:>8.1f} {wall:>13.2f} {cpu:>12.2f} {len(queries):>8} {lots:>7}")
            stages[n] = stage
            if kind == "swiss" and n == max(sizes):
                passed = wall <= FIRST_SWISS_TARGET_S
                label = f"first computation, Swiss {n} teams <= {FIRST_SWISS_TARGET_S:.0f} s"
                print(f"  {label}: {verdict.check(label, passed)}")
        per_call = interleaved(
            [lambda s=stages[n]: standings_compute(stage=s) for n in sizes], slices=slices, at_least=0.3
        )
        print(f"recompute, CPU s a call (median of {slices} interleaved slices) and growth per x10 teams")
        print(f"{'teams':>8} {'CPU s':>8}  {'growth min / median / max':<28} {'target':<8} result")
        for i, n in enumerate(sizes):
            median = sorted(per_call[i])[len(per_call[i]) // 2]
            if i == 0:
                print(f"{n:>8} {median:>8.3f}")
                continue
            growth = ratios(per_call[i], per_call[i - 1])
            # Per x10 teams, whatever the step between two sizes.
            per_ten = growth.values if sizes[i] == 10 * sizes[i - 1] else None
            label = f"{kind} recompute {sizes[i - 1]} -> {n} teams <= x{GROWTH_TARGET:.0f}"
            if per_ten is None:
                print(f"{n:>8} {median:>8.3f}  {growth.spread():<28} (not a x10 step)")
                continue
            result = verdict.check(label, growth.median <= GROWTH_TARGET)
            print(f"{n:>8} {median:>8.3f}  {growth.spread():<28} {'<= x12':<8} {result}")
    return verdict.exit_code()


if __name__ == "__main__":
    sys.exit(main())

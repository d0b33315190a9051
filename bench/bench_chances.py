"""Benchmark: Monte Carlo chances of a 32-team World Cup at the start of the group stage, on real
Celery workers through Redis, with 1 and with 2 worker processes.

Production shape on 127.0.0.1: PostgreSQL (a dedicated database, recreated) and Redis as broker.
The World Cup is built through the services with no result yet. First the engine estimates of
every pairing of set-ups the job needs are computed (fanned out on the workers too; they are
cached, so this is a one-off per set of set-ups) and timed apart. Then the timed part: a job of
10,000 runs in chunks of 250 (40 tasks), from `chances_start` until the merged figures are stored.

Targets: under 20 s with 2 workers, and at least 1.8x the 1-worker rate.

Run: ``. scripts/test-env.sh && .venv/bin/python bench/bench_chances.py [--runs 10000]``.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from isolation import create_database, isolate  # noqa: E402

SLUG = "bench-chances-cup"
TARGET_S = 20.0
SPEEDUP_TARGET = 1.8


def fail(message: str) -> int:
    print(f"bench_chances: {message}", file=sys.stderr)
    return 1


def bench_env() -> dict[str, str]:
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url.startswith("postgres") or not redis_url.startswith("redis"):
        raise SystemExit(
            fail("needs DATABASE_URL (PostgreSQL) and REDIS_URL: source scripts/test-env.sh first.")
        )
    env = dict(os.environ)
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": env.get("SECRET_KEY") or "bench-only-secret-key-0123456789abcdefghijklmnop",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "CHANCES_AUTO_RECOMPUTE": "0",
            "CHANCES_CHUNK_RUNS": env.get("CHANCES_CHUNK_RUNS", "250"),
            "LOG_LEVEL": "WARNING",
        }
    )
    return isolate(env, "chances")


def start_workers(env: dict[str, str], count: int) -> list[subprocess.Popen[bytes]]:
    procs = []
    for _ in range(count):
        name = f"bench-{uuid.uuid4().hex[:6]}@localhost"
        log = (ROOT / "var" / f"{name.split('@')[0]}.log").open("w")
        procs.append(
            subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "celery",
                    "-A",
                    "fubaleague",
                    "worker",
                    "--loglevel=WARNING",
                    "--concurrency=1",
                    "--pool=prefork",
                    f"--hostname={name}",
                    "--without-gossip",
                    "--without-mingle",
                    "--prefetch-multiplier=1",
                ],
                cwd=ROOT,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        )
    from fubaleague.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if len(app.control.ping(timeout=0.5)) >= count:
            return procs
    stop_workers(procs)
    raise SystemExit(fail("workers did not answer within 60 s"))


def stop_workers(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in procs:
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        try:
            p.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)


def wait_done(job_id: int, timeout: float = 900) -> float:
    from chances.models import ChancesJob

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = ChancesJob.objects.get(id=job_id)
        if job.status == ChancesJob.Status.DONE:
            return time.monotonic()
        if job.status == ChancesJob.Status.FAILED:
            raise SystemExit(fail(f"job {job_id} failed: {job.error}"))
        time.sleep(0.05)
    raise SystemExit(fail(f"job {job_id} not done after {timeout} s"))


def timed_job(competition_id: int, runs: int, seed: int) -> tuple[float, int]:
    from chances import services

    started = time.monotonic()
    job = services.chances_start(competition_id=competition_id, runs=runs, seed=seed)
    return wait_done(job.id) - started, job.id


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=10_000)
    args = parser.parse_args()
    env = bench_env()
    database = create_database(env)
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fubaleague.settings")
    import django

    django.setup()
    from django.core.management import call_command

    from chances.core import simulate_chunk
    from chances.models import ChancesJob
    from fubaleague.celery import app
    from league import demo
    from tournaments.models import Competition

    call_command("migrate", verbosity=0)
    app.control.purge()
    cup = demo.build_world_cup(slug=SLUG, name="Bench Chances Cup", play=False)
    Competition.objects.filter(id=cup.competition.id).update(status="active")
    load = os.getloadavg()
    broker = env.get("CELERY_BROKER_URL") or env["REDIS_URL"]
    engine = os.environ.get("FUBA_ENGINE", "auto")
    print(
        f"database {database} (its own), broker {broker}, engine {engine}, "
        f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} on {os.cpu_count()} CPUs"
    )

    rows = []
    procs = start_workers(env, 2)
    try:
        seconds, job_id = timed_job(cup.competition.id, 250, seed=1)
        job = ChancesJob.objects.get(id=job_id)
        print(f"engine estimates of {len(job.pairs)} set-up pairings (cached afterwards) "
              f"+ 250 runs, on 2 workers: {seconds:.1f} s")  # fmt: skip
    finally:
        stop_workers(procs)

    scenario = ChancesJob.objects.get(id=job_id).scenario
    started = time.perf_counter()
    simulate_chunk(scenario, seed=1, chunk=0, runs=500)
    in_process = 500 / (time.perf_counter() - started)

    for workers in (1, 2):
        procs = start_workers(env, workers)
        try:
            seconds, job_id = timed_job(cup.competition.id, args.runs, seed=7)
        finally:
            stop_workers(procs)
        rows.append((workers, seconds, args.runs / seconds))
    load = os.getloadavg()

    print(f"\n{'workers':>8} {'runs':>7} {'seconds':>8} {'runs/s':>8} {'speed-up':>9}")
    print(f"{'(inline)':>8} {500:>7} {500 / in_process:>8.2f} {in_process:>8.0f} {'':>9}")
    for workers, seconds, rate in rows:
        print(f"{workers:>8} {args.runs:>7} {seconds:>8.2f} {rate:>8.0f} {rate / rows[0][2]:>8.2f}x")
    print(f"load average after: {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}")
    two = rows[1]
    ok_time = two[1] < TARGET_S
    ok_speed = two[2] / rows[0][2] >= SPEEDUP_TARGET
    print(
        f"target < {TARGET_S:.0f} s with 2 workers: {'met' if ok_time else 'NOT met'}; "
        f"target >= {SPEEDUP_TARGET}x the 1-worker rate: {'met' if ok_speed else 'NOT met'}"
    )
    # A missed target fails the run (make bench says which benchmarks did).
    return 0 if ok_time and ok_speed else 1


if __name__ == "__main__":
    sys.exit(main())

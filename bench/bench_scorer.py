"""Benchmark: the live scorer under load.

Production shape on 127.0.0.1: gunicorn + PostgreSQL + the Redis cache. 50 fixtures are scored
at once, each by its own client thread posting events as fast as it can through the API
(``POST /api/v1/scoring-sessions/<id>/events``: "roll for me" for dice, else the default or the
first legal option, as a club tapping would), while wrk polls one session's live endpoint
(``/score/<id>/live.json``, what spectators and the other club's phone poll).

Targets: p99 of "post one event and get the next question" < 30 ms; the live endpoint at
>= 1,000 req/s with p99 < 50 ms while the sessions score.

Run: ``. scripts/test-env.sh && .venv/bin/python bench/bench_scorer.py [--duration 10] [--quick]``.
Needs wrk (Debian: ``apt-get install wrk``) and PostgreSQL + Redis as for ``make test``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import bench_web as web

ROOT = Path(__file__).resolve().parent.parent
SESSIONS = 50
POST_P99_TARGET_MS = 30.0
LIVE_RPS_TARGET = 1000.0
LIVE_P99_TARGET_MS = 50.0


def setup_sessions(n: int) -> list[tuple[int, str]]:
    """n fixtures of 2n teams, a club member with a token for each home team, a session each."""
    from django.contrib.auth import get_user_model
    from django.core.cache import cache
    from django.core.management import call_command
    from rest_framework.authtoken.models import Token

    from scoring import services as scoring
    from tournaments import services
    from tournaments.models import Club, Fixture, Stage, Team

    call_command("migrate", verbosity=0)
    cache.clear()
    competition = services.competition_create(name="Bench scorer", slug="bench-scorer")
    teams = []
    users = []
    for i in range(2 * n):
        club = Club.objects.create(name=f"Bench club {i}")
        teams.append(Team.objects.create(competition=competition, name=f"Team {i:03d}", club=club))
        if i % 2 == 0:
            user = get_user_model().objects.create_user(f"bench-scorer-{i}")
            club.members.add(user)
            users.append(user)
    stage = services.stage_create(
        competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams
    )
    out = []
    for i in range(n):
        fixture = Fixture.objects.create(
            competition=competition, stage=stage, round=1, home_team=teams[2 * i], away_team=teams[2 * i + 1]
        )
        session = scoring.session_start(fixture_id=fixture.id, user=users[i])
        out.append((session.id, Token.objects.create(user=users[i]).key))
    return out


def next_body(state: dict, n: int) -> dict:
    p = state["pending"]
    body: dict = {"client_id": f"b{state['session']}-{n}", "expected_seq": state["seq"] + 1}
    if p["kind"] == "roll":
        body["roll_for_me"] = True
    else:
        choice = p["default"] if p.get("default") is not None else p["options"][0]["value"]
        body["event"] = {"decide": p["name"], "by": p["actor"], "choice": choice}
    return body


def score(
    port: int,
    session_id: int,
    token: str,
    stop: threading.Event,
    out: list[float],
    errors: list[str],
    pace: float = 0.0,
) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    headers = {
        "Authorization": f"Token {token}",
        "Content-Type": "application/json",
        "Accept": "application/json",
    }
    conn.request("GET", f"/api/v1/scoring-sessions/{session_id}", headers=headers)
    state = json.loads(conn.getresponse().read())
    n = 0
    while not stop.is_set() and state.get("pending") is not None:
        n += 1
        body = json.dumps(next_body(state, n))
        started = time.perf_counter()
        conn.request("POST", f"/api/v1/scoring-sessions/{session_id}/events", body=body, headers=headers)
        response = conn.getresponse()
        data = response.read()
        out.append((time.perf_counter() - started) * 1000)
        if response.status not in (200, 201):
            errors.append(f"{response.status} {data[:200]!r}")
            return
        state = json.loads(data)
        if pace:
            stop.wait(max(0.0, pace - (time.perf_counter() - started)))


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=int, default=10, help="seconds of measured load (default 10)")
    parser.add_argument("--quick", action="store_true", help="3-second run, for a smoke test")
    parser.add_argument(
        "--pace-ms",
        type=int,
        default=0,
        help="each session posts at most one event per this many ms (default 0: as fast as it can)",
    )
    parser.add_argument("--workers", type=int, default=max(2, os.cpu_count() or 2) * 2)
    parser.add_argument("--threads", type=int, default=1, help="gthread threads per worker (1: sync workers)")
    args = parser.parse_args()
    duration = 3 if args.quick else max(1, min(args.duration, 60))
    if shutil.which("wrk") is None:
        return web.fail("wrk is not installed: `apt-get install wrk` (Debian/Ubuntu), then run again.")

    web.BENCH_DB = "fubaleague_bench_scorer"
    env = web.bench_env()
    env["CACHE_KEY_PREFIX"] = "bench-scorer"
    print(
        f"database {web.BENCH_DB} on 127.0.0.1 (recreated), Redis cache, gunicorn {args.workers} sync workers"
    )
    web.recreate_database(env)
    web.setup_django(env)
    sessions = setup_sessions(SESSIONS)
    from django.db import connections

    connections.close_all()

    port = web.free_port()
    base = f"http://127.0.0.1:{port}"
    server = web.start_gunicorn(env, port, args.workers, args.threads)
    latencies: list[float] = []
    errors: list[str] = []
    try:
        web.wait_ready(f"{base}/api/v1/ping", timeout=120)  # a loaded machine starts slowly
        live_url = f"{base}/score/{sessions[0][0]}/live.json"
        for _ in range(args.workers * 4):  # warm every worker
            web.urllib.request.urlopen(live_url, timeout=10).read()
        stop = threading.Event()
        threads = [
            threading.Thread(
                target=score,
                args=(port, sid, token, stop, latencies, errors, args.pace_ms / 1000),
                daemon=True,
            )
            for sid, token in sessions
        ]
        load_before = os.getloadavg()[0]
        for t in threads:
            t.start()
        time.sleep(1.0)  # every session scoring (and rebuilt once per worker) before measuring
        warm = len(latencies)
        live = web.run_wrk(live_url, duration)
        measured = latencies[warm:]
        stop.set()
        for t in threads:
            t.join(timeout=15)
        load_after = os.getloadavg()[0]
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)

    p50, p99 = percentile(measured, 0.50), percentile(measured, 0.99)
    post_ok = p99 < POST_P99_TARGET_MS and not errors
    live_ok = live["rps"] >= LIVE_RPS_TARGET and live["p99"] < LIVE_P99_TARGET_MS and not live["non2xx"]
    print()
    pacing = f"one event per {args.pace_ms} ms each" if args.pace_ms else "as fast as each can"
    print(f"{SESSIONS} sessions scoring ({pacing}) through gunicorn ({args.workers} workers)")
    print(f"wrk -t2 -c32 -d{duration}s on live.json while they score")
    print(f"machine load average {load_before:.1f} before, {load_after:.1f} after ({os.cpu_count()} CPUs)")
    print(f"{'measure':<40} {'value':>22}  {'target':<28} result")
    print("-" * 100)
    print(
        f"{'post event + next question':<40} {f'p50 {p50:.1f} / p99 {p99:.1f} ms':>22}  "
        f"{'p99 < 30 ms':<28} {'PASS' if post_ok else 'FAIL'}"
    )
    rate = f"({len(measured) / duration:.0f}/s)"
    print(f"{'  events posted while measured':<40} {len(measured):>22}  {rate:<28}")
    value = f"{live['rps']:.0f} req/s, p99 {live['p99']:.1f} ms"
    print(
        f"{'live endpoint (ETag, cached per version)':<40} {value:>22}  "
        f"{'>= 1000 req/s, p99 < 50 ms':<28} {'PASS' if live_ok else 'FAIL'}"
        + (f" ({int(live['non2xx'])} non-2xx)" if live["non2xx"] else "")
    )
    for e in errors[:3]:
        print(f"  error: {e}")
    return 0 if post_ok and live_ok else 1


if __name__ == "__main__":
    sys.exit(main())

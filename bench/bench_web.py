"""Benchmark: the public pages a crowd reads against a trivial DRF endpoint, in the same run.

Production shape on 127.0.0.1 only: gunicorn + PostgreSQL + the Redis cache. A 32-team World Cup
(part played, through the services) is loaded into a dedicated database; wrk (2 threads,
32 connections) measures each URL in short slices, round after round (ping, pages, ping, …):

    /api/v1/ping                                   trivial DRF endpoint (the reference)
    /c/<slug>/standings/, /api/v1/…/standings      the standings page and its API
    /c/<slug>/, fixtures/, bracket/, a team, a match   the other public pages (page_cache.py)

Targets, each the median over the rounds of the ratio to the ping's slice in the same round:
req/s at least 70% of the ping's, p99 at most 3x the ping's (a p99 in milliseconds holds only on
an idle machine); min / median / max of the ratios are printed.
Then 1,000 simulated readers (issue 33): the live centre's document (/c/<slug>/live.json, 8
matches being scored), the big screen's (/c/<slug>/screen.json) and the standings page, each
offered the polls of 1,000 readers every 1.5 s (about 667 req/s over 32 connections, each
revalidating with the last ETag it saw, as the pages do); target: the offered rate served
(at least 95%) with no error; req/s and p99 printed beside the standings page's.
Before the wrk rounds, in process: each public page rendered on a cache miss (its kept entry stale, the
standings it reads stored), its CPU per request interleaved with the ping's (target: median
ratio <= 3, issue 35); then each page on the miss after a result (one corrected through the
service before each request; the same target). Then: standings recomputation of a 1000-team Swiss event
after 10 rounds (target < 1 s).

Run: ``. scripts/test-env.sh && .venv/bin/python bench/bench_web.py [--duration 4] [--slices 3] [--quick]``.
Needs wrk (Debian: ``apt-get install wrk``) and PostgreSQL + Redis as for ``make test``.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from isolation import BENCH_REDIS_DB, create_database, isolate  # noqa: E402
from measure import Verdict, interleaved, load_line, ratios  # noqa: E402

BENCH_NAME = "web"
SLUG = "bench-world-cup"
# Against the trivial endpoint in the same run (a p99 in milliseconds holds on an idle machine only).
P99_RATIO_TARGET = 3.0
RATIO_TARGET = 0.70
SWISS_TARGET_S = 1.0
# 1,000 readers polling every 1.5 s (the live centre's and the live panel's interval).
READERS = 1000
READER_POLL_S = 1.5
SERVED_TARGET = 0.95
LIVE_MATCHES = 8
# A public page rendered on a cache miss, against the ping (issue 35: a miss cheap as well).
MISS_RATIO_TARGET = 3.0


def fail(message: str) -> int:
    print(f"bench_web: {message}", file=sys.stderr)
    return 1


def bench_env() -> dict[str, str]:
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not database_url.startswith("postgres") or not redis_url.startswith("redis"):
        raise SystemExit(
            fail("needs DATABASE_URL (PostgreSQL) and REDIS_URL: source scripts/test-env.sh first.")
        )
    parts = urlparse(database_url)
    for host in (parts.hostname, urlparse(redis_url).hostname):
        if host not in ("127.0.0.1", "localhost", "::1"):
            raise SystemExit(fail(f"only loopback services are benchmarked, not {host}"))
    env = dict(os.environ)
    env.update(
        {
            "DEBUG": "0",
            "SECRET_KEY": env.get("SECRET_KEY") or "bench-only-secret-key-0123456789abcdefghijklmnop",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "CELERY_TASK_ALWAYS_EAGER": "1",
            # As in production (scripts/test-env.sh turns it off for the unit tests): a result's
            # stale fragments rendered by the task after its commit (fubaleague/web/refresh.py).
            "PAGES_REFRESH": "1",
            # wrk sends thousands of requests a second from one address: production rates would
            # measure 429s. The throttle stays on (its Redis round trip is part of the cost) with
            # a limit wrk never reaches, in the same one-minute windows as production.
            "API_THROTTLE_ANON": "1000000000/minute",
            "API_THROTTLE_USER": "1000000000/minute",
            "LOG_LEVEL": "WARNING",
            "DB_CONN_MAX_AGE": "600",
        }
    )
    return isolate(env, BENCH_NAME)


def recreate_database(env: dict[str, str]) -> None:
    """This run's own database (bench/isolation.py), dropped when the run ends."""
    create_database(env)


def setup_django(env: dict[str, str]) -> None:
    os.environ.update(env)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fubaleague.settings")
    import django

    django.setup()


def load_world_cup() -> float:
    from django.conf import settings
    from django.core.management import call_command

    from league import demo

    call_command("migrate", verbosity=0)
    started = time.perf_counter()
    # (the set-up is not measured: no page is read while it is loaded, none rendered)
    settings.PAGES_REFRESH = False
    try:
        demo.build_world_cup(slug=SLUG, name="Bench World Cup")
    finally:
        settings.PAGES_REFRESH = True
    return time.perf_counter() - started


def start_live_matches(n: int = LIVE_MATCHES) -> int:
    """Start scoring ``n`` scheduled group matches (the live centre then has n cards), through the
    scorer's service as a club's phone does."""
    from django.contrib.auth import get_user_model

    from league.demo import club_username
    from scoring.services import session_start
    from tournaments.models import Fixture

    fixtures = Fixture.objects.filter(
        competition__slug=SLUG,
        status=Fixture.Status.SCHEDULED,
        home_team__isnull=False,
        away_team__isnull=False,
    ).select_related("home_team")[:n]
    users = get_user_model().objects
    for fixture in fixtures:
        session_start(fixture_id=fixture.pk, user=users.get(username=club_username(fixture.home_team.name)))
    return len(fixtures)


def readers_rows(base: str, duration: int, slices: int) -> list[tuple[str, dict[str, float]]]:
    """Each document under the polls of READERS readers, interleaved over ``slices`` rounds; the
    median slice of each."""
    rate = round(READERS / READER_POLL_S)
    docs = [
        ("trivial DRF endpoint", "/api/v1/ping"),
        ("standings page (HTML)", f"/c/{SLUG}/standings/"),
        ("live centre (live.json)", f"/c/{SLUG}/live.json"),
        ("big screen (screen.json)", f"/c/{SLUG}/screen.json"),
    ]
    runs: dict[str, list[dict[str, float]]] = {label: [] for label, _ in docs}
    for _ in range(slices):
        for label, path in docs:
            runs[label].append(run_wrk(base + path, duration, revalidate=True, rate=rate))
    ping = runs["trivial DRF endpoint"]
    rows = []
    for label, _ in docs:
        got = runs[label]
        rows.append(
            (
                label,
                {
                    "rps": statistics.median(r["rps"] for r in got),
                    "p99": statistics.median(r["p99"] for r in got),
                    "errors": sum(r["non2xx"] + r["socket_errors"] for r in got),
                    "offered": float(rate),
                    "vs_ping": ratios([r["rps"] for r in got], [r["rps"] for r in ping]).median,
                    "p99_vs_ping": ratios([r["p99"] for r in got], [r["p99"] for r in ping]).median,
                },
            )
        )
    return rows


def print_readers(rows: list[tuple[str, dict[str, float]]], verdict: Verdict) -> None:
    """Met when the readers' polls are served (>= 95% of the offered rate, no error), or, on a
    machine that cannot serve that rate even to the ping, when the document costs no more than
    the ping in the same round (the ratio targets of the pages above)."""
    offered = rows[0][1]["offered"] if rows else 0.0
    print(
        f"{READERS:,} readers polling every {READER_POLL_S} s with their ETag "
        f"(offered {offered:.0f} req/s over 32 connections): served >= {SERVED_TARGET:.0%}, "
        f"or req/s >= {RATIO_TARGET:.0%} and p99 <= {P99_RATIO_TARGET:.0f}x the ping's"
    )
    print(
        f"{'document':<26} {'req/s':>7} {'served':>7} {'p99 ms':>7} "
        f"{'req/s / ping':>12} {'p99 / ping':>10}  result"
    )
    print("-" * 88)
    for label, r in rows:
        served = r["rps"] / r["offered"] if r["offered"] else 0.0
        if label == "trivial DRF endpoint":
            result = "(reference)"
        else:
            cheap = r["vs_ping"] >= RATIO_TARGET and r["p99_vs_ping"] <= P99_RATIO_TARGET
            ok = (served >= SERVED_TARGET or cheap) and not r["errors"]
            result = verdict.check(f"{label}: {READERS} readers", ok)
        print(
            f"{label:<26} {r['rps']:>7.0f} {served:>7.0%} {r['p99']:>7.1f} "
            f"{r['vs_ping']:>12.2f} {r['p99_vs_ping']:>10.2f}  {result}"
        )
    print()


def swiss_recompute(teams: int = 1000, rounds: int = 10, seed: int = 1) -> dict[str, object]:
    """Seconds to recompute the standings of a Swiss stage with `rounds` played rounds.

    The rounds are paired by a simple points-ordered rule (the pairing service is not what is
    measured) and stored with bulk inserts; the timed call is the standings service itself.
    Timed best of 3 and first run: matches.standings.services.standings_compute, on the one
    records loader that pages, the API, the admin and qualification share.
    """
    from django.db import transaction

    from matches.models import Result
    from tournaments.models import Bye, Fixture, Stage, Team
    from tournaments.services.competitions import competition_create
    from tournaments.services.stages import stage_create

    rng = random.Random(seed)
    with transaction.atomic():
        competition = competition_create(name="Bench Swiss", slug="bench-swiss")
        team_objs = Team.objects.bulk_create(
            [Team(competition=competition, name=f"Swiss {i:04d}", country="") for i in range(teams)]
        )
        stage = stage_create(
            competition=competition, name="Swiss", kind=Stage.Kind.SWISS, teams=team_objs, swiss_rounds=rounds
        )
    ids = [t.pk for t in team_objs]
    points = dict.fromkeys(ids, 0)
    played: set[frozenset[int]] = set()
    number = 0
    for rnd in range(1, rounds + 1):
        order = sorted(ids, key=lambda t: (-points[t], rng.random()))
        fixtures, scores = [], []
        waiting = list(order)
        while len(waiting) >= 2:
            a = waiting.pop(0)
            j = next((k for k, b in enumerate(waiting) if frozenset((a, b)) not in played), 0)
            b = waiting.pop(j)
            played.add(frozenset((a, b)))
            number += 1
            fixtures.append(
                Fixture(
                    competition=competition,
                    stage=stage,
                    round=rnd,
                    round_name=f"Round {rnd}",
                    match_number=number,
                    home_team_id=a,
                    away_team_id=b,
                    status=Fixture.Status.CONFIRMED,
                )
            )
            h, g = rng.randint(0, 4), rng.randint(0, 4)
            scores.append((h, g))
            points[a] += 3 if h > g else 1 if h == g else 0
            points[b] += 3 if g > h else 1 if h == g else 0
        if waiting:
            Bye.objects.create(stage=stage, round=rnd, team_id=waiting[0])
            points[waiting[0]] += 3
        created = Fixture.objects.bulk_create(fixtures)
        Result.objects.bulk_create(
            [
                Result(fixture=f, home_goals=h, away_goals=g, source=Result.Source.ADMIN)
                for f, (h, g) in zip(created, scores, strict=True)
            ]
        )
    from matches.standings.services import standings_compute

    def best_of(fn) -> tuple[float, float, list]:  # type: ignore[no-untyped-def]
        timings, table = [], []
        for _ in range(3):
            started = time.perf_counter()
            table = fn(stage=stage)
            timings.append(time.perf_counter() - started)
        return min(timings), timings[0], table

    service = best_of(standings_compute)
    assert len(service[2]) == teams
    return {"service": service[:2], "results": Result.objects.filter(fixture__stage=stage).count()}


def miss_costs(pages: list[tuple[str, str]], verdict: Verdict, slices: int) -> None:
    """CPU seconds of this process per request of each public page on a cache miss (its kept
    entry made stale first: the standings the page reads stay stored, as after any change that
    does not touch them), interleaved with the ping's in short slices; printed as ratios.

    In-process through Django's test client (the full middleware stack, no gunicorn), so the
    figure is the app's own cost; the database's CPU is not counted on either side.
    """
    from django.core.cache import cache as shared_cache
    from django.test import Client

    from fubaleague.web.page_cache import live_marks
    from matches.standings import cache as page_versions
    from ratings.models import PAGES_SCOPE

    client = Client(HTTP_HOST="127.0.0.1")
    # A team's and a match's page are kept under the parts they show (anonymous_page's parts):
    # the competition's version leaves them kept, so their entry is dropped instead (as when it
    # expires), and the pieces they are assembled from stay kept, as for the other pages.
    by_parts = {f"/c/{SLUG}/teams/": "", f"/c/{SLUG}/matches/": "live"}

    def request(path: str, scope: str) -> None:
        kind = next((v for k, v in by_parts.items() if path.startswith(k) and path.endswith("/")), None)
        if kind is not None:
            page_versions.clear_local()
            live = f":live:{live_marks(SLUG)}" if kind else ""
            shared_cache.delete(f"standings:s:{SLUG}:page:{path}?{live}")
        elif scope:
            page_versions.invalidate_scope(scope)
        response = client.get(path)
        assert response.status_code == 200, path
        # (the standings page keeps its entry itself, without the header)
        assert not scope or response.get("X-Page-Cache", "miss") == "miss", path

    sides = [lambda: request("/api/v1/ping", "")]
    for _, path in pages:
        scope = PAGES_SCOPE if path.startswith("/ratings/") else SLUG
        sides.append(lambda path=path, scope=scope: request(path, scope))  # type: ignore[misc]
    for side in sides:  # warm: templates compiled, connections open
        side()
    cpu = interleaved(sides, slices=slices, at_least=0.2)
    print()
    print(f"a page on a cache miss: CPU ms of the app per request, {slices} interleaved slices")
    print(f"{'page':<24} {'CPU ms':>7}  {'/ ping min/med/max':<22} result")
    print("-" * 70)
    print(f"{'trivial DRF endpoint':<24} {statistics.median(cpu[0]) * 1000:>7.2f}  {'(reference)':<22}")
    for (label, _), costs in zip(pages, cpu[1:], strict=True):
        ratio = ratios(costs, cpu[0])
        result = verdict.check(
            f"{label} on a miss <= {MISS_RATIO_TARGET:.0f}x ping", ratio.median <= MISS_RATIO_TARGET
        )
        print(f"{label:<24} {statistics.median(costs) * 1000:>7.2f}  {ratio.spread():<22} {result}")


def result_costs(pages: list[tuple[str, str]], verdict: Verdict, slices: int, calls: int = 8) -> None:
    """Each page on the miss that a result makes (the match-day miss; target: median ratio to the
    ping <= MISS_RATIO_TARGET, issue 35): before each request a result counted through the
    service (the organisers' result_override of one fixture: set, then corrected; like a club's
    count it bumps the fixture's stage, the fixture, its teams, the ratings and the page
    versions; what its commit queues runs in process, CELERY_TASK_ALWAYS_EAGER, untimed). Only
    the page's request is timed (CPU of this process), in ``slices`` rounds interleaved with the
    ping's."""
    from django.contrib.auth import get_user_model
    from django.test import Client

    from matches.services import result_override
    from ratings.models import PAGES_SCOPE
    from tournaments.bracket import Score
    from tournaments.models import Fixture

    admin = get_user_model().objects.filter(is_superuser=True).first()
    # A match not played yet (a knockout one first): its result, then corrected to the same
    # winner, fills the next round's slot once and moves nothing played.
    fixture = (
        Fixture.objects.filter(
            competition__slug=SLUG,
            status=Fixture.Status.SCHEDULED,
            home_team__isnull=False,
            away_team__isnull=False,
        )
        .order_by("-stage__order", "round", "id")
        .first()
    )
    assert admin is not None and fixture is not None
    client = Client(HTTP_HOST="127.0.0.1")
    scores = [Score(2, 1), Score(3, 1)]
    counted = 0
    # How each page request after a result was answered (X-Page-Cache; the standings page keeps
    # its entry without the header): a page the refresh task kept is a hit.
    answered: dict[str, int] = {}

    def timed(path: str, scope: str) -> float:
        nonlocal counted
        if scope:
            result_override(fixture_id=fixture.pk, user=admin, score=scores[counted % 2], note="bench")
            counted += 1
        started = time.process_time()
        response = client.get(path)
        spent = time.process_time() - started
        assert response.status_code == 200, path
        if scope:
            how = response.get("X-Page-Cache", "no header")
            answered[how] = answered.get(how, 0) + 1
        return spent

    paths = [
        ("/api/v1/ping", ""),
        *((p, PAGES_SCOPE if p.startswith("/ratings/") else SLUG) for _, p in pages),
    ]
    for path, scope in paths:  # warm
        timed(path, scope)
    cpu: list[list[float]] = [[] for _ in paths]
    for _ in range(slices):
        for i, (path, scope) in enumerate(paths):
            cpu[i].append(sum(timed(path, scope) for _ in range(calls)) / calls)
    print()
    print(f"after a result: CPU ms of the app per request, {slices} interleaved slices")
    print(f"{'page':<24} {'CPU ms':>7}  {'/ ping min/med/max':<22} result")
    print("-" * 70)
    print(f"{'trivial DRF endpoint':<24} {statistics.median(cpu[0]) * 1000:>7.2f}  {'(reference)':<22}")
    for (label, _), costs in zip(pages, cpu[1:], strict=True):
        ratio = ratios(costs, cpu[0])
        result = verdict.check(
            f"{label} after a result <= {MISS_RATIO_TARGET:.0f}x ping", ratio.median <= MISS_RATIO_TARGET
        )
        print(f"{label:<24} {statistics.median(costs) * 1000:>7.2f}  {ratio.spread():<22} {result}")
    print(f"({counted} results of {fixture} through the service, set then corrected: 2-1, 3-1, 2-1, ...)")
    print(f"(the requests after a result, by X-Page-Cache: {answered}; the refresh task keeps the pages)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_gunicorn(env: dict[str, str], port: int, workers: int, threads: int = 1) -> subprocess.Popen[bytes]:
    """gunicorn on 127.0.0.1:port: sync workers, or gthread workers when ``threads`` > 1."""
    gunicorn = str(Path(sys.executable).parent / "gunicorn")
    cmd = [
        gunicorn,
        "fubaleague.wsgi",
        "--bind",
        f"127.0.0.1:{port}",
        "--workers",
        str(workers),
        "--worker-class",
        "gthread" if threads > 1 else "sync",
        "--threads",
        str(threads),
        "--backlog",
        "256",
        "--log-level",
        "warning",
    ]
    # Own process group: the whole server (master and workers) is stopped together at the end.
    return subprocess.Popen(cmd, cwd=ROOT, env=env, start_new_session=True)


def wait_ready(url: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(fail(f"gunicorn did not answer {url} within {timeout:.0f} s"))


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


# A poll as the scorer page and the live panel make it: revalidating with the ETag it last saw.
REVALIDATE_LUA = """
local etag = nil
request = function()
  if etag then return wrk.format("GET", nil, {["If-None-Match"] = etag}) end
  return wrk.format("GET")
end
response = function(status, headers, body)
  if headers["ETag"] then etag = headers["ETag"] end
end
"""


def run_wrk(url: str, duration: int, *, revalidate: bool = False, rate: int = 0) -> dict[str, float]:
    """wrk -t2 -c32 against url; with ``revalidate`` each connection sends the last ETag it saw;
    with ``rate`` each connection waits between requests so that the 32 offer about ``rate``
    requests a second (else they ask as fast as answers come: the server's capacity)."""
    extra: list[str] = []
    script = None
    if revalidate or rate:
        script = tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False)  # noqa: SIM115
        script.write(REVALIDATE_LUA if revalidate else "")
        if rate:
            script.write(f"delay = function() return {max(1, round(32 * 1000 / rate))} end\n")
        script.close()
        extra = ["-s", script.name]
    try:
        out = subprocess.run(
            ["wrk", "-t2", "-c32", f"-d{duration}s", "--latency", "--timeout", "5s", *extra, url],
            capture_output=True,
            text=True,
            check=True,
            timeout=duration + 30,
        ).stdout
    finally:
        if script is not None:
            os.unlink(script.name)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))  # type: ignore[union-attr]
    p99_match = re.search(r"^\s+99%\s+([\d.]+)(us|ms|s|m)\s*$", out, re.MULTILINE)
    p99 = float(p99_match.group(1)) * _UNITS[p99_match.group(2)] if p99_match else float("nan")
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", out)
    errors = re.search(r"Socket errors:.*", out)
    return {
        "rps": rps,
        "p99": p99,
        "non2xx": float(non2xx.group(1)) if non2xx else 0.0,
        "socket_errors": 1.0 if errors else 0.0,
    }


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--duration", type=int, default=4, help="seconds per wrk slice (default 4)")
    parser.add_argument("--quick", action="store_true", help="3-second runs, for a smoke test")
    parser.add_argument("--workers", type=int, default=max(2, os.cpu_count() or 2))
    parser.add_argument("--slices", type=int, default=3, help="rounds over the URLs (default 3)")
    parser.add_argument(
        "--miss-only", action="store_true", help="only the pages on a cache miss (no Swiss, no wrk)"
    )
    args = parser.parse_args()
    duration = 2 if args.quick else max(1, min(args.duration, 60))
    verdict = Verdict("bench_web")
    print(f"bench_web: {load_line()}")

    if shutil.which("wrk") is None and not args.miss_only:
        return fail("wrk is not installed: `apt-get install wrk` (Debian/Ubuntu), then run again.")

    env = bench_env()
    database = env["DATABASE_URL"].rsplit("/", 1)[-1]
    print(
        f"database {database} on 127.0.0.1 (its own), Redis db {BENCH_REDIS_DB}, "
        f"gunicorn {args.workers} workers"
    )
    recreate_database(env)
    setup_django(env)
    load_seconds = load_world_cup()
    print(f"loaded a 32-team World Cup through the services in {load_seconds:.1f} s")
    swiss = {} if args.miss_only else swiss_recompute()

    from django.db import connections

    connections.close_all()

    from tournaments.models import Fixture

    played = Fixture.objects.filter(competition__slug=SLUG, status=Fixture.Status.CONFIRMED).first()
    assert played is not None and played.home_team_id is not None
    from matches.models import MatchLog

    replayed = MatchLog.objects.filter(fixture__competition__slug=SLUG, is_simulated=True).first()
    assert replayed is not None
    public_pages = [
        ("competition home", f"/c/{SLUG}/"),
        ("standings page", f"/c/{SLUG}/standings/"),
        ("fixtures", f"/c/{SLUG}/fixtures/"),
        ("bracket", f"/c/{SLUG}/bracket/"),
        ("team page", f"/c/{SLUG}/teams/{played.home_team_id}/"),
        ("match page", f"/c/{SLUG}/matches/{played.pk}/"),
        ("replay", f"/c/{SLUG}/matches/{replayed.fixture_id}/replay.json"),
        ("live centre", f"/c/{SLUG}/live/"),
        ("coach ratings", "/ratings/"),
    ]
    miss_costs(public_pages, verdict, args.slices)
    result_costs(public_pages, verdict, args.slices)
    if args.miss_only:
        return verdict.exit_code()
    live = start_live_matches()
    print(f"{live} matches being scored live (the live centre's cards)")
    connections.close_all()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_gunicorn(env, port, args.workers)
    targets = [
        ("trivial DRF endpoint", "/api/v1/ping"),
        ("standings page (HTML)", f"/c/{SLUG}/standings/"),
        ("standings API (JSON)", f"/api/v1/competitions/{SLUG}/standings"),
        ("competition home", f"/c/{SLUG}/"),
        ("fixtures", f"/c/{SLUG}/fixtures/"),
        ("bracket", f"/c/{SLUG}/bracket/"),
        ("team page", f"/c/{SLUG}/teams/{played.home_team_id}/"),
        ("match page", f"/c/{SLUG}/matches/{played.pk}/"),
    ]
    # Each URL in short slices, round after round (ping, pages, ping, pages, ...): a burst of
    # other load on the machine falls on the reference and on the pages alike.
    slices: dict[str, list[dict[str, float]]] = {path: [] for _, path in targets}
    try:
        wait_ready(f"{base}/api/v1/ping")
        for _, path in targets:  # warm the caches and every worker's connections
            for _ in range(args.workers * 4):
                with urllib.request.urlopen(base + path, timeout=10) as response:
                    assert response.status == 200, path
        for _ in range(args.slices):
            for _, path in targets:
                slices[path].append(run_wrk(base + path, duration))
        readers = readers_rows(base, duration, args.slices)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)

    ping = slices["/api/v1/ping"]
    print()
    print(
        f"wrk -t2 -c32, {args.slices} rounds of {duration} s a URL, 127.0.0.1, "
        f"{args.workers} gunicorn workers"
    )
    print(
        f"{'endpoint':<24} {'req/s':>7} {'p99 ms':>7}  {'req/s / ping min/med/max':<26} "
        f"{'p99 / ping':<20} result"
    )
    print("-" * 100)
    for label, path in targets:
        runs = slices[path]
        rps = statistics.median(r["rps"] for r in runs)
        p99 = statistics.median(r["p99"] for r in runs)
        throughput = ratios([r["rps"] for r in runs], [r["rps"] for r in ping])
        latency = ratios([r["p99"] for r in runs], [r["p99"] for r in ping])
        if path == "/api/v1/ping":
            result = "(reference)"
        else:
            errors = sum(r["non2xx"] + r["socket_errors"] for r in runs)
            passed = throughput.median >= RATIO_TARGET and latency.median <= P99_RATIO_TARGET and not errors
            result = verdict.check(
                f"{label}: req/s >= {RATIO_TARGET:.0%} and p99 <= {P99_RATIO_TARGET:.0f}x ping", passed
            )
        print(
            f"{label:<24} {rps:>7.0f} {p99:>7.1f}  {throughput.spread():<26} {latency.spread():<20} {result}"
        )
    print()
    print_readers(readers, verdict)
    best_service, first_service = swiss["service"]  # type: ignore[misc]
    swiss_ok = (
        verdict.check(f"Swiss 1000 recompute < {SWISS_TARGET_S:.0f} s", best_service < SWISS_TARGET_S)
        == "met"
    )
    print(f"standings recomputation, Swiss 1000 teams, 10 rounds ({swiss['results']} results), target < 1 s")
    print(f"{'path':<50} {'best s':>8} {'first s':>8}  result")
    print("-" * 78)
    print(
        f"{'matches.standings.services.standings_compute':<50} "
        f"{best_service:>8.3f} {first_service:>8.3f}  {'met' if swiss_ok else 'NOT met'}"
    )
    return verdict.exit_code()


if __name__ == "__main__":
    sys.exit(main())

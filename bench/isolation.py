"""What keeps a benchmark run out of the way of `make test` and of another benchmark run.

Each run gets a database of its own (``fubaleague_bench_<name>_<pid>``, created here and dropped
when the run ends, never a shared name), a Redis database of its own (``BENCH_REDIS_DB``, 13 by
default: the tests use 15 and 14, see scripts/test-env.sh) and a key prefix naming the run (the cache's
and the Celery broker's), so it never has to clear a cache another process reads and deletes its own
keys when it ends.
"""

from __future__ import annotations

import atexit
import os
from pathlib import Path
from urllib.parse import urlparse, urlunparse

# At import, not in the exit hook: redis imports concurrent.futures, which registers an exit
# hook of its own, refused once the interpreter is shutting down (a run that failed early then
# left its keys behind, with a traceback for the clean-up instead of its own error)
import redis

ROOT = Path(__file__).resolve().parent.parent
BENCH_REDIS_DB = os.environ.get("BENCH_REDIS_DB", "13")


def run_name(bench: str) -> str:
    return f"fubaleague_bench_{bench}_{os.getpid()}"


def redis_for_bench(url: str) -> str:
    """The same Redis server, on the benchmarks' own database number."""
    return urlunparse(urlparse(url)._replace(path=f"/{BENCH_REDIS_DB}"))


def isolate(env: dict[str, str], bench: str) -> dict[str, str]:
    """``env`` pointed at this run's own database, Redis database and key prefix."""
    name = run_name(bench)
    parts = urlparse(env["DATABASE_URL"])
    env["DATABASE_URL"] = urlunparse(parts._replace(path="/" + name))
    env["REDIS_URL"] = redis_for_bench(env["REDIS_URL"])
    if env.get("CELERY_BROKER_URL"):
        env["CELERY_BROKER_URL"] = redis_for_bench(env["CELERY_BROKER_URL"])
    env["CACHE_KEY_PREFIX"] = name
    env["CELERY_KEY_PREFIX"] = f"{name}:"
    (ROOT / "var").mkdir(exist_ok=True)
    urls = {env["REDIS_URL"], env.get("CELERY_BROKER_URL") or env["REDIS_URL"]}
    atexit.register(forget_keys, urls, name)
    return env


def forget_keys(urls: set[str], name: str) -> None:
    """Delete this run's keys (cache, throttle, broker: all named after the run) at its end:
    a run leaves nothing behind in the benchmarks' Redis database."""
    left = 0
    for url in urls:
        client = redis.Redis.from_url(url)
        try:
            keys = list(client.scan_iter(match=f"{name}*", count=1000))
            for start in range(0, len(keys), 500):
                client.delete(*keys[start : start + 500])
            left += len(client.keys(f"{name}*"))
        except redis.RedisError as exc:
            print(f"{name}: could not delete its Redis keys: {exc}")
        finally:
            client.close()
    if left:
        print(f"{name}: {left} Redis keys still there after the clean-up")


def create_database(env: dict[str, str]) -> str:
    """Create this run's database (dropped at exit) and return its name."""
    import psycopg

    parts = urlparse(env["DATABASE_URL"])
    name = parts.path.lstrip("/")
    admin_url = urlunparse(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')

    def drop() -> None:
        # The run's own database: whatever of this run still holds a connection goes with it.
        with psycopg.connect(admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    atexit.register(drop)
    return name

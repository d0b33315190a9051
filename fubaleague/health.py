"""Dependency probes behind /healthz.

Each probe returns a small dict so the endpoint can report every dependency at
once; a failing probe never raises, because a health endpoint that 500s tells an
operator less than one that says which component is down.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection

from fubaleague.celery import app
from fubaleague.tasks import BEAT_KEY
from fubaleague.worker import WORKER_HEARTBEAT_KEY, heartbeat_seconds
from kernel import broker
from kernel.cache import redis_link
from kernel.fail_open import fail_open_counts

Probe = dict[str, Any]


def _timed(check: Callable[[], str]) -> Probe:
    started = time.perf_counter()
    try:
        detail = check()
    except Exception as exc:  # noqa: BLE001 - any failure means "down", reported as text
        return {
            "status": "down",
            "error": f"{type(exc).__name__}: {exc}",
            "ms": round((time.perf_counter() - started) * 1000, 1),
        }
    return {"status": "up", "detail": detail, "ms": round((time.perf_counter() - started) * 1000, 1)}


def check_database() -> Probe:
    def probe() -> str:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return connection.vendor

    return _timed(probe)


def check_cache() -> Probe:
    def probe() -> str:
        link = redis_link()
        if link is not None:
            client = link.client
            # Redis itself, past the fail-open backend (which would answer a miss, not an error).
            key = cache.make_and_validate_key(f"healthz:{uuid.uuid4().hex}")
            client.set(key, b"ok", ex=5)
            if client.get(key) != b"ok":
                raise RuntimeError("value written to the cache could not be read back")
            client.delete(key)
            return str(settings.CACHES["default"]["BACKEND"]).rsplit(".", 1)[-1]
        key = f"healthz:{uuid.uuid4().hex}"
        cache.set(key, "ok", timeout=5)
        value = cache.get(key)
        cache.delete(key)
        if value != "ok":
            raise RuntimeError("value written to the cache could not be read back")
        return str(settings.CACHES["default"]["BACKEND"]).rsplit(".", 1)[-1]

    return _timed(probe)


def check_broker() -> Probe:
    def probe() -> str:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            return "eager (tasks run in-process, no broker)"
        return broker.probe(app)

    return _timed(probe)


def check_worker() -> Probe:
    """A Celery worker is consuming: the heartbeat its consumer writes (fubaleague/worker.py) is
    fresh. Without one, queued work waits, so the service is degraded even though every request
    is still answered."""

    def probe() -> str:
        if settings.CELERY_TASK_ALWAYS_EAGER:
            return "eager (tasks run in-process, no worker)"
        beat = cache.get(WORKER_HEARTBEAT_KEY)
        if not isinstance(beat, dict):
            raise RuntimeError(
                f"no worker heartbeat in the last {3 * heartbeat_seconds()} s: no worker is consuming"
            )
        return f"{beat.get('hostname')}, {time.time() - float(beat.get('at', 0)):.0f} s ago"

    return _timed(probe)


def beat_info() -> dict[str, Any]:
    """When beat last had a heartbeat executed; informational, since beat may run elsewhere."""
    try:
        return {"last_heartbeat": cache.get(BEAT_KEY)}
    except Exception as exc:  # noqa: BLE001 - the cache probe already reports the outage
        return {"last_heartbeat": None, "error": type(exc).__name__}


def run_checks() -> tuple[bool, dict[str, Probe]]:
    checks = {
        "database": check_database(),
        "cache": check_cache(),
        "broker": check_broker(),
        "worker": check_worker(),
    }
    healthy = all(item["status"] == "up" for item in checks.values())
    return healthy, checks


def fail_open_report() -> dict[str, Any]:
    """Operations this process served without Redis (cache, throttle, broker_publish)."""
    return fail_open_counts()

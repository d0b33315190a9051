"""Counts of what this process did without Redis, for /healthz."""

from __future__ import annotations

import threading
import time
from typing import Any

# What this process did without Redis (the cache, the rate limits, the task queue) since it
# started: the service fails open there (docs/reliability.md), and /healthz says how often.
_fail_open: dict[str, dict[str, Any]] = {}
_fail_open_lock = threading.Lock()


def record_fail_open(component: str) -> None:
    """Count one operation that went on without a Redis-backed component."""
    with _fail_open_lock:
        entry = _fail_open.setdefault(component, {"count": 0, "last": None})
        entry["count"] += 1
        entry["last"] = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def fail_open_counts() -> dict[str, dict[str, Any]]:
    with _fail_open_lock:
        return {name: dict(entry) for name, entry in _fail_open.items()}

"""Queueing a task from a request: bounded in time, never an error for the client.

A broker that is down refuses a connection at once, but a hung one (a Redis under SIGSTOP, a
network that drops packets) accepts it and never answers: Celery's publish waited on the socket
until gunicorn killed the worker after 30 s, and the client, answered 500, retried into a 409
although its submission was stored. Here every publish on a request path goes through
``publish``: its own connection with short socket timeouts (BROKER_PUBLISH_TIMEOUT, 0.25 s, for
connecting and for each reply), no retry (kombu's reconnecting retries took 1.8 s against a hung
Redis), and, after a publish that waited out its
timeouts, no attempt at all for BREAKER_SECONDS, so a request that queues several tasks waits
for a hung broker once. A task that could not
be queued is logged and counted in /healthz (``fail_open.broker_publish``); its caller decides
what finishes the work (the validation sweep, docs/reliability.md).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import Any

from kernel.env import env_float
from kernel.fail_open import record_fail_open

logger = logging.getLogger("fubaleague.broker")

BREAKER_SECONDS = 2.0

_down_until = 0.0
_lock = threading.Lock()


def publish_timeout() -> float:
    return env_float("BROKER_PUBLISH_TIMEOUT", 0.25, minimum=0.01)


def publish(task: Any, args: Sequence[Any] = (), *, countdown: float | None = None) -> bool:
    """Queue ``task`` (a task or a signature, a group too) with ``args``; False (logged, counted)
    when the broker did not take it in time."""
    global _down_until
    what = f"{getattr(task, 'name', None) or task!r}{tuple(args)}"
    if time.monotonic() < _down_until:
        record_fail_open("broker_publish")
        logger.warning("%s not queued: the broker failed a moment ago", what)
        return False
    timeout = publish_timeout()
    options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    started = time.monotonic()
    try:
        with task.app.connection_for_write(transport_options=options, connect_timeout=timeout) as conn:
            extra = {"countdown": countdown} if countdown is not None else {}
            task.apply_async(tuple(args), connection=conn, retry=False, **extra)
    except Exception as exc:  # noqa: BLE001 - whatever the transport raises, the request goes on
        if time.monotonic() - started >= timeout:
            # It waited (a hung broker): the next publishes of this process do not, for a while.
            # A refused connection costs nothing, so it opens no breaker.
            with _lock:
                _down_until = time.monotonic() + BREAKER_SECONDS
        record_fail_open("broker_publish")
        logger.warning("%s not queued (%s: %s)", what, type(exc).__name__, exc)
        return False
    return True


def probe(app: Any) -> str:
    """A round trip to the broker within the publish timeouts (for /healthz): what it is, or an
    exception. Connecting is not enough: a hung Redis accepts connections."""
    timeout = publish_timeout()
    options = {"socket_timeout": timeout, "socket_connect_timeout": timeout}
    with app.connection_for_write(transport_options=options, connect_timeout=timeout) as conn:
        conn.ensure_connection(max_retries=1, timeout=timeout)
        client = getattr(conn.default_channel, "client", None)
        if client is not None and hasattr(client, "ping"):
            client.ping()  # the Redis transport's client
        return f"{conn.transport_cls} at {conn.as_uri()}"

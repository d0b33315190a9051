"""The Celery worker's consumer, made to survive a broker outage (docs/reliability.md).

A worker nearly always holds a task it has not acknowledged: acks_late, and after every counted
result a chances recomputation waits out its countdown in the worker. When Redis goes away,
Celery 5.7's consumer collects the broken connection and then closes it; closing the channel
tries to put the unacknowledged messages back into the queue, the Redis transport asks the
collected connection for its address, and the AttributeError that follows is not a connection
error: the worker exits for good ("Unrecoverable error: AttributeError: 'NoneType' object has no
attribute 'hostname'"). Here that close is allowed to fail, and the messages it could not put
back are put back (from Redis's own record of unacknowledged messages) as soon as the next
connection is up, instead of waiting out the visibility timeout (an hour). The consumer drops
its in-memory copies of them on a connection loss, so each runs once.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from celery import bootsteps
from celery.worker.consumer import Consumer as CeleryConsumer
from django.core.cache import cache

from kernel.env import env_int

logger = logging.getLogger("fubaleague.worker")


class Consumer(CeleryConsumer):
    _unrestored: list[str]

    def on_connection_error_after_connected(self, exc: Exception) -> None:
        qos = _qos(self.connection)
        try:
            super().on_connection_error_after_connected(exc)
        except AttributeError as error:
            logger.warning("broker connection closed with an error (%s); reconnecting", error)
        tags = list(getattr(qos, "_delivered", {}) or {}) if qos is not None else []
        if tags:
            logger.warning("%d unacknowledged message(s) to put back once the broker is back", len(tags))
        self._unrestored = [*getattr(self, "_unrestored", []), *tags]

    def connect(self) -> Any:
        conn = super().connect()
        tags, self._unrestored = list(getattr(self, "_unrestored", [])), []
        if tags:
            qos = conn.default_channel.qos
            restored = 0
            for tag in tags:
                try:
                    qos.restore_by_tag(tag)
                    restored += 1
                except Exception as error:  # noqa: BLE001 - the visibility timeout restores it later
                    logger.warning("message %s not put back now (%s); Redis will", tag, error)
            logger.info("put back %d unacknowledged message(s) after the broker outage", restored)
        return conn


def _qos(connection: Any) -> Any:
    """The QoS (the record of unacknowledged messages) of the connection's default channel."""
    channel = getattr(connection, "_default_channel", None) if connection is not None else None
    return getattr(channel, "qos", None) if channel is not None else None


# /healthz reads this: a worker that is consuming writes it every WORKER_HEARTBEAT_SECONDS, and
# it expires after three missed beats (docs/reliability.md).
WORKER_HEARTBEAT_KEY = "celery:worker-heartbeat"


def heartbeat_seconds() -> int:
    return env_int("WORKER_HEARTBEAT_SECONDS", 10, minimum=1)


class Heartbeat(bootsteps.StartStopStep):
    """Write the worker heartbeat from the consumer's event loop: it runs only while the consumer
    is connected and its loop turns, so a worker that stopped consuming stops beating."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.tref: Any = None

    def start(self, parent: Any) -> None:
        self.beat(parent)
        self.tref = parent.timer.call_repeatedly(heartbeat_seconds(), self.beat, (parent,))

    def stop(self, parent: Any) -> None:
        if self.tref is not None:
            self.tref.cancel()
            self.tref = None

    def beat(self, parent: Any) -> None:
        # The cache fails open: with Redis away the beat is lost, and /healthz says so.
        cache.set(
            WORKER_HEARTBEAT_KEY,
            {"hostname": parent.hostname, "at": time.time()},
            timeout=3 * heartbeat_seconds(),
        )

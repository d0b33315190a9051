"""Django's Redis cache backend: one redis client per connection pool, failing open.

django.core.cache.backends.redis builds a new ``redis.Redis`` object for every cache operation;
with redis-py 8 that constructor copies ~170 response callbacks (about 0.5 ms of CPU), which
dominated the cost of a cached page and of DRF throttling (two cache operations per throttle).
The client object is thread-safe (it only holds the pool), so one per pool is enough.

The cache only makes reads faster, so Redis being down must not take the site down with it
(every API call and the competition pages use the cache). Every operation that
fails with a Redis or socket error answers as a miss (get → default, add → False, set and
delete do nothing), is logged (once per outage) and counted for /healthz; for BREAKER_SECONDS
after a failure the backend does not try Redis at all, so an outage costs no connection attempt
per operation. /healthz probes Redis itself, past the breaker (fubaleague/health.py).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

import redis
from django.core.cache import caches
from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient
from redis.exceptions import RedisError

from kernel.fail_open import record_fail_open

logger = logging.getLogger("fubaleague.cache")

T = TypeVar("T")
# What a Redis that is down, restarting or unreachable raises (redis-py wraps most socket errors).
REDIS_DOWN = (RedisError, OSError)
BREAKER_SECONDS = 2.0


class PooledRedisCacheClient(RedisCacheClient):
    """Django's client with one redis client per pool.

    The only module that touches Django's private client API (``_get_connection_pool``,
    ``_client``, and the backend's ``_class`` and ``_cache`` below); tests/service/
    test_cache_fail_open.py checks they are still there, so a Django upgrade that changes them
    fails a test instead of silently building a client per operation again.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._clients: dict[int, redis.Redis] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]  # Django's private API
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class RedisCache(DjangoRedisCache):
    def __init__(self, server: str, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = PooledRedisCacheClient
        self._down_until = 0.0
        self._lock = threading.Lock()

    def raw_client(self, key: str | None = None) -> redis.Redis:
        """The redis client for writes (pipelines, scripts, probes past the fail-open methods)."""
        client = self._cache  # Django's cached client, built from self._class
        if not isinstance(client, PooledRedisCacheClient):
            raise TypeError(
                f"Django's RedisCache no longer builds its client from _class: got {type(client)}"
            )
        return client.get_client(key, write=True)

    @property
    def is_down(self) -> bool:
        """True while the breaker is open after a failed operation."""
        return time.monotonic() < self._down_until

    def redis_failed(self, operation: str, exc: BaseException) -> None:
        """Open the breaker, count the operation in /healthz, log once per outage."""
        with self._lock:
            was_up = not self.is_down
            self._down_until = time.monotonic() + BREAKER_SECONDS
        record_fail_open("cache")
        if was_up:
            logger.warning(
                "Redis cache unavailable (%s: %s: %s); serving without it for %ss before trying again",
                operation, type(exc).__name__, exc, BREAKER_SECONDS,
            )  # fmt: skip

    def _guard(self, operation: str, call: Callable[[], T], default: T) -> T:
        if self.is_down:
            record_fail_open("cache")
            return default
        try:
            return call()
        except REDIS_DOWN as exc:
            self.redis_failed(operation, exc)
            return default

    def get(self, key: Any, default: Any = None, version: int | None = None) -> Any:
        return self._guard("get", lambda: super(RedisCache, self).get(key, default, version), default)

    def get_many(self, keys: Any, version: int | None = None) -> Any:
        return self._guard("get_many", lambda: super(RedisCache, self).get_many(keys, version), {})

    def has_key(self, key: Any, version: int | None = None) -> bool:
        return self._guard("has_key", lambda: super(RedisCache, self).has_key(key, version), False)

    def add(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        call = lambda: super(RedisCache, self).add(key, value, timeout, version)  # noqa: E731
        return self._guard("add", call, False)

    def set(self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> None:
        call = lambda: super(RedisCache, self).set(key, value, timeout, version)  # noqa: E731
        self._guard("set", call, None)

    def set_many(self, data: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> list[Any]:
        call = lambda: super(RedisCache, self).set_many(data, timeout, version)  # noqa: E731
        return self._guard("set_many", call, list(data))

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: int | None = None) -> bool:
        call = lambda: super(RedisCache, self).touch(key, timeout, version)  # noqa: E731
        return self._guard("touch", call, False)

    def delete(self, key: Any, version: int | None = None) -> bool:
        return self._guard("delete", lambda: super(RedisCache, self).delete(key, version), False)

    def delete_many(self, keys: Any, version: int | None = None) -> None:
        self._guard("delete_many", lambda: super(RedisCache, self).delete_many(keys, version), None)

    def incr(self, key: Any, delta: int = 1, version: int | None = None) -> int:
        # Counters restart from the delta while Redis is away (the limits fail open too).
        return self._guard("incr", lambda: super(RedisCache, self).incr(key, delta, version), delta)

    def clear(self) -> None:
        self._guard("clear", lambda: super(RedisCache, self).clear(), None)


def redis_cache(backend: object = None) -> RedisCache | None:
    """The default cache (or ``backend``) when it is this Redis backend, None otherwise (the
    local-memory cache of the embedded default)."""
    found = caches["default"] if backend is None else backend
    return found if isinstance(found, RedisCache) else None

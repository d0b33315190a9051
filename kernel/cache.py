"""The cache: Django's Redis cache backend failing open, and the process's own redis-py client
for the few operations the cache API has no method for.

The cache only makes reads faster, so Redis being down must not take the site down with it
(every API call and the competition pages use the cache). Every operation that fails with a
Redis or socket error answers as a miss (get → default, add → False, set and delete do nothing),
is logged (once per outage) and counted for /healthz; for BREAKER_SECONDS after a failure
nothing tries Redis at all, so an outage costs no connection attempt per operation. /healthz
probes Redis itself, past the breaker (fubaleague/health.py).

``redis_link()`` is a redis-py client built here from the cache's settings (LOCATION and the
socket timeouts of OPTIONS), with redis-py's public API: the rate limits' INCR and EXPIRE in one
round trip and the /healthz probe use it. Nothing here reaches into the backend's private
attributes, so a Django upgrade cannot silently change what these do
(tests/service/test_cache_fail_open.py checks both against a real Redis). One exception, with a
fallback: the backend's client builds a redis-py client per operation, whose table of response
callbacks cost more CPU than the round trip itself (issue 35: a page kept in pieces makes a few
round trips); ``_ReusingClient`` keeps one per connection pool, and falls back to Django's own
way if its private ``_get_connection_pool`` is ever gone (the test above checks the reuse).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import redis
from django.conf import settings
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


class _Breaker:
    """Open for BREAKER_SECONDS after a failed operation on one Redis, for the whole process."""

    def __init__(self) -> None:
        self.down_until = 0.0
        self.lock = threading.Lock()

    @property
    def is_open(self) -> bool:
        return time.monotonic() < self.down_until

    def failed(self, operation: str, exc: BaseException) -> None:
        """Open the breaker, count the operation in /healthz, log once per outage."""
        with self.lock:
            was_closed = not self.is_open
            self.down_until = time.monotonic() + BREAKER_SECONDS
        record_fail_open("cache")
        if was_closed:
            logger.warning(
                "Redis cache unavailable (%s: %s: %s); serving without it for %ss before trying again",
                operation, type(exc).__name__, exc, BREAKER_SECONDS,
            )  # fmt: skip


_breakers: dict[str, _Breaker] = {}
_lock = threading.Lock()


def _breaker_for(location: str) -> _Breaker:
    with _lock:
        return _breakers.setdefault(location, _Breaker())


def _first_server(location: Any) -> str:
    # LOCATION is a URL, or several (a string split on "," or ";", or a list): the first writes.
    servers = location if isinstance(location, list | tuple) else str(location).replace(";", ",").split(",")
    return str(servers[0]).strip()


class _ReusingClient(RedisCacheClient):
    """Django's cache client with one redis-py client per connection pool (thread safe, as the
    pool is), not one built per operation."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._reused: dict[int, redis.Redis] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> redis.Redis:
        pools = getattr(self, "_get_connection_pool", None)
        if pools is None:
            return super().get_client(key, write=write)
        pool = pools(write)
        client = self._reused.get(id(pool))
        if client is None:
            client = self._reused.setdefault(id(pool), redis.Redis(connection_pool=pool))
        return client


class RedisCache(DjangoRedisCache):
    """Django's Redis cache with every operation failing open (its public methods only)."""

    def __init__(self, server: Any, params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = _ReusingClient
        # Shared with redis_link() on the same Redis: an outage the throttle meets opens it too.
        self.breaker = _breaker_for(_first_server(server))

    def _guard(self, operation: str, call: Callable[[], T], default: T) -> T:
        if self.breaker.is_open:
            record_fail_open("cache")
            return default
        try:
            return call()
        except REDIS_DOWN as exc:
            self.breaker.failed(operation, exc)
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


@dataclass(frozen=True)
class RedisLink:
    """A redis-py client on the default cache's Redis, and that Redis' breaker."""

    client: redis.Redis
    breaker: _Breaker


_links: dict[tuple[str, Any, Any], RedisLink] = {}


def redis_link() -> RedisLink | None:
    """The process's redis-py client (one connection pool, thread safe) on the default cache's
    Redis, built from its LOCATION and socket timeouts, or None when the cache is not Redis. Its
    keys are the cache's: ``cache.make_and_validate_key(name)``."""
    backend = redis_cache()
    if backend is None:
        return None
    config: dict[str, Any] = settings.CACHES["default"]
    options: dict[str, Any] = config.get("OPTIONS") or {}
    location = _first_server(config["LOCATION"])
    key = (location, options.get("socket_timeout"), options.get("socket_connect_timeout"))
    link = _links.get(key)
    if link is None:
        client = redis.Redis.from_url(location, socket_timeout=key[1], socket_connect_timeout=key[2])
        with _lock:
            link = _links.setdefault(key, RedisLink(client, backend.breaker))
    return link

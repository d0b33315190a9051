"""With Redis unreachable the cache answers misses and the rate limits let requests through
each such operation is counted for /healthz. (A real Redis stopped mid-run:
test_redis_outage.py.)"""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from kernel.cache import PooledRedisCacheClient, redis_cache
from kernel.fail_open import fail_open_counts

pytestmark = pytest.mark.django_db

DEAD = {
    "default": {
        "BACKEND": "kernel.cache.RedisCache",
        # Port 1 on loopback: nothing listens there, the connection is refused at once.
        "LOCATION": "redis://127.0.0.1:1/0",
    }
}


def _count(component: str) -> int:
    return int(fail_open_counts().get(component, {}).get("count", 0))


def test_cache_operations_answer_misses() -> None:
    with override_settings(CACHES=DEAD):
        before = _count("cache")
        assert cache.get("k", "default") == "default"
        cache.set("k", 1)
        assert cache.add("k", 1) is False
        assert cache.get_many(["a", "b"]) == {}
        assert cache.get_or_set("k", 5) == 5
        cache.delete("k")
        assert _count("cache") >= before + 5
        # The breaker: inside its window no connection is tried at all.
        started = time.perf_counter()
        for _ in range(1000):
            cache.get("k")
        assert time.perf_counter() - started < 0.5


def test_throttled_api_and_health_with_the_cache_down(client: Client) -> None:
    with override_settings(CACHES=DEAD):
        before = _count("throttle")
        assert client.get("/api/v1/ping").status_code == 200
        assert client.get("/api/v1/fixtures").status_code == 200
        assert _count("throttle") > before
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json()["checks"]["cache"]["status"] == "down", "the probe goes past the breaker"


def test_the_django_internals_the_redis_wrapper_uses_are_still_there() -> None:
    """kernel.cache reaches into Django's Redis backend in one place (the client class it builds
    from ``_class``, the pool from ``_get_connection_pool``, redis' class from ``_client``): a
    Django upgrade that changes them fails here instead of silently dropping the pooled client
    and the raw client that the throttle's pipeline and /healthz use."""
    backend = redis_cache()
    assert backend is not None, "the test settings use the Redis cache"
    assert isinstance(backend._cache, PooledRedisCacheClient)
    client = backend.raw_client()
    assert client is backend.raw_client(), "one redis client per connection pool"
    key = backend.make_and_validate_key("wrapper-check")
    pipe = client.pipeline(transaction=False)
    pipe.incr(key)
    pipe.expire(key, 5)
    assert pipe.execute()[0] == 1 and backend.get("wrapper-check") == 1
    backend.delete("wrapper-check")
    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}):
        assert redis_cache() is None

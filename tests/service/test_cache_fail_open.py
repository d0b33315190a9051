"""With Redis unreachable the cache answers misses and the rate limits let requests through
each such operation is counted for /healthz. (A real Redis stopped mid-run:
test_redis_outage.py.)"""

from __future__ import annotations

import time

import pytest
from django.core.cache import cache
from django.test import Client, override_settings

from kernel.cache import RedisCache, redis_cache, redis_link
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


def test_the_redis_link_shares_the_cache_s_keys_and_breaker() -> None:
    """kernel.cache builds its own redis-py client from the cache's settings (public APIs only):
    the throttle's pipeline and /healthz use it on the cache's own keys. A Django or redis-py
    upgrade that changes how the cache names or stores a key, or how the client is built, fails
    here rather than in production."""
    link = redis_link()
    backend = redis_cache()
    assert link is not None and backend is not None, "the test settings use the Redis cache"
    assert link is redis_link(), "one client a process"
    assert link.breaker is backend.breaker, "an outage the throttle meets opens the cache's breaker"
    key = cache.make_and_validate_key("wrapper-check")
    pipe = link.client.pipeline(transaction=False)
    pipe.incr(key)
    pipe.expire(key, 5)
    assert pipe.execute()[0] == 1
    assert cache.incr("wrapper-check") == 2, "the counter is the cache's own key"
    assert 0 < link.client.ttl(key) <= 5
    cache.set("wrapper-check", b"doc", 5)
    assert cache.get("wrapper-check") == b"doc"
    cache.delete("wrapper-check")
    assert link.client.exists(key) == 0
    with override_settings(CACHES={"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}):
        assert redis_cache() is None and redis_link() is None


def test_the_backend_overrides_only_public_methods() -> None:
    """The fail-open backend wraps the public methods of Django's RedisCache, each of which must
    still exist on the base class with the same name (a renamed one would skip the wrapper)."""
    from django.core.cache.backends.redis import RedisCache as DjangoRedisCache

    overridden = {
        name for name in vars(RedisCache) if not name.startswith("_") and callable(vars(RedisCache)[name])
    }
    assert overridden <= {name for name in dir(DjangoRedisCache) if not name.startswith("_")}
    assert {"get", "set", "add", "delete", "get_many", "set_many", "incr", "touch"} <= overridden


def test_the_backend_reuses_one_redis_client_per_pool() -> None:
    """A redis-py client built per operation cost more CPU than the round trip (issue 35); the
    backend keeps one per connection pool. A Django upgrade that drops what it relies on falls
    back to a client per operation, and fails here."""
    backend = redis_cache()
    assert backend is not None, "the test settings use the Redis cache"
    client = backend._cache.get_client(write=True)
    assert backend._cache.get_client(write=True) is client
    assert backend._cache.get_client() is client, "one server: reads and writes share its pool"
    cache.set_many({"reuse-a": 1, "reuse-b": 2}, 5)
    assert cache.get_many(["reuse-a", "reuse-b", "reuse-c"]) == {"reuse-a": 1, "reuse-b": 2}
    cache.delete_many(["reuse-a", "reuse-b"])

"""The live endpoint's published version only moves forward: two writes of one session that
publish out of order (the later one's worker a moment faster) leave the newer version."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache, caches
from django.core.cache.backends.locmem import LocMemCache

from scoring import published


def _redis() -> Any:
    assert hasattr(cache._cache, "get_client"), "the test settings use the Redis cache"
    return cache._cache.get_client(write=True)


@pytest.mark.django_db
def test_an_older_version_published_late_does_not_replace_a_newer_one_in_redis() -> None:
    published.publish(41, 7, b'{"version":7}')
    published.publish(41, 6, b'{"version":6}')  # the slower worker of the earlier write
    assert cache.get(published.version_key(41)) == 7
    # Each version's document stays readable (it never changes), with the same expiry.
    assert cache.get(published.live_key(41, 6)) == b'{"version":6}'
    assert cache.get(published.live_key(41, 7)) == b'{"version":7}'
    for key in (published.version_key(41), published.live_key(41, 7)):
        assert 0 < _redis().pttl(cache.make_and_validate_key(key)) <= published.LIVE_CACHE_SECONDS * 1000
    published.publish(41, 8)
    assert cache.get(published.version_key(41)) == 8


def test_the_same_holds_on_a_local_memory_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    local = LocMemCache("published-test", {})
    monkeypatch.setattr(published, "cache", local)
    published.publish(5, 3, b"three")
    published.publish(5, 2, b"two")
    assert local.get(published.version_key(5)) == 3
    assert local.get(published.live_key(5, 2)) == b"two"


@pytest.mark.django_db
def test_redis_away_publishes_nothing_and_raises_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    def down(*args: Any, **kwargs: Any) -> Any:
        raise OSError("Connection refused")

    backend = caches["default"]
    monkeypatch.setattr(type(backend._cache), "get_client", down)
    published.publish(9, 1, b"doc")  # fails open: the live view then reads the database
    assert backend.is_down, "the outage opened the cache's breaker (counted in /healthz)"
    monkeypatch.undo()
    monkeypatch.setattr(backend, "_down_until", 0.0)  # Redis is back
    assert cache.get(published.version_key(9)) is None

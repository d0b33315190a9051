"""Request limits for the API: one fixed-window counter per client.

DRF's AnonRateThrottle and UserRateThrottle each keep a list of request timestamps per client
and rewrite it on every request: a cache get and a cache set each, four Redis round trips per
anonymous request (both classes apply to it), with a list that grows with the rate. Profiling
the cached standings endpoint showed them at 44% of its time. A fixed-window counter is one
INCR per request whatever the rate, and one class picks the anonymous or the signed-in rate.
A client can burst up to twice its rate across a window boundary, which is fine for abuse
protection.

With Redis down the limits fail open (every API call, even /api/v1/ping, answered
500): the request is let through, the outage logged by the cache backend and counted in /healthz.
Refusing every request would turn a cache outage into a full one; PostgreSQL alone serves
reads and writes meanwhile.

The client's address is the peer address, or the one TRUSTED_PROXY_COUNT proxies saw
(``client_ip``): X-Forwarded-For is ignored unless proxies are configured, so a forged header
cannot buy a fresh limit.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.cache import cache
from rest_framework.settings import api_settings
from rest_framework.throttling import BaseThrottle

from kernel.cache import REDIS_DOWN, redis_link
from kernel.client_ip import client_ip
from kernel.fail_open import record_fail_open

PERIODS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """'600/minute' -> (600, 60), as DRF reads its rates."""
    count, period = rate.split("/")
    return int(count), PERIODS[period[0]]


def window_count(key: str, duration: int, amount: int = 1) -> int:
    """Count this request (``amount`` times) in the window's counter and return the window's
    total (0: unknown, Redis is down)."""
    link = redis_link()
    if link is not None:
        if link.breaker.is_open:
            record_fail_open("throttle")
            return 0
        # Redis: INCR and EXPIRE in one round trip.
        redis_key = cache.make_and_validate_key(key)
        try:
            pipe = link.client.pipeline(transaction=False)
            pipe.incr(redis_key, amount)
            pipe.expire(redis_key, duration + 1)
            return int(pipe.execute()[0])
        except REDIS_DOWN as exc:
            link.breaker.failed("throttle", exc)
            record_fail_open("throttle")
            return 0
    cache.add(key, 0, duration + 1)
    try:
        return int(cache.incr(key, amount))
    except ValueError:  # expired between add and incr
        cache.set(key, amount, duration + 1)
        return amount


class ClientRateThrottle(BaseThrottle):
    """The "anon" rate per address for anonymous requests, the "user" rate per signed-in user."""

    def __init__(self) -> None:
        self._wait: float | None = None

    def get_ident(self, request: Any) -> str:
        return client_ip(request)

    def scope_and_ident(self, request: Any) -> tuple[str, str]:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            return "user", f"u{user.pk}"
        return "anon", f"a{self.get_ident(request)}"

    def allow_request(self, request: Any, view: Any) -> bool:
        scope, ident = self.scope_and_ident(request)
        rate = (api_settings.DEFAULT_THROTTLE_RATES or {}).get(scope)
        if not rate:
            return True
        allowed, duration = parse_rate(str(rate))
        now = time.time()
        window = int(now // duration)
        if window_count(f"throttle:{scope}:{ident}:{window}", duration) <= allowed:
            return True
        self._wait = duration - (now % duration)
        return False

    def wait(self) -> float | None:
        return self._wait


class LoginRateThrottle(ClientRateThrottle):
    """The "login" rate per address for the username/password exchange (password guessing):
    DRF's ObtainAuthToken turns throttling off, so the token view names this one."""

    def scope_and_ident(self, request: Any) -> tuple[str, str]:
        return "login", f"a{self.get_ident(request)}"

"""The client's address, for the rate limits and the sign-in limits.

The peer address, unless TRUSTED_PROXY_COUNT proxies stand in front of the service; then the
address the outermost trusted proxy saw, i.e. the entry that many places from the end of
X-Forwarded-For (each proxy appends the address it was called from; whatever a client writes
into the header itself stays to the left and is never read). The default 0 ignores
X-Forwarded-For: a forged header gave every request a fresh rate limit.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_ip(request: Any) -> str:
    """The client's address behind TRUSTED_PROXY_COUNT proxies (README, configuration)."""
    meta = getattr(request, "META", {})
    remote = str(meta.get("REMOTE_ADDR") or "")
    proxies = settings.TRUSTED_PROXY_COUNT
    forwarded = meta.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [hop.strip() for hop in str(forwarded).split(",") if hop.strip()]
    if not hops:
        return remote
    return hops[-min(proxies, len(hops))]

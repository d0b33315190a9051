"""What the live endpoint serves, kept in the cache: each session's current version and the JSON
document of a version.

A write publishes after it is stored. Two writes of one session can publish out of order (two
devices, two workers, the later write's worker a moment faster), and a version put back by the
slower one would leave every spectator on the older state until the next change, at full time
for good. So the version only moves forward: on Redis one script raises it (never lowers it) and
stores the document with it, in the same round trip as a plain SET. On another cache (the
embedded default's local memory, one process) a read-compare-set is enough.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from kernel.cache import REDIS_DOWN

LIVE_CACHE_SECONDS = 3600

# KEYS[1] the version key, KEYS[2] (optional) the document key; ARGV: version, expiry (ms),
# the serialised document.
_RAISE_SCRIPT = """
local current = tonumber(redis.call('GET', KEYS[1]))
if (not current) or current < tonumber(ARGV[1]) then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
end
if KEYS[2] then
  redis.call('SET', KEYS[2], ARGV[3], 'PX', ARGV[2])
end
return 1
"""
_scripts: dict[int, Any] = {}


def version_key(session_id: int) -> str:
    return f"scoring:v:{session_id}"


def live_key(session_id: int, version: int) -> str:
    return f"scoring:live-json:{session_id}:{version}"


def publish(session_id: int, version: int, document: bytes | None = None) -> None:
    """Make ``version`` the session's published version unless a newer one is, and cache the
    version's live ``document`` when given. Fails open when Redis is away: the live endpoint then
    reads the database."""
    backend = getattr(cache, "_cache", None)
    if backend is not None and hasattr(backend, "get_client"):
        if getattr(cache, "is_down", False):
            return
        keys = [cache.make_and_validate_key(version_key(session_id))]
        args: list[Any] = [version, LIVE_CACHE_SECONDS * 1000]
        if document is not None:
            keys.append(cache.make_and_validate_key(live_key(session_id, version)))
            # Stored as cache.set stores it, so that cache.get reads it back.
            args.append(backend._serializer.dumps(document))
        try:
            client = backend.get_client(keys[0], write=True)
            script = _scripts.get(id(client))
            if script is None:
                script = _scripts[id(client)] = client.register_script(_RAISE_SCRIPT)
            script(keys=keys, args=args)
        except REDIS_DOWN as exc:
            if hasattr(cache, "redis_failed"):
                cache.redis_failed("publish", exc)
        return
    current = cache.get(version_key(session_id))
    if not isinstance(current, int) or current < version:
        cache.set(version_key(session_id), version, LIVE_CACHE_SECONDS)
    if document is not None:
        cache.set(live_key(session_id, version), document, LIVE_CACHE_SECONDS)

"""The live endpoints' documents, cached per version: ``live.json`` (the state the scorer draws)
and ``story.json`` (the feed by turn), read by spectators and the other club's phone.

A session's version moves with every write, and a version's document never changes, so each is
cached under its version: every spectator of a version shares one computation, and documents
cached in any order can never show an older state as the current one (the current version is
read from the database, scoring.selectors.current_version). The first poll of a version builds
its document (the engine's copy in the process usually holds the match already). A document
only the clubs and staff may read (from full time until the result counts) is never cached:
their polls go through the view, which checks who asks.
"""

from __future__ import annotations

from collections.abc import Callable

from django.core.cache import cache

from scoring import selectors
from scoring.selectors import LiveDocument

LIVE_CACHE_SECONDS = 3600


def etag(session_id: int, version: int) -> str:
    return f'"s{session_id}v{version}"'


def live_key(session_id: int, version: int) -> str:
    return f"scoring:live-json:{session_id}:{version}"


def story_key(session_id: int, version: int) -> str:
    return f"scoring:story:{session_id}:{version}"


def _cached(key: str, version: int, build: Callable[[], LiveDocument]) -> LiveDocument:
    body = cache.get(key)
    if isinstance(body, bytes):
        return LiveDocument(body, version)
    document = build()
    # Built from the session as it is now: a write since the version was read gives a newer
    # document, which is not this version's.
    if document.private_to_fixture is None and document.version == version:
        cache.set(key, document.body, LIVE_CACHE_SECONDS)
    return document


def document(*, session_id: int, version: int) -> LiveDocument:
    """The session's live document at ``version`` (or newer, when a write came in meanwhile)."""
    return _cached(
        live_key(session_id, version), version, lambda: selectors.live_document(session_id=session_id)
    )


def story(*, session_id: int, version: int, frames: bool = False) -> LiveDocument:
    """The session's feed and key moments at ``version`` (or newer); with ``frames``, the pitch
    of every moment too (a spectator stepping back through the feed)."""
    key = story_key(session_id, version) + (":frames" if frames else "")
    return _cached(key, version, lambda: selectors.live_story(session_id=session_id, frames=frames))

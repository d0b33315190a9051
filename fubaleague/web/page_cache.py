"""The public pages as anonymous visitors see them, rendered once and served from the cache.

A World Cup's final day brings a crowd to the competition's pages; rendering each of them per
request (100-200 ms of queries and templates) let 200 readers bring the site down. An anonymous
visitor's page has no per-user content, so one rendering serves every anonymous visitor until
something it shows changes:

* the competition's data: entries are kept under the competition's version
  (matches.standings.cache.by_slug), which the signals bump on every change that shows on its
  pages (results, fixtures, cards, suspensions, replays, … — matches.standings.signals); a page
  that shows only some parts of it (a team's, a match's) under those parts' versions (``parts``);
* the matches being scored live (the "live" marks, the live panel): the scorer writes its session
  without model signals, so those marks are part of the entry's name (read at most once a second
  a process, LIVE_SECONDS);
* the clock ("overdue", the upcoming matches): entries expire after PAGE_SECONDS.

The same holds for the pages of no competition (the coach ratings: ``scope``, bumped by the
ratings services, fubaleague/web/ratings_pages.py) and for the live centre's page.

Signed-in visitors (club members see forms, staff see full logs), and a visitor with a message
waiting, are always answered by the view itself, and such an answer is never stored. A page that
is not a plain 200, or that set a cookie or used the CSRF token, is not stored either.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from typing import Any

from django.contrib.messages import get_messages
from django.db.models.signals import post_save
from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_cache_control

from fubaleague.web.selectors import scored_live
from matches.standings import cache
from scoring.models import ScoringSession

# The clock's part of a page ("overdue", what is upcoming) is at most this old.
PAGE_SECONDS = 60
# Response headers a view sets that belong to the page (others are the middleware's, per request).
_KEPT_HEADERS = ("Content-Type", "Content-Disposition")

View = Callable[..., HttpResponse]


@dataclass(frozen=True)
class Page:
    content: bytes
    status: int
    headers: tuple[tuple[str, str], ...]


class _NotShared(Exception):
    """The view's answer is not the same for every anonymous visitor: send it, do not store it."""

    def __init__(self, response: HttpResponse) -> None:
        self.response = response


def personal(request: HttpRequest) -> bool:
    # Only a read is shared: any other method is the view's own business, never stored.
    if request.method not in ("GET", "HEAD"):
        return True
    return bool(request.user.is_authenticated or len(get_messages(request)))


# The live marks of a competition as this process last read them, trusted for LIVE_SECONDS: a
# kept page then costs no query at all. A session started in this process forgets them at once
# (its row is created with a model signal); another process's start, and a match's end (written
# without signals), show within LIVE_SECONDS.
LIVE_SECONDS = 1.0
_live: dict[str, tuple[float, str]] = {}


def live_marks(slug: str) -> str:
    now = time.monotonic()
    held = _live.get(slug)
    if held is not None and now - held[0] < LIVE_SECONDS:
        return held[1]
    marks = ",".join(f"{f}:{s}" for f, s in scored_live(slug=slug))
    digest = hashlib.blake2b(marks.encode(), digest_size=8).hexdigest()
    if len(_live) >= 256:
        _live.clear()
    _live[slug] = (now, digest)
    return digest


def _session_saved(sender: Any, **kwargs: Any) -> None:
    _live.clear()


post_save.connect(_session_saved, sender=ScoringSession, dispatch_uid="page_cache_live_marks")


def _entry_name(request: HttpRequest, slug: str, params: Sequence[str], live: bool, host: bool) -> str:
    query = "&".join(f"{p}={request.GET.get(p, '')}" for p in params)
    # The query parameters the view reads, and no others: a random query string costs no entry.
    name = f"page:{request.path}?{query}"
    if host:
        # (get_host() refuses a host not in ALLOWED_HOSTS: no entry for a made-up one)
        name += f":host:{request.scheme}://{request.get_host()}"
    if live:
        name += ":live:" + live_marks(slug)
    return name


def anonymous_page(
    *,
    params: Sequence[str] = (),
    live: bool = False,
    scope: str | None = None,
    shows: tuple[str, ...] = (),
    parts: Callable[..., tuple[str, ...]] | None = None,
    host: bool = False,
) -> Callable[[View], View]:
    """Serve the view's page to anonymous visitors from the competition's cache.

    ``params``: the query parameters the view reads (part of the entry's name). ``live``: the
    page shows which matches are scored live. ``scope``: for a page of no competition, the name
    its entries are kept under instead of the competition's slug (bumped with
    ``matches.standings.cache.invalidate_scope`` by whatever changes the page). ``shows``: such
    scopes whose data a competition's page shows too (a coach's rating on a team's page).
    ``parts``: for a page that shows only some parts of its competition (a team's, a match's),
    those parts (``matches.standings.cache.part_key``) from the view's keyword arguments, every
    part its fragments are kept under: the page is then kept under their versions, not the
    competition's (() where they cannot be told: the competition's version). ``host``: the page
    shows the request's host (absolute links): kept per host, never one visitor's host for another.
    """

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            slug = scope if scope is not None else str(kwargs["slug"])
            if personal(request):
                response = view(request, *args, **kwargs)
                patch_cache_control(response, private=True)
                return response

            rendered: list[bool] = []

            def render() -> Page:
                rendered.append(True)
                response = view(request, *args, **kwargs)
                if (
                    response.status_code != 200
                    or response.streaming
                    or response.cookies
                    or request.META.get("CSRF_COOKIE_NEEDS_UPDATE")
                ):
                    raise _NotShared(response)
                kept = tuple((h, response[h]) for h in _KEPT_HEADERS if h in response)
                return Page(response.content, response.status_code, kept)

            try:
                name = _entry_name(request, slug, params, live, host)
                shown = parts(**kwargs) if parts is not None else ()
                page = cache.by_slug(slug, name, render, PAGE_SECONDS, scopes=shows, parts=shown)
            except _NotShared as not_shared:
                return not_shared.response
            response = HttpResponse(page.content, status=page.status)
            for header, value in page.headers:
                response[header] = value
            # For whoever measures or debugs it: was this answer rendered now or kept.
            response["X-Page-Cache"] = "miss" if rendered else "hit"
            return response

        # The view itself, for whoever renders its fragments without keeping the page (refresh.py);
        # (functools.wraps copies it onto the decorators above).
        wrapper.kept_view = view  # type: ignore[attr-defined]
        return wrapper

    return decorate

"""The coach ratings' public pages (ratings.views), kept for anonymous visitors as a competition's
pages are (page_cache.anonymous_page): under ``ratings.models.PAGES_SCOPE``, which the ratings
services bump once a rating change is committed. The ratings app cannot import the project
package (.importlinter), so its URL patterns are wrapped here, where the project assembles them.

A ranking is kept as a fragment (fubaleague/web/fragments.py) under the parts of the scope of
the game systems it shows (``ratings.models.system_part``, bumped with the scope by the services):
a rating changed in one game leaves the other games' rankings kept.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import URLPattern

from fubaleague.web import fragments
from fubaleague.web.page_cache import View, anonymous_page, personal
from ratings import urls as ratings_urls
from ratings.models import PAGES_SCOPE, system_part
from ratings.selectors import COMBINED, RATED_SYSTEMS
from tournaments.game_systems import FUBA_3

# The query parameters each page reads (part of a kept entry's name; no other makes a new entry).
PARAMS = {"ranking": ("system",)}


def _kept_ranking(view: View) -> View:
    def ranking(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        system = request.GET.get("system", FUBA_3)
        if personal(request) or system not in (*RATED_SYSTEMS, COMBINED):
            return view(request, *args, **kwargs)
        systems = RATED_SYSTEMS if system == COMBINED else (system,)
        kept = fragments.Fragment(
            f"ranking:{system}",
            tuple(system_part(s) for s in systems),
            lambda: view(request, *args, **kwargs).content.decode(),
        )
        return HttpResponse(fragments.whole(PAGES_SCOPE, kept))

    return ranking


def patterns() -> tuple[list[URLPattern], str]:
    """ratings.urls with each view served from the anonymous page cache, and its namespace."""
    wrapped = [
        URLPattern(
            pattern.pattern,
            anonymous_page(scope=PAGES_SCOPE, params=PARAMS.get(pattern.name or "", ()))(
                _kept_ranking(pattern.callback) if pattern.name == "ranking" else pattern.callback
            ),
            pattern.default_args,
            pattern.name,
        )
        for pattern in ratings_urls.urlpatterns
        if isinstance(pattern, URLPattern)
    ]
    return wrapped, ratings_urls.app_name

"""The coach ratings' public pages (ratings.views), kept for anonymous visitors as a competition's
pages are (page_cache.anonymous_page): under ``ratings.models.PAGES_SCOPE``, which the ratings
services bump once a rating change is committed. The ratings app cannot import the project
package (.importlinter), so its URL patterns are wrapped here, where the project assembles them.
"""

from __future__ import annotations

from django.urls import URLPattern

from fubaleague.web.page_cache import anonymous_page
from ratings import urls as ratings_urls
from ratings.models import PAGES_SCOPE

# The query parameters each page reads (part of a kept entry's name; no other makes a new entry).
PARAMS = {"ranking": ("system",)}


def patterns() -> tuple[list[URLPattern], str]:
    """ratings.urls with each view served from the anonymous page cache, and its namespace."""
    wrapped = [
        URLPattern(
            pattern.pattern,
            anonymous_page(scope=PAGES_SCOPE, params=PARAMS.get(pattern.name or "", ()))(pattern.callback),
            pattern.default_args,
            pattern.name,
        )
        for pattern in ratings_urls.urlpatterns
        if isinstance(pattern, URLPattern)
    ]
    return wrapped, ratings_urls.app_name

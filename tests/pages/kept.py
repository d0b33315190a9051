"""What the kept-page tests share: pages served to an anonymous reader, and every cache forgotten
so that the next request renders from nothing (the reference a kept page must equal)."""

from __future__ import annotations

from django.core.cache import cache
from django.test import Client

from fubaleague.web import fragments, page_cache
from matches.standings import cache as standings_cache
from scoring import held


def forget_all() -> None:
    cache.clear()
    standings_cache.clear_local()
    page_cache._live.clear()
    fragments._big.clear()
    held.forget()


def served(urls: dict[str, str]) -> dict[str, str]:
    """Each page by name, as one anonymous client is served it."""
    client = Client()
    pages = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, url
        pages[name] = response.content.decode()
    return pages

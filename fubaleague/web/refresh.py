"""The public pages' fragments rendered on the write side, once a change is committed (issue 35).

A result bumps the versions of the parts it touches (matches.standings.signals), so the first
reader of each page after it paid for the fragments showing them: the stage's fixture rounds, its
bracket, the home page's figures, the chances, the teams' and the match's pages, every page's
coach ratings (20-25x a trivial endpoint's CPU on a match day, when results come in all the time).
That rendering belongs to the change, not to a reader: once the change is committed
(``matches.standings.cache.committed``), a task renders each fragment it made stale, through the
pages' own views as an anonymous visitor's miss would (the same fragments, the same HTML), and
keeps them under the versions it read, and the page assembled from them too (under the versions
read before its assembly, as a reader's miss keeps it): the next reader is served the kept page,
one round trip, instead of assembling it (three or four round trips, 2-3x a trivial endpoint's
CPU after a result, issue 35).

Nothing here decides what is right: a fragment is kept under the versions it was rendered from,
as a reader's would be, so a change committed while the task renders leaves it stale, and a task
that is late or lost (no worker, a full broker) only leaves the rendering to the first reader, as
before. Tasks of one competition and parts queued while one waits are one (``_pending``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.cache import cache
from django.http import Http404, HttpRequest
from django.urls import resolve

from fubaleague.web import exports, rating_bits
from kernel.broker import publish
from matches.standings.cache import clear_local, committed
from ratings.models import PAGES_SCOPE, system_part
from ratings.selectors import RATED_SYSTEMS
from tournaments.game_systems import FUBA_3, rules_of
from tournaments.models import Competition, Fixture, Team

# A task waits this long before rendering: the other bumps of the same change (a result's several
# signals, its ratings) land meanwhile and are rendered once.
DELAY_SECONDS = 0.3
_PENDING_SECONDS = 30
# A rating change moves the ratings' bits of every team and match page of its game: a task renders
# at most this many of them (a World Cup's 32 teams and 64 matches several times over), the newest
# competitions first, so its cost stays bounded however many clubs play; the rest, e.g. a
# 10,000-team league's, are rendered by their first readers, as without the task.
RATING_PAGES_MAX = 400


def _anonymous_get(path: str, query: dict[str, str] | None = None) -> HttpRequest:
    """A GET of ``path`` as an anonymous visitor's, for a page's view: what its templates read of
    a request (its path, its user, the query parameters the view reads)."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.META = {"SERVER_NAME": "localhost", "SERVER_PORT": "80", "REQUEST_METHOD": "GET"}
    request.GET.update(query or {})
    request.user = AnonymousUser()
    request.resolver_match = resolve(path)
    return request


def _render(path: str, query: dict[str, str] | None = None) -> None:
    """The page at ``path`` served as to an anonymous visitor: on a miss its stale fragments
    rendered and kept, and the page kept (page_cache.anonymous_page, the standings view's own)."""
    request = _anonymous_get(path, query)
    match = request.resolver_match
    assert match is not None
    view: Callable[..., Any] = match.func
    with contextlib.suppress(Http404):  # (gone meanwhile: nothing to keep)
        view(request, *match.args, **match.kwargs)


def competition_pages(slug: str, parts: Iterable[str]) -> None:
    """Every fragment of a competition's public pages that ``parts`` may show, kept anew."""
    base = f"/c/{slug}/"
    for path in (base, f"{base}standings/", f"{base}fixtures/", f"{base}bracket/", f"{base}live/"):
        _render(path)
    # The exports' stage fragments (the calendar's page is kept per host: its first reader's).
    with contextlib.suppress(Http404):
        exports.keep(slug)
    _render(f"{base}fixtures.csv")
    for part in parts:
        if part[:1] == "t" and part[1:].isdigit():
            _render(f"{base}teams/{part[1:]}/")
        elif part[:1] == "f" and part[1:].isdigit():
            _render(f"{base}matches/{part[1:]}/")


def rating_pages(parts: Iterable[str]) -> None:
    """The coach rankings of the game systems in ``parts`` (the ratings' scope), and the coach
    ratings' bits of the team and match pages of the competitions under way in those games."""
    systems = [s for s in RATED_SYSTEMS if system_part(s) in set(parts)]
    # (not the combined ranking: a fold of every game, 30x a game's to render, rarely read; its
    # first reader renders it, as before)
    for system in systems:
        _render("/ratings/", {"system": system})
        if system == FUBA_3:
            _render("/ratings/")  # (its default: the address most readers have)
    budget = RATING_PAGES_MAX
    active = Competition.objects.filter(status=Competition.Status.ACTIVE).order_by("-pk")
    for competition in active:
        if rules_of(competition).rating_pool not in systems:
            continue
        base = f"/c/{competition.slug}/"
        team_ids = list(Team.objects.filter(competition=competition).values_list("id", flat=True))
        fixture_ids = list(Fixture.objects.filter(competition=competition).values_list("id", flat=True))
        if len(team_ids) + len(fixture_ids) > budget:
            continue  # (its readers render the bits: a task must not grow with the game's size)
        budget -= len(team_ids) + len(fixture_ids)
        # (their rating bits read the competition's ratings once, not a page at a time)
        with rating_bits.bulk(competition):
            for team_id in team_ids:
                _render(f"{base}teams/{team_id}/")
            for fixture_id in fixture_ids:
                _render(f"{base}matches/{fixture_id}/")


def refresh(slug: str, parts: Iterable[str]) -> None:
    """The task's work: release the pending mark first (a bump after this reads anew), then render."""
    parts = tuple(parts)
    cache.delete(_pending(slug, parts))
    try:
        if slug == PAGES_SCOPE:
            rating_pages(parts)
        else:
            competition_pages(slug, parts)
    finally:
        # The pages kept meanwhile are also this process's copies (standings.cache.by_slug), for
        # its own readers: a worker has none, and a process that runs the task in place (eager)
        # must read the shared entries as another process would.
        clear_local()


def _pending(slug: str, parts: tuple[str, ...]) -> str:
    return f"pages:refresh:{slug}:{','.join(sorted(parts))}"


def _committed(
    sender: Any, slug: str | None, competition_id: int | None, parts: tuple[str, ...], **kw: Any
) -> None:
    if not getattr(settings, "PAGES_REFRESH", False):
        return
    if slug is None and competition_id is not None:
        slug = Competition.objects.filter(pk=competition_id).values_list("slug", flat=True).first()
    if not slug:
        return
    if not cache.add(_pending(slug, parts), 1, _PENDING_SECONDS):
        return  # one is queued for these already, and renders after this bump
    from fubaleague.web.tasks import pages_refresh

    if not publish(pages_refresh, (slug, list(parts)), countdown=DELAY_SECONDS):
        cache.delete(_pending(slug, parts))


def connect() -> None:
    committed.connect(_committed, dispatch_uid="fubaleague_pages_refresh")

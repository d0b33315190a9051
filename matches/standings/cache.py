"""The standings cache: a version per competition, entries keyed by it, and a per-process copy.

Computing a World Cup's eight group tables takes a few dozen queries; serving them on every page
view would miss the latency target. Each competition has a version number in the cache; every
cached computation is keyed by it, and a change to anything that feeds the tables bumps the version
(signals.py), so stale entries are simply never read again. Entries also expire after CACHE_SECONDS
as a safety net for writes that bypass model signals (queryset.update()).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from django.core.cache import cache
from django.dispatch import Signal

from tournaments.models import Competition

CACHE_SECONDS = 300
T = TypeVar("T")


# --- Versions of the parts of a competition's pages ----------------------------------------------
# The competition's version (below) changes with anything in it, so every page kept under it is
# rendered again after any result. The fragments of the pages (fubaleague/web/fragments.py) are
# kept under the versions of the parts they show instead; signals.py bumps the parts a change touches:
#   "c"       the whole competition (its row, stages, groups, teams' names, point adjustments, and
#             anything whose part is not known): every fragment shows it;
#   "s<id>"   a stage: its fixtures, results, cards, logs, byes, lots, round clocks;
#   "f<id>"   a fixture: itself, its result, cards, log, forfeit, audit trail, suspensions, skills;
#   "t<id>"   a team: its fixtures as they are now (a fixture moved to another team bumps only the
#             new one: a page listing a team's fixtures is keyed by their stages too), its skills,
#             suspensions, cards;
#   "x"       the features on top registered with signals.register_feed (the chances).
# A missing version (never set, expired, evicted) is set anew, never read as "unchanged".
WHOLE = "c"
PART_SECONDS = 7 * 24 * 3600


# Sent once a change is committed and its versions bumped (signals.changed after the commit, the
# ratings' services for their scope): kwargs ``slug`` (a competition's, or a page scope's),
# ``competition_id`` (None for a scope) and ``parts``. The project renders the public pages'
# fragments that the change made stale then, on the write side (fubaleague/web/refresh.py).
committed = Signal()


def part_key(slug: str, part: str) -> str:
    return f"standings:p:{slug}:{part}"


def _version_key(competition_id: int) -> str:
    return f"standings:v:{competition_id}"


def version(competition_id: int) -> int:
    key = _version_key(competition_id)
    value = cache.get(key)
    if value is None:
        value = time.time_ns()
        # add(): two first readers racing must agree on one version.
        if not cache.add(key, value, None):
            value = cache.get(key, value)
    return int(value)


def _slug_version_key(slug: str) -> str:
    return f"standings:vs:{slug}"


def scope_key(scope: str) -> str:
    """The key of a page scope's version (``invalidate_scope``), for a reader that fetches it
    with other keys in one round trip (fubaleague/web/fragments.py)."""
    return _slug_version_key(scope)


def invalidate(competition_id: int, slug: str | None = None, parts: Iterable[str] = (WHOLE,)) -> None:
    """Make every cached entry of a competition stale (signals.py calls it when a table's data
    changes), and the fragments of its pages that show ``parts`` (see part_key; by default all)."""
    now = time.time_ns()
    _local.clear()
    if slug is None:
        slug = Competition.objects.filter(pk=competition_id).values_list("slug", flat=True).first()
    values: dict[str, int] = {_version_key(competition_id): now}
    if slug:
        values[_slug_version_key(slug)] = now
    cache.set_many(values, None)
    if slug:
        cache.set_many({part_key(slug, part): now for part in parts}, PART_SECONDS)


def invalidate_scope(scope: str, parts: Iterable[str] = ()) -> None:
    """Make every entry kept under ``scope`` stale: a page scope that is not a competition (the
    coach ratings, ``ratings.models.PAGES_SCOPE``), read with ``by_slug`` like a competition's;
    and the fragments kept under ``parts`` of it (part_key(scope, part), as a competition's)."""
    _local.clear()
    now = time.time_ns()
    cache.set(_slug_version_key(scope), now, None)
    if parts:
        cache.set_many({part_key(scope, part): now for part in parts}, PART_SECONDS)


# Per-process copy of the hottest entries, trusted for LOCAL_SECONDS before asking Redis again.
# Under load every cache round trip costs a context switch to Redis; this keeps the standings page
# and API at (almost) no round trip. Another process's change shows within LOCAL_SECONDS; this
# process's own changes clear the copy at once (invalidate()).
LOCAL_SECONDS = 1.0
_LOCAL_MAX = 256
_local: dict[str, tuple[float, int, Any]] = {}


def clear_local() -> None:
    """Forget this process's copies (tests that clear the shared cache call this too)."""
    _local.clear()


def by_slug(
    slug: str,
    name: str,
    compute: Callable[[], T],
    seconds: int = CACHE_SECONDS,
    scopes: tuple[str, ...] = (),
    parts: tuple[str, ...] = (),
) -> T:
    """A cached value for the competition `slug`, read in at most ONE cache round trip.

    The hot endpoints (public standings page and its API) are addressed by slug; fetching the
    slug's version and the entry together (get_many) keeps them close to a trivial endpoint's cost.
    The entry carries the version it was computed under; a newer version means recompute. The
    version is read before computing, so a change committed meanwhile leaves an entry that the
    next reader sees as stale. ``seconds``: how long an entry is kept at most. ``scopes``: page
    scopes of no competition whose data the value shows too (``invalidate_scope``): their versions
    are read in the same round trip and the entry is stale when one of them moved. ``parts``: the
    parts of the competition's pages the value shows (``part_key``), when it shows no other: the
    entry is kept under their versions instead of the competition's, so a change elsewhere in the
    competition leaves it fresh (a team's or a match's page after a result in another group).
    """
    entry_key = f"standings:s:{slug}:{name}"
    now = time.monotonic()
    local = _local.get(entry_key)
    if local is not None and now - local[0] < LOCAL_SECONDS:
        return local[2]
    version_key = _slug_version_key(slug)
    scope_keys = [_slug_version_key(scope) for scope in scopes]
    part_keys = [part_key(slug, part) for part in parts]
    found = cache.get_many([version_key, entry_key, *scope_keys, *part_keys])
    version: Any = found.get(version_key)
    if version is not None and part_keys:
        # (the competition's version still tells a slug that exists from one that does not)
        version = tuple(_part_mark(key, found) for key in part_keys)
    if version is not None and scope_keys:
        version = (version, *(_scope_mark(key, found) for key in scope_keys))
    entry = found.get(entry_key)
    if version is not None and entry is not None and entry[0] == version:
        value = entry[1]
    elif version is None:
        # First reader: computing first stores nothing for a slug that does not exist (compute
        # raises), so anonymous requests for random slugs cannot fill the cache with version keys.
        # The entry keeps the version chosen before computing: if a change or another reader set
        # the key meanwhile, the entry is merely stale and the next reader recomputes.
        version = time.time_ns()
        value = compute()
        cache.add(version_key, version, None)
        if part_keys:
            version = tuple(_part_mark(key, found) for key in part_keys)
        if scope_keys:
            version = (version, *(_scope_mark(key, found) for key in scope_keys))
        cache.set(entry_key, (version, value), seconds)
    else:
        value = compute()
        cache.set(entry_key, (version, value), seconds)
    if len(_local) >= _LOCAL_MAX:
        _local.clear()
    _local[entry_key] = (now, version, value)
    return value


def _scope_mark(key: str, found: dict[str, Any]) -> int:
    """A scope's version as read; a missing one is set now (readers racing agree on one)."""
    return _mark(key, found, None)


def _part_mark(key: str, found: dict[str, Any]) -> int:
    """A part's version as read; a missing one is set now, as a fragment's reader sets it
    (fubaleague/web/fragments.py: readers racing agree on one)."""
    return _mark(key, found, PART_SECONDS)


def _mark(key: str, found: dict[str, Any], seconds: int | None) -> int:
    value = found.get(key)
    if value is None:
        value = time.time_ns()
        if not cache.add(key, value, seconds):
            value = cache.get(key, value)
        found[key] = value
    return int(value)


def cached(competition_id: int, name: str, compute: Callable[[], T]) -> T:
    key = f"standings:{competition_id}:{version(competition_id)}:{name}"
    value = cache.get(key)
    if value is None:
        value = compute()
        cache.set(key, value, CACHE_SECONDS)
    return value

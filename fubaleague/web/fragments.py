"""Public pages assembled from fragments kept under the versions of the data they show (issue 35).

page_cache.py keeps a whole page under its competition's version, which any change in the
competition bumps: a result in group A, a card, a forfeit claimed elsewhere... and the next visitor
of every page paid the full rendering again (30-45x a trivial endpoint's CPU: ORM objects and
templates). Most of what a page shows did not change, so the pages are cut in two kinds of pieces:

* **fragments**: the parts that show data (a stage's fixture list, a bracket, the tables), each
  rendered once and kept under the versions of the *parts* of the competition it shows
  (``matches.standings.cache.part_key``: "c" the competition as a whole, "s<id>" a stage,
  "f<id>" a fixture, "t<id>" a team, "x" the chances; signals.py bumps exactly the parts a change
  touches, and "c" for anything it cannot place). A fragment that shows the live marks is kept
  under the competition's live marks too (page_cache.live_marks); one that shows the clock
  ("overdue") carries the moment it turns stale (``Html.until``).
* **the frame**: the page's template rendered once with a marker in place of each fragment,
  kept under "c" (the competition's name, stages and teams, the navigation), then filled.

A page on a miss is then one ``get_many`` of every version and kept piece it needs (laid out by
the competition's outline, its stages, as this process last read it: "c" is read in the same round
trip, and a moved outline is read again), and the few stale pieces rendered and stored with one
``set_many``. Nothing is keyed by time or by the page's own version, so a kept piece is right
exactly as long as its versions are; the HTML is the template's, byte for byte (the pieces are the
template cut where the data is).

For a new page: give ``page()`` the fragments as a function of the outline, each named and with
the parts it shows (a part forgotten is a stale page: tests/pages/test_page_fragments.py changes
the data through the services and compares each kept page with one rendered from nothing).

Rules for a view: a slot is only printed by the template (``{{ rounds_html }}``), never tested, since
the frame is rendered with markers; whatever depends on the data is in the fragments. Signed-in
visitors (and one with a message waiting) get the frame rendered for them, never a kept one; the
fragments hold no per-user content and are shared. Pieces also expire after PAGE_SECONDS, the net
for a write that bypasses both the model signals and ``signals.changed``.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from fubaleague.web.page_cache import PAGE_SECONDS, live_marks, personal
from matches.standings.cache import PART_SECONDS, WHOLE, part_key, scope_key
from tournaments.models import Competition, Stage

# A marker no rendered value can contain (user data is escaped; this one has NUL bytes).
_TOKEN = secrets.token_hex(6)
_MARKER = re.compile(f"\x00{_TOKEN}:([^\x00]*)\x00")


@dataclass(frozen=True)
class Html:
    """A fragment's rendering; ``until``: the epoch second it turns stale (the clock shows in it)."""

    text: str
    until: float | None = None


@dataclass(frozen=True)
class Fragment:
    """``name``: unique among the competition's fragments (it names the kept entry); ``parts``:
    the parts it shows (matches.standings.cache.part_key); ``live``: it shows the live marks;
    ``scopes``: page scopes of no competition whose data it shows too (the coach ratings,
    ``ratings.models.PAGES_SCOPE``: bumped by their own services with ``invalidate_scope``)."""

    name: str
    parts: tuple[str, ...]
    render: Callable[[], Html | str]
    live: bool = False
    scopes: tuple[str, ...] = ()


@dataclass(frozen=True)
class Outline:
    """What every page of a competition is laid out by: its id and its stages (id, kind) in order;
    ``version``: the version of "c" it was read under; ``places_thirds``: a group stage of it
    places its best third-placed teams in a later stage's fixtures (its tables show those)."""

    competition_id: int
    stages: tuple[tuple[int, str], ...]
    version: int
    places_thirds: bool = False

    def stage_parts(self, kinds: Iterable[str] | None = None) -> tuple[str, ...]:
        wanted = None if kinds is None else set(kinds)
        return tuple(f"s{i}" for i, kind in self.stages if wanted is None or kind in wanted)

    def parts_through(self, kinds: Iterable[str]) -> tuple[str, ...]:
        """The parts of the stages up to the last one of these kinds: what a table of such a
        stage shows (its own results, its feeders' before it; a later stage's only where best
        thirds are placed in it: then every stage)."""
        wanted = set(kinds)
        last = max((n for n, (_, kind) in enumerate(self.stages) if kind in wanted), default=-1)
        if self.places_thirds:
            last = len(self.stages) - 1
        return tuple(f"s{i}" for i, _ in self.stages[: last + 1])

    def stage_ids(self, kinds: Iterable[str]) -> list[int]:
        wanted = set(kinds)
        return [i for i, kind in self.stages if kind in wanted]


# A page's template context from the outline and the slots (their HTML, or the frame's markers).
Context = Callable[[Outline, Mapping[str, SafeString]], dict[str, Any]]


def _entry_key(slug: str, name: str) -> str:
    return f"frag:{slug}:{name}"


def _versions(slug: str, parts: Iterable[str], found: Mapping[str, Any]) -> dict[str, int]:
    """The version of each part, from ``found`` (a get_many's answer); a missing one is set now."""
    out: dict[str, int] = {}
    for part in parts:
        key = part_key(slug, part)
        value = found.get(key)
        if value is None:
            value = time.time_ns()
            # add(): readers racing on a missing version agree on one.
            if not cache.add(key, value, PART_SECONDS):
                value = cache.get(key, value)
        out[part] = int(value)
    return out


# The outline each competition had when this process last read it: assemble() lays its page out
# by it and checks its version in the same round trip as the fragments' (read again if it moved).
_outlines: dict[str, Outline] = {}


def outline(slug: str) -> Outline:
    """The competition's outline, kept under "c": one round trip. Http404 for no such competition
    (and nothing is stored for it)."""
    version_key, entry_key = part_key(slug, WHOLE), _entry_key(slug, "outline")
    found = cache.get_many([version_key, entry_key])
    made = found.get(entry_key)
    if made is None or version_key not in found or made.version != found[version_key]:
        competition = Competition.objects.filter(slug=slug).values_list("id", flat=True).first()
        if competition is None:
            raise Http404("No such competition.")
        version = _versions(slug, [WHOLE], found)[WHOLE]
        stages = Stage.objects.filter(competition_id=competition).order_by("order")
        rows = tuple(stages.values_list("id", "kind"))
        thirds = stages.filter(kind=Stage.Kind.GROUPS, best_thirds__gt=0).exists()
        made = Outline(competition, rows, version, thirds)
        cache.set(entry_key, made, PAGE_SECONDS)
    if len(_outlines) >= 256:
        _outlines.clear()
    _outlines[slug] = made
    return made


def _scope_versions(scopes: Iterable[str], found: Mapping[str, Any]) -> dict[str, int]:
    """The version of each page scope, from ``found``; a missing one is set now (never expiring,
    as ``invalidate_scope`` sets it)."""
    out: dict[str, int] = {}
    for scope in scopes:
        key = scope_key(scope)
        value = found.get(key)
        if value is None:
            value = time.time_ns()
            if not cache.add(key, value, None):
                value = cache.get(key, value)
        out[scope] = int(value)
    return out


def _stamp(
    fragment: Fragment, versions: Mapping[str, int], live: str, scopes: Mapping[str, int]
) -> tuple[Any, ...]:
    stamp: tuple[Any, ...] = tuple(versions[p] for p in fragment.parts)
    stamp += tuple((s, scopes[s]) for s in fragment.scopes)
    return (*stamp, live) if fragment.live else stamp


@dataclass(frozen=True)
class Fetched:
    html: dict[str, str]  # each fragment's HTML by name
    versions: dict[str, int]  # of the parts read
    extra: dict[str, Any]  # the kept entries of the extra names, None where absent


def fetch(
    slug: str, fragments: Sequence[Fragment], *, extra: Sequence[str] = (), laid_out: Outline | None = None
) -> Fetched | None:
    """Each fragment's HTML, kept or rendered now, in one get_many (and one set_many for those
    rendered); ``extra``: names of other kept entries read in the same round trip (the frame).
    None, and nothing rendered, when the fragments were laid out by an outline (``laid_out``) that
    is not the competition's any more."""
    parts = {p for f in fragments for p in f.parts} | {WHOLE}
    entry_keys = {f.name: _entry_key(slug, f.name) for f in fragments}
    extra_keys = {name: _entry_key(slug, name) for name in extra}
    scopes = {s for f in fragments for s in f.scopes}
    found = cache.get_many(
        [
            *(part_key(slug, p) for p in parts),
            *(scope_key(s) for s in scopes),
            *entry_keys.values(),
            *extra_keys.values(),
        ]
    )
    versions = _versions(slug, parts, found)
    if laid_out is not None and versions[WHOLE] != laid_out.version:
        return None
    scope_versions = _scope_versions(scopes, found)
    live = live_marks(slug) if any(f.live for f in fragments) else ""
    now = time.time()
    html: dict[str, str] = {}
    stale: dict[str, Any] = {}
    for fragment in fragments:
        stamp = _stamp(fragment, versions, live, scope_versions)
        entry = found.get(entry_keys[fragment.name])
        if entry is not None and entry[0] == stamp and (entry[1] is None or now < entry[1]):
            html[fragment.name] = entry[2]
            continue
        made = fragment.render()
        if isinstance(made, str):
            made = Html(made)
        html[fragment.name] = made.text
        stale[entry_keys[fragment.name]] = (stamp, made.until, made.text)
    if stale:
        cache.set_many(stale, PAGE_SECONDS)
    return Fetched(html, versions, {name: found.get(key) for name, key in extra_keys.items()})


def slot(name: str) -> SafeString:
    """A marker for ``filled()`` that is the same in every process (a fragment kept whole may
    hold it, in place of another fragment's HTML): no stored text has a NUL byte (PostgreSQL's
    text cannot), and what the templates print of it is escaped."""
    return mark_safe(f"\x00slot:{name}\x00")  # noqa: S308 - a constant marker


def filled(text: str, slots: Mapping[str, str]) -> str:
    """``text`` with each ``slot(name)`` replaced by ``slots[name]``."""
    for name, html in slots.items():
        text = text.replace(f"\x00slot:{name}\x00", html)
    return text


def whole(slug: str, fragment: Fragment | Callable[[Outline], Fragment]) -> str:
    """The HTML of a page kept as one fragment (a page of one fixture or team: nothing in it is
    shared with another page). A fragment laid out by the outline (given as a function of it) is
    checked against the outline in the same round trip, as assemble() does."""
    if isinstance(fragment, Fragment):
        fetched = fetch(slug, [fragment])
        assert fetched is not None  # (not laid out: never None)
        return fetched.html[fragment.name]
    laid_out = _outlines.get(slug) or outline(slug)
    made = fragment(laid_out)
    fetched = fetch(slug, [made], laid_out=laid_out)
    if fetched is None:
        made = fragment(outline(slug))
        fetched = fetch(slug, [made])
        assert fetched is not None
    return fetched.html[made.name]


# The big fragments served whole (a replay's document: about 0.4 MB of JSON) as this process last
# sent them, under their stamp: a reader whose stamp still matches reads the versions alone (a few
# bytes) instead of the whole entry, and sends the same bytes again, nothing decoded or copied.
# The stamp is read in the same round trip as for any fragment, so a copy is right exactly as long
# as the shared entry is.
_BIG_KEPT = 8
_big: dict[str, tuple[tuple[Any, ...], bytes]] = {}


def whole_bytes(slug: str, fragment: Fragment) -> bytes:
    """``whole()``'s HTML (or JSON) encoded, for a big fragment of no live marks and no scopes."""
    assert not fragment.live and not fragment.scopes
    key = _entry_key(slug, fragment.name)
    local = _big.get(key)
    if local is not None:
        found = cache.get_many([part_key(slug, p) for p in fragment.parts])
        if _stamp(fragment, _versions(slug, fragment.parts, found), "", {}) == local[0]:
            return local[1]
    fetched = fetch(slug, [fragment])
    assert fetched is not None  # (not laid out: never None)
    body = fetched.html[fragment.name].encode()
    _big.pop(key, None)
    if len(_big) >= _BIG_KEPT:
        del _big[next(iter(_big))]
    _big[key] = (_stamp(fragment, fetched.versions, "", {}), body)
    return body


def laid_out_fetch(
    slug: str, fragments: Callable[[Outline], Sequence[Fragment]], *, extra: Sequence[str] = ()
) -> tuple[Outline, Fetched]:
    """``fetch()`` of ``fragments(outline)``, the competition's outline as this process knows it
    (checked in the same round trip: when it moved, read again and the fragments laid out again)."""
    laid_out = _outlines.get(slug) or outline(slug)
    fetched = fetch(slug, fragments(laid_out), extra=extra, laid_out=laid_out)
    if fetched is None:
        laid_out = outline(slug)
        fetched = fetch(slug, fragments(laid_out), extra=extra)
        assert fetched is not None
    return laid_out, fetched


def page(
    request: HttpRequest,
    slug: str,
    template: str,
    context: Context,
    fragments: Callable[[Outline], Sequence[Fragment]],
    *,
    slots: Callable[[dict[str, str]], dict[str, str]] | None = None,
    variant: str = "",
) -> HttpResponse:
    """assemble()'s page as the response."""
    return HttpResponse(assemble(request, slug, template, context, fragments, slots=slots, variant=variant))


def assemble(
    request: HttpRequest,
    slug: str,
    template: str,
    context: Context,
    fragments: Callable[[Outline], Sequence[Fragment]],
    *,
    slots: Callable[[dict[str, str]], dict[str, str]] | None = None,
    variant: str = "",
) -> str:
    """The page ``template`` with ``context(outline, slots)``, its slots filled with the HTML of
    ``fragments(outline)``, the competition's outline as this process knows it (checked in the
    same round trip: when it moved, read again and the page laid out again).

    ``slots``: the slots' HTML from the fragments' (default: a slot per fragment, by name);
    ``variant``: what else than the path the frame shows (the query parameters the view reads).
    For anonymous visitors the frame is kept under "c"; for others it is rendered each time.
    """
    frame_name = f"frame:{request.path}?{variant}"
    shared = not personal(request)
    extra = [frame_name] if shared else []
    laid_out, fetched = laid_out_fetch(slug, fragments, extra=extra)
    filled = slots(fetched.html) if slots is not None else fetched.html
    if not shared:
        values = {name: mark_safe(text) for name, text in filled.items()}  # noqa: S308 - rendered HTML
        return render_to_string(template, context(laid_out, values), request)
    stamp = fetched.versions[WHOLE]
    entry = fetched.extra[frame_name]
    if entry is not None and entry[0] == stamp:
        pieces = entry[1]
    else:
        markers = {name: mark_safe(f"\x00{_TOKEN}:{name}\x00") for name in filled}  # noqa: S308
        pieces = tuple(_MARKER.split(render_to_string(template, context(laid_out, markers), request)))
        cache.set(_entry_key(slug, frame_name), (stamp, pieces), PAGE_SECONDS)
    # pieces: literal, slot name, literal, slot name, ..., literal.
    return "".join(p if i % 2 == 0 else filled[p] for i, p in enumerate(pieces))

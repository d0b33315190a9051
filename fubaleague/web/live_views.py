"""The tournament live centre (every match of a competition being scored, one page a competition
and a round) and its one JSON document, shared by every reader (scoring.centre).

The document is the same for everyone (it holds only what is public), so it is answered with
its ETag while nothing moved, from the version the process read at most a second ago (no query:
scoring.held), and may be kept a second by a cache in front of the app (nginx's micro-cache of
/c/, deploy/nginx): a thousand readers then cost about one request a second.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, partial

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.views.decorators.http import require_GET

from fubaleague.web import fragments, screen
from fubaleague.web.page_cache import anonymous_page
from matches.replay import pitch_geometry
from matches.standings.cache import WHOLE
from scoring import centre
from tournaments.models import Competition, Fixture, Stage

# Readers poll about every 1.5 s; a shared cache may keep the document this long.
SHARED_SECONDS = 1


def _nav(competition: Competition) -> dict[str, object]:
    stages = list(competition.stages.all())
    return {
        "competition": competition,
        "current": "live",
        "has_tables": any(s.kind != Stage.Kind.KNOCKOUT for s in stages),
        "has_bracket": any(s.kind == Stage.Kind.KNOCKOUT for s in stages),
        "stages": stages,
    }


@require_GET
@anonymous_page()
def live_centre(request: HttpRequest, slug: str, round_number: int | None = None) -> HttpResponse:
    def parts(outline: fragments.Outline) -> list[fragments.Fragment]:
        # The rounds: a fixture of a new round bumps its stage (the rest of the page is "c").
        name = f"live:rounds:{'' if round_number is None else round_number}"
        rounds = partial(_rounds_html, outline.competition_id, slug, round_number)
        return [fragments.Fragment(name, (WHOLE, *outline.stage_parts()), rounds)]

    def context(outline: fragments.Outline, slots: Mapping[str, SafeString]) -> dict[str, object]:
        competition = get_object_or_404(Competition, pk=outline.competition_id)
        return {
            **_nav(competition),
            "round": round_number,
            "rounds_html": next(iter(slots.values())),
            "doc_url": reverse("tournaments:live_json", args=[slug]),
            "match_url": reverse("tournaments:match", args=[slug, 0]),
            "pitch": _centre_pitch(),
        }

    return fragments.page(request, slug, "tournaments/live_centre.html", context, parts)


def _rounds_html(competition_id: int, slug: str, round_number: int | None) -> str:
    rounds = sorted(
        set(Fixture.objects.filter(competition_id=competition_id).values_list("round", flat=True))
    )
    if round_number is not None and round_number not in rounds:
        name = Competition.objects.filter(pk=competition_id).values_list("name", flat=True).first()
        raise Http404(f"{name} has no round {round_number}.")
    context = {"slug": slug, "round": round_number, "rounds": rounds}
    return render_to_string("tournaments/partials/centre_rounds.html", context)


@cache
def _centre_pitch() -> SafeString:
    """The cards' pitch, the same on every page (the engine's geometry, no team's names): drawn
    once a process, it was most of the page's rendering (a floatformat per area)."""
    names = {"home": "Home", "away": "Away"}
    context = {"pitch": pitch_geometry(names=names), "names": names, "pitch_id": "centre-pitch-svg"}
    return mark_safe(render_to_string("tournaments/partials/pitch.html", context))  # noqa: S308


@require_GET
def live_json(request: HttpRequest, slug: str) -> HttpResponse:
    # A thousand readers poll every 1.5 s: the version is read at most once a second a process.
    found = centre.held_version(slug=slug)
    if found is None:
        raise Http404("No such competition.")
    competition_id, ver = found
    etag = centre.etag(competition_id, ver)
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        body = centre.document(competition_id=competition_id, ver=ver)
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    # Public: the same bytes for everyone, never an unconfirmed result (scoring.centre).
    response["Cache-Control"] = f"public, max-age={SHARED_SECONDS}"
    return response


@require_GET
def big_screen(request: HttpRequest, slug: str) -> HttpResponse:
    """The display-only page for a projector or TV: no login, nothing to click; it cycles its
    views from the two shared documents (fubaleague/web/screen.py, scoring/centre.py)."""
    competition = get_object_or_404(Competition, slug=slug)
    seconds = request.GET.get("seconds", "")
    context = {
        "competition": competition,
        "doc_url": reverse("tournaments:live_json", args=[slug]),
        "screen_url": reverse("tournaments:screen_json", args=[slug]),
        "clock_url": reverse("tournaments:clock_json", args=[slug]),
        # a venue may slow the cycle (or a test speed it up): 3 to 120 s a page
        "seconds": min(max(int(seconds), 3), 120) if seconds.isdigit() else screen.PAGE_SECONDS,
    }
    return render(request, "tournaments/big_screen.html", context)


@require_GET
def screen_json(request: HttpRequest, slug: str) -> HttpResponse:
    competition = get_object_or_404(Competition, slug=slug)
    etag, body = screen.document(competition)
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        response = HttpResponse(body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = f"public, max-age={SHARED_SECONDS}"
    return response


@require_GET
def clock_json(request: HttpRequest, slug: str) -> HttpResponse:
    """The rounds' start and end times with the server's now: the venue's countdowns
    (static/fubaleague/countdown.js) count from the server's clock, never the device's."""
    competition = get_object_or_404(Competition, slug=slug)
    response = HttpResponse(screen.clock_document(competition), content_type="application/json")
    # The "now" is this answer's: no cache in front may hand it out later.
    response["Cache-Control"] = "no-store"
    return response

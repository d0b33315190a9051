"""The scorer page, the live JSON the scorer and the match page poll, and starting a session.

The page talks to /api/v1/scoring-sessions for every write (the same operations a native app
uses). Spectators and the other club's device poll ``live.json``: a versioned document with an
ETag, answered 304 from one database read while nothing changed (docs/scorer-internals.md says why polling).
"""

from __future__ import annotations

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, Http404, HttpRequest, HttpResponse, HttpResponseNotModified
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from kernel.auth import signed_in_user
from kernel.errors import ApplicationError, NotFound, PermissionDenied
from matches.replay import pitch_geometry
from matches.selectors import audit_trail_is_full_for
from scoring import live, selectors, services, web_engine
from tournaments.models import Fixture

_UNCONFIRMED = "The match is over; its result and log are public once the clubs have confirmed it."


def _match_url(fixture: Fixture) -> str:
    # By the URL's name: the public pages sit above the apps, so the scorer does not import them.
    return reverse("tournaments:match", args=[fixture.competition.slug, fixture.pk])


@require_GET
def live_json(request: HttpRequest, session_id: int) -> HttpResponse:
    head = selectors.live_head(session_id=session_id)
    if head is None:
        error = {
            "error": {"code": "not_found", "message": f"No scoring session {session_id}.", "details": {}}
        }
        return HttpResponse(json.dumps(error), status=404, content_type="application/json")
    version, private_to = head
    refused = _unconfirmed_for(request, session_id, private_to)
    if refused is not None:
        return refused
    etag = live.etag(session_id, version)
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        document = live.document(session_id=session_id, version=version)
        response = HttpResponse(document.body, content_type="application/json")
    response["ETag"] = etag
    # Every poll revalidates: a stale copy would hide an entry from the other device.
    response["Cache-Control"] = "no-cache"
    return response


def _unconfirmed_for(request: HttpRequest, session_id: int, private_to: int | None) -> HttpResponse | None:
    """The 403 for a session only the clubs and staff of fixture ``private_to`` may read now (with
    its status and teams, all that others may know of it), or None when this user may."""
    if private_to is None:
        return None
    fixture = Fixture.objects.filter(id=private_to).first()
    if fixture is not None and audit_trail_is_full_for(fixture=fixture, user=request.user):
        return None
    summary = selectors.private_summary(selectors.session_get(session_id=session_id))
    error = {"error": {"code": "result_unconfirmed", "message": _UNCONFIRMED, "details": summary}}
    return HttpResponse(json.dumps(error), status=403, content_type="application/json")


@require_GET
def live_story(request: HttpRequest, session_id: int) -> HttpResponse:
    """The spectators' feed by turn and key moments (the live panel asks when the version moves);
    ``?frames=1`` adds the pitch of every moment (asked once, when a spectator steps back)."""
    head = selectors.live_head(session_id=session_id)
    if head is None:
        raise NotFound(f"No scoring session {session_id}.")
    version, private_to = head
    refused = _unconfirmed_for(request, session_id, private_to)
    if refused is not None:
        return refused
    frames = request.GET.get("frames") == "1"
    etag = f'"story-s{session_id}v{version}{"f" if frames else ""}"'
    if request.headers.get("If-None-Match") == etag:
        response: HttpResponse = HttpResponseNotModified()
    else:
        document = live.story(session_id=session_id, version=version, frames=frames)
        response = HttpResponse(document.body, content_type="application/json")
    response["ETag"] = etag
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def scorer(request: HttpRequest, session_id: int) -> HttpResponse:
    session = selectors.session_get(session_id=session_id)
    fixture = session.fixture
    side = None
    if request.user.is_authenticated:
        try:
            side = services.writer_side(signed_in_user(request.user), fixture)
        except PermissionDenied:
            side = None
    names = selectors.session_names(session)
    # the areas' labels in the one vocabulary (rules_engine.areas), as on the spectators' pitch
    pitch = pitch_geometry(names=names)
    return render(
        request,
        "scoring/scorer.html",
        {
            "session": session,
            "fixture": fixture,
            "competition": fixture.competition,
            "pitch": pitch,
            "can_write": side is not None,
            "side": side or "",
            "names": names,
            "match_url": _match_url(fixture),
            "engine": _local_engine() if side is not None else None,
        },
    )


def _local_engine() -> dict[str, str] | None:
    """Where the page finds the local engine (docs/scorer-internals.md), or None: server-driven mode."""
    manifest = web_engine.current() if settings.SCORER_LOCAL_ENGINE else None
    if manifest is None:
        return None
    return {
        "bundle": reverse("scoring:engine_bundle", args=[manifest["file"]]),
        "digest": manifest["digest"],
        "worker": static("scoring/local/engine-worker.js"),
        "pyodide": f"{settings.STATIC_URL}{settings.PYODIDE_STATIC_PREFIX}/",
        # Precompiled and trimmed (scoring/web_engine.py); absent: Pyodide's own, from sources.
        "stdlib": reverse("scoring:engine_bundle", args=[manifest["stdlib"]])
        if manifest.get("stdlib")
        else "",
    }


# Serves the scorer's app shell from the cache the page filled (static/scoring/js/local-first.js):
# the scorer page network first, static files and the engine bundle cache first (their names
# carry their content hash or version). Served from /score/ so that its scope covers the pages.
_SERVICE_WORKER = """'use strict';
const CACHE = 'fuba-scorer-v1';
const PAGE = /^\\/score\\/\\d+\\/$/;
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (e) => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  if (req.mode === 'navigate' && PAGE.test(url.pathname)) {
    e.respondWith(fetch(req).then((r) => {
      if (r.ok) { const copy = r.clone(); caches.open(CACHE).then((c) => c.put(url.pathname, copy)); }
      return r;
    }).catch(() => caches.match(url.pathname).then((hit) => hit || Response.error())));
  } else if (url.pathname.startsWith(%(static)s) || url.pathname.startsWith('/score/engine/')) {
    e.respondWith(caches.match(url.pathname).then((hit) => hit || fetch(req)));
  }
});
// Web push of the notifications (docs/notifications.md): one notification per event (its tag),
// a tap opens the page it names (or brings that tab forward).
self.addEventListener('push', (e) => {
  let d = {};
  try { d = e.data ? e.data.json() : {}; } catch (_) { d = { title: e.data ? e.data.text() : '' }; }
  e.waitUntil(self.registration.showNotification(d.title || 'FUBA League', {
    body: d.body || '', tag: d.tag || d.id || undefined, data: { url: d.url || '/' },
  }));
});
self.addEventListener('notificationclick', (e) => {
  e.notification.close();
  const url = (e.notification.data && e.notification.data.url) || '/';
  e.waitUntil(self.clients.matchAll({ type: 'window' }).then((tabs) => {
    const open = tabs.find((t) => t.url === url && 'focus' in t);
    return open ? open.focus() : self.clients.openWindow(url);
  }));
});
"""


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    body = _SERVICE_WORKER % {"static": json.dumps(settings.STATIC_URL)}
    response = HttpResponse(body, content_type="application/javascript")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def engine_bundle(request: HttpRequest, name: str) -> FileResponse:
    """The engine bundle; its name carries its digest, so browsers keep it for a year."""
    path = web_engine.bundle_path(name)
    if path is None:
        raise Http404("No such engine bundle (a newer engine replaced it).")
    response = FileResponse(path.open("rb"), content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@login_required(login_url="tournaments:login")
@require_POST
def start(request: HttpRequest, fixture_id: int) -> HttpResponse:
    fixture = Fixture.objects.select_related("competition").filter(id=fixture_id).first()
    if fixture is None:
        return HttpResponse(status=404)
    try:
        session = services.session_start(fixture_id=fixture.id, user=signed_in_user(request.user))
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return redirect(_match_url(fixture))
    return redirect(reverse("scoring:scorer", args=[session.id]))

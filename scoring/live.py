"""The live endpoint's fast path: ``GET /score/<id>/live.json`` answered from the cache in front of
Django's request cycle.

Spectators and the other club's phone poll this document every 1.5 s, so it is by far the most
requested URL while matches are scored. Once a version's document is cached (every write
publishes it, scoring.published), answering is one or two cache reads; Django's
middleware, URL resolution and response machinery cost about three times that (measured: about
900 answers a second through Django against about 2,700 here, same gunicorn workers). Anything
the fast path cannot answer from the cache alone — an unknown session, a version whose document
is not cached yet, a host Django would refuse, a plain-HTTP request where HTTPS is required, any
other method — goes to Django's view (scoring.views.live_json), which answers it as before and
fills the cache.

The answer carries the headers Django's middleware would add to this JSON document (a test
compares them with the view's).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import DisallowedHost
from django.core.handlers.wsgi import WSGIRequest

from kernel.csp import STRICT
from scoring.published import live_key, version_key

PATH = re.compile(r"^/score/([1-9][0-9]{0,17})/live\.json$")
StartResponse = Callable[..., Any]
WSGIApp = Callable[[dict[str, Any], StartResponse], Iterable[bytes]]


def etag(session_id: int, version: int) -> str:
    return f'"s{session_id}v{version}"'


def common_headers(tag: str, *, secure: bool) -> list[tuple[str, str]]:
    """What the live view's response carries besides its body and status: its own caching
    headers and those of SecurityMiddleware, XFrameOptionsMiddleware and the CSP middleware."""
    headers = [
        ("ETag", tag),
        # Every poll revalidates: a stale copy would hide an entry from the other device.
        ("Cache-Control", "no-cache"),
    ]
    if settings.SECURE_HSTS_SECONDS and secure:
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        headers.append(("Strict-Transport-Security", hsts))
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers.append(("X-Content-Type-Options", "nosniff"))
    if settings.SECURE_REFERRER_POLICY:
        headers.append(("Referrer-Policy", str(settings.SECURE_REFERRER_POLICY)))
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers.append(("Cross-Origin-Opener-Policy", settings.SECURE_CROSS_ORIGIN_OPENER_POLICY))
    headers += [("X-Frame-Options", settings.X_FRAME_OPTIONS), ("Content-Security-Policy", STRICT)]
    return headers


class LiveFastPath:
    """WSGI middleware: serve cached live documents, hand everything else to ``app``."""

    def __init__(self, app: WSGIApp) -> None:
        self.app = app

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        match = PATH.match(environ.get("PATH_INFO", ""))
        if match is None or environ.get("REQUEST_METHOD") != "GET" or environ.get("QUERY_STRING"):
            return self.app(environ, start_response)
        answer = self.answer(environ, int(match.group(1)))
        if answer is None:
            return self.app(environ, start_response)
        status, headers, body = answer
        start_response(status, headers)
        return [body]

    def answer(
        self, environ: dict[str, Any], session_id: int
    ) -> tuple[str, list[tuple[str, str]], bytes] | None:
        request = WSGIRequest(environ)
        try:
            request.get_host()  # Django answers 400 for a host outside ALLOWED_HOSTS
        except DisallowedHost:
            return None
        secure = request.is_secure()
        if settings.SECURE_SSL_REDIRECT and not secure:
            return None
        version = cache.get(version_key(session_id))
        if not isinstance(version, int):
            return None
        tag = etag(session_id, version)
        if environ.get("HTTP_IF_NONE_MATCH") == tag:
            return "304 Not Modified", common_headers(tag, secure=secure), b""
        body = cache.get(live_key(session_id, version))
        if not isinstance(body, bytes):
            return None
        headers = [
            ("Content-Type", "application/json"),
            ("Content-Length", str(len(body))),
            *common_headers(tag, secure=secure),
        ]
        return "200 OK", headers, body

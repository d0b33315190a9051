"""Content-Security-Policy on every response.

The public pages load nothing from another origin and run no inline code: their scripts and
styles are static files (no inline <script>, no style="" or on…="" attributes; a test scans the
templates). So the policy is strict: everything from 'self', nothing inline, no plugins, no
framing, forms post only here. The admin and the API's documentation pages are third-party
templates (Django's admin, Swagger UI, Redoc) that set inline styles and, for Redoc, start a
web worker from a blob: they get inline styles and blob: workers, never inline scripts.
"""

from __future__ import annotations

import re
from typing import Any

from django.http import HttpRequest, HttpResponse

STRICT = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "font-src 'self'; connect-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
THIRD_PARTY_PAGES = ("/admin/", "/api/v1/docs", "/api/v1/redoc")
THIRD_PARTY = (
    STRICT.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'") + "; worker-src 'self' blob:"
)


# The scorer page runs the rules engine in a Web Worker made from a blob of its script (the page
# reads it, and Pyodide's files, through its service worker's cache, so the engine also starts
# offline): the worker inherits this policy, loads Pyodide's scripts from blobs too and compiles
# WebAssembly. Still no inline code and nothing from another origin.
SCORER_PAGE = re.compile(r"^/score/\d+/$")
SCORER = (
    STRICT.replace("script-src 'self'", "script-src 'self' 'wasm-unsafe-eval' blob:")
    + "; worker-src 'self' blob:"
)


def policy_for(path: str) -> str:
    if SCORER_PAGE.match(path):
        return SCORER
    return THIRD_PARTY if path.startswith(THIRD_PARTY_PAGES) else STRICT


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy_for(request.path)
        return response

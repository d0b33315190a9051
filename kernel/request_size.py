"""413 for request bodies over REQUEST_MAX_BYTES, on every endpoint, before anything reads them.

Django refuses a body over DATA_UPLOAD_MAX_MEMORY_SIZE only when something reads it through
``request.body`` or ``request.POST``, and then with RequestDataTooBig, which reached the API
as a 500 logged with a traceback at ERROR. The declared length is known before
the body is read: answer 413 with the API's error body under /api/ and a plain page elsewhere,
logged as a warning. (Turn logs have their own, smaller, limit: matches/turn_logs.py.)
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from kernel.api_errors import error_body

logger = logging.getLogger("fubaleague.request_size")


def too_large_response(request: HttpRequest, size: int | None) -> HttpResponse:
    limit = settings.REQUEST_MAX_BYTES
    told = "larger than allowed" if size is None else f"{size:,} bytes"
    message = f"The request body is {told}; the maximum is {limit:,} bytes."
    logger.warning("413 for %s %s (%s bytes)", request.method, request.path, size)
    if request.path.startswith("/api/"):
        return JsonResponse(
            error_body("payload_too_large", message, {"max_bytes": limit, "bytes": size}), status=413
        )
    return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")


class RequestSizeMiddleware:
    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            size = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            size = 0  # Django answers a malformed length itself
        if size > settings.REQUEST_MAX_BYTES:
            return too_large_response(request, size)
        return self.get_response(request)

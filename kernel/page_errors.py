"""The pages' one mapping of the domain error (ApplicationError) to HTTP.

The API maps it in its exception handler (kernel.api_errors); the pages raise it from the
services and selectors they call (an unknown id, a club acting on another club's fixture, a
result already confirmed), and a view that does not catch it would answer 500. This middleware
answers those with their status: 404 and 403 through Django's own handlers (so the pages' 404
is the same whatever raised it), any other status (400, 409, 429, ...) as a short page naming
the error. Views that show a refusal as a message on the page still catch it themselves.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.handlers.exception import response_for_exception
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string

from kernel.errors import ApplicationError

logger = logging.getLogger("fubaleague.pages")


class ApplicationErrorMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, ApplicationError):
            return None
        if exception.status_code == 404:
            return response_for_exception(request, Http404(exception.message))
        if exception.status_code == 403:
            return response_for_exception(request, DjangoPermissionDenied(exception.message))
        logger.info("Page %s refused (%s): %s", request.path, exception.code, exception.message)
        body = render_to_string(
            "error.html",
            {"status": exception.status_code, "code": exception.code, "message": exception.message},
            request=request,
        )
        return HttpResponse(body, status=exception.status_code)

"""The one place where errors become HTTP responses for the API.

Every API error body has the same shape, whatever raised it:

    {"error": {"code": "<stable string>", "message": "<for a person>", "details": {...}}}

- `kernel.errors.ApplicationError` (raised by services) keeps its own status, code and details;
  a rejected turn log carries its errors as `details.errors`, each with turn/stage/rule/reason.
- DRF errors (validation, authentication, permission, throttling, 404, 405, 415) keep DRF's status;
  field validation errors go to `details` keyed by field path, so a client can tell what and where.
- Django's Http404 / PermissionDenied and `ValidationError` from model `clean()` are mapped too.
- Anything else is a bug: it is logged with its traceback and answered with a 500 in the same shape
  (never an HTML page or a stack trace to an API client).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from kernel.errors import ApplicationError

logger = logging.getLogger("fubaleague.api")

# DRF's default codes mapped to the names this API documents; others pass through unchanged.
_DRF_CODES = {
    "invalid": "validation_error",
    "parse_error": "malformed_request",
    "not_authenticated": "not_authenticated",
    "authentication_failed": "authentication_failed",
    "permission_denied": "permission_denied",
    "not_found": "not_found",
    "method_not_allowed": "method_not_allowed",
    "not_acceptable": "not_acceptable",
    "unsupported_media_type": "unsupported_media_type",
    "throttled": "throttled",
}


def error_body(code: str, message: str, details: Any = None) -> dict[str, Any]:
    return {"error": {"code": code, "message": message, "details": details if details is not None else {}}}


def _first_message(detail: Any, path: str = "") -> tuple[str, str] | None:
    """The first (field path, message) of a nested DRF error detail, for the human-readable summary."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            # Nested list serializers report item errors keyed by index: show them as [i].
            if isinstance(key, int) or str(key).isdigit():
                sub = f"{path}[{key}]"
            else:
                sub = f"{path}.{key}" if path else str(key)
            found = _first_message(value, sub)
            if found:
                return found
    elif isinstance(detail, list):
        for index, value in enumerate(detail):
            # Lists of plain messages belong to the field itself; lists of dicts are nested items.
            sub = path if not isinstance(value, dict | list) else f"{path}[{index}]"
            found = _first_message(value, sub)
            if found:
                return found
    elif detail is not None:
        return path, str(detail)
    return None


def _plain(detail: Any) -> Any:
    """ErrorDetail objects → plain str, recursively, so the body is simple JSON."""
    if isinstance(detail, dict):
        return {str(k): _plain(v) for k, v in detail.items()}
    if isinstance(detail, list):
        return [_plain(v) for v in detail]
    return str(detail)


def _validation_response(exc: exceptions.ValidationError) -> Response:
    details = _plain(exc.detail)
    if isinstance(details, list):
        # A non-field error raised as ValidationError("...") arrives as a bare list.
        details = {"non_field_errors": details}
    first = _first_message(details)
    if first is None:
        message = "The request is invalid."
    elif first[0] in ("", "non_field_errors"):
        message = first[1]
    else:
        message = f"{first[0]}: {first[1]}"
    return Response(error_body("validation_error", message, details), status=status.HTTP_400_BAD_REQUEST)


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, ApplicationError):
        set_rollback()
        response = Response(error_body(exc.code, exc.message, exc.details), status=exc.status_code)
        wait = exc.details.get("retry_after_seconds") if isinstance(exc.details, dict) else None
        if exc.status_code == status.HTTP_429_TOO_MANY_REQUESTS and isinstance(wait, int):
            response["Retry-After"] = str(wait)
        return response

    if isinstance(exc, RequestDataTooBig):
        # Normally answered by kernel.request_size before the view; this is for a body without
        # a declared length that Django refused while reading it.
        set_rollback()
        return Response(
            error_body("payload_too_large", f"The request body is larger than allowed: {exc}"),
            status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE,
        )

    if isinstance(exc, Http404):
        exc = exceptions.NotFound(str(exc) or "Not found.")
    elif isinstance(exc, DjangoPermissionDenied):
        exc = exceptions.PermissionDenied(str(exc) or None)
    elif isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        exc = exceptions.ValidationError(detail)

    if isinstance(exc, exceptions.ValidationError):
        set_rollback()
        return _validation_response(exc)

    if isinstance(exc, exceptions.APIException):
        set_rollback()
        headers: dict[str, str] = {}
        if getattr(exc, "auth_header", None):
            headers["WWW-Authenticate"] = exc.auth_header  # type: ignore[attr-defined]
        details: dict[str, Any] = {}
        # Throttled.__init__ sets `wait`; djangorestframework-stubs does not declare it.
        wait = exc.wait if isinstance(exc, exceptions.Throttled) else None  # type: ignore[attr-defined]
        if wait is not None:
            headers["Retry-After"] = str(int(wait))
            details["retry_after_seconds"] = int(wait)
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "error"
        exc_detail = exc.detail
        message = str(exc_detail) if not isinstance(exc_detail, dict | list) else "The request failed."
        return Response(
            error_body(_DRF_CODES.get(code, code), message, details),
            status=exc.status_code,
            headers=headers,
        )

    # An unexpected exception is a bug; the client still gets the documented shape.
    set_rollback()
    view = context.get("view")
    logger.exception("Unhandled error in API view %s", type(view).__name__ if view else "?")
    return Response(
        error_body("server_error", "Internal server error; the failure has been logged."),
        status=status.HTTP_500_INTERNAL_SERVER_ERROR,
    )

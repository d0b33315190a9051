"""The one domain error type of the service.

Services raise ApplicationError (or a subclass); the API maps it to HTTP in one
place (kernel.api_errors) and the admin and pages show its message. `code`
is a stable machine-readable string, `details` carries structured context such
as the turn/stage/rule of a rejected turn log.
"""

from __future__ import annotations

from typing import Any


class ApplicationError(Exception):
    status_code = 400
    # The documented code of a 400 (docs/web.md); the same one DRF's field validation maps to.
    code = "validation_error"

    def __init__(self, message: str, *, code: str | None = None, details: Any = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        self.details = details if details is not None else {}


class NotFound(ApplicationError):
    status_code = 404
    code = "not_found"


class PermissionDenied(ApplicationError):
    status_code = 403
    code = "permission_denied"


class Conflict(ApplicationError):
    """The request is valid but clashes with the current state (e.g. a result already confirmed)."""

    status_code = 409
    code = "conflict"


def posted_id(data: Any, name: str, what: str) -> int:
    """The number a page's form posts under ``name`` (a row's button names its id): a clear 400
    naming the field for anything else, never a 500 from the lookup behind it."""
    value = data.get(name, "")
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) <= 18:
        return int(value)
    raise ApplicationError(
        f"{name}: the number of the {what}, not {str(value)[:40]!r}.", details={"field": name}
    )

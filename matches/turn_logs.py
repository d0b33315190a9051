"""Synchronous turn-log checking for the API: the rules engine's verdict as a domain error.

Submitted logs are validated asynchronously (matches.services → Celery task); this module serves
clients that want the verdict at once, with every error's turn, stage, rule and reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fubaleague.errors import ApplicationError


class InvalidTurnLog(ApplicationError):
    status_code = 422
    code = "invalid_turn_log"


def _error_dict(error: Any) -> dict[str, Any]:
    if isinstance(error, Mapping):
        raw = dict(error)
    elif hasattr(error, "to_dict"):
        raw = error.to_dict()
    else:
        raw = {"reason": str(error)}
    return {
        "turn": raw.get("turn"),
        "stage": raw.get("stage"),
        "rule": raw.get("rule", ""),
        "reason": raw.get("reason", raw.get("message", "")),
        "path": raw.get("path"),
        "message": raw.get("message", raw.get("reason", "")),
    }


def validate_turn_log(log: Mapping[str, Any]) -> dict[str, Any]:
    """The derived result of a valid log; raises InvalidTurnLog listing every error found."""
    from rules_engine.validator import validate_log  # engine is plain Python; imported when used

    outcome = validate_log(log)
    errors = list(getattr(outcome, "errors", None) or [])
    if errors:
        items = [_error_dict(e) for e in errors]
        first = items[0]
        raise InvalidTurnLog(
            f"The turn log is invalid ({len(items)} error(s)); first: {first['message'] or first['reason']}",
            details={"errors": items},
        )
    result = getattr(outcome, "result", None)
    if result is not None and hasattr(result, "to_dict"):
        result = result.to_dict()
    return dict(result or {})

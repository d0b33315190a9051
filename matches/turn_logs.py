"""Synchronous turn-log checking for the API: the rules engine's verdict as a domain error.

Submitted logs are validated asynchronously (matches.services → Celery task); this module serves
clients that want the verdict at once, with every error's turn, stage, rule and reason.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings

from kernel.errors import ApplicationError
from matchplay import engine_door
from matchplay.engine_door import FubaError


class InvalidTurnLog(ApplicationError):
    status_code = 422
    code = "invalid_turn_log"


class TurnLogTooLarge(ApplicationError):
    status_code = 413
    code = "payload_too_large"


def turn_log_size(log: Any) -> int:
    """The log's size as compact JSON, the measure of TURN_LOG_MAX_BYTES and the storage quota."""
    return len(json.dumps(log, separators=(",", ":"), ensure_ascii=False).encode())


def turn_log_size_check(log: Any) -> int:
    """The log's size; TurnLogTooLarge (413) over TURN_LOG_MAX_BYTES (docs/reliability.md)."""
    size = turn_log_size(log)
    limit = settings.TURN_LOG_MAX_BYTES
    if size > limit:
        raise TurnLogTooLarge(
            f"The turn log is {size:,} bytes as compact JSON; the maximum is {limit:,} bytes "
            "(a whole real match is well under 200 KB).",
            details={"field": "turn_log", "bytes": size, "max_bytes": limit},
        )
    return size


def _error_dict(error: FubaError) -> dict[str, Any]:
    raw = error.to_dict()
    return {k: raw[k] for k in ("turn", "stage", "rule", "reason", "path", "message")}


def validate_turn_log(log: Mapping[str, Any]) -> dict[str, Any]:
    """The derived result of a valid log; raises InvalidTurnLog listing every error found."""
    turn_log_size_check(log)
    outcome = engine_door.validate_log(log)
    if outcome.errors:
        items = [_error_dict(e) for e in outcome.errors]
        first = items[0]
        raise InvalidTurnLog(
            f"The turn log is invalid ({len(items)} error(s)); first: {first['message'] or first['reason']}",
            details={"errors": items},
        )
    assert outcome.result is not None  # a report without errors is valid and carries its result
    return outcome.result.to_dict()

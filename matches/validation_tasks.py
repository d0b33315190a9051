"""Celery task: validate a submitted FUBA 3 turn log with the rules engine.

Enqueued with transaction.on_commit by matches.services.result_submit. The task claims the
submission with a conditional UPDATE (pending → validating), so a duplicate delivery does nothing;
a claim older than CLAIM_TIMEOUT is taken over, because acks_late redelivers the task of a worker
that died mid-validation.
"""

from __future__ import annotations

import dataclasses
import inspect
import logging
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from matches.models import ResultSubmission
from tournaments.selectors import fixture_players_short

logger = logging.getLogger(__name__)

CLAIM_TIMEOUT = timedelta(minutes=5)


def _plain(value: Any) -> Any:
    """The engine's report as JSON-able data (dataclasses, enums, tuples …)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [_plain(v) for v in value]
    if hasattr(value, "value") and hasattr(value, "name") and not isinstance(value, str | int | float | bool):
        return value.value
    if value is None or isinstance(value, str | int | float | bool):
        return value
    if hasattr(value, "__dict__"):
        return {k: _plain(v) for k, v in vars(value).items() if not k.startswith("_")}
    return str(value)


def _score_of(result: dict[str, Any] | None) -> list[int] | None:
    """The final score from the engine's result: tolerant of {"score": [h, a]} or {"home": {"goals"}…}."""
    if not result:
        return None
    score = result.get("score")
    if isinstance(score, list | tuple) and len(score) == 2:
        return [int(score[0]), int(score[1])]
    if isinstance(score, dict):
        for keys in (("home", "away"), ("0", "1"), ("A", "B")):
            if all(k in score for k in keys):
                return [int(score[keys[0]]), int(score[keys[1]])]
    for keys in (("home_goals", "away_goals"), ("goals_home", "goals_away")):
        if all(k in result for k in keys):
            return [int(result[keys[0]]), int(result[keys[1]])]
    return None


def run_rules_engine(
    log: dict[str, Any], context: dict[str, Any]
) -> tuple[bool, list[dict[str, Any]], dict | None]:
    """Call the rules engine; returns (valid, errors, derived result with a 'score' key)."""
    from rules_engine import api

    accepted = inspect.signature(api.validate_log).parameters
    # Pass only the context this engine version understands (e.g. players_short for suspensions).
    report = api.validate_log(log, **{k: v for k, v in context.items() if k in accepted})
    data = _plain(report)
    errors = [
        {k: e.get(k) for k in ("turn", "stage", "rule", "reason")}
        if isinstance(e, dict)
        else {"reason": str(e)}
        for e in data.get("errors") or []
    ]
    result = data.get("result")
    derived = dict(result) if isinstance(result, dict) else None
    if derived is not None:
        derived["score"] = _score_of(derived)
    return bool(data.get("valid")), errors, derived


@shared_task(name="matches.submission_log_validate", ignore_result=True)
def submission_log_validate(submission_id: int) -> str:
    from matches.services import submission_validation_record

    now = timezone.now()
    claimed = (
        ResultSubmission.objects.filter(id=submission_id)
        .filter(
            Q(validation_status=ResultSubmission.Validation.PENDING)
            | Q(validation_status=ResultSubmission.Validation.VALIDATING, updated_at__lt=now - CLAIM_TIMEOUT)
        )
        .update(validation_status=ResultSubmission.Validation.VALIDATING, updated_at=now)
    )
    if not claimed:
        return "skipped"
    submission = ResultSubmission.objects.select_related(
        "fixture", "fixture__home_team", "fixture__away_team", "match_log"
    ).get(id=submission_id)
    fixture = submission.fixture
    # FUBA: a suspended team starts one player short; the validator checks the log's line-up.
    context = {
        "players_short": {
            "home": fixture_players_short(fixture=fixture, team=fixture.home_team),  # type: ignore[arg-type]
            "away": fixture_players_short(fixture=fixture, team=fixture.away_team),  # type: ignore[arg-type]
        }
    }
    try:
        valid, errors, derived = run_rules_engine(submission.match_log.data, context)
    except ImportError:
        # No engine deployed: leave the log pending rather than reject a possibly valid match.
        ResultSubmission.objects.filter(id=submission_id).update(
            validation_status=ResultSubmission.Validation.PENDING
        )
        logger.error("rules engine unavailable; submission %s stays pending", submission_id)
        return "engine unavailable"
    except Exception as exc:
        logger.exception("rules engine failed on submission %s", submission_id)
        valid, errors, derived = (
            False,
            [{"turn": None, "stage": None, "rule": "engine", "reason": str(exc)}],
            None,
        )
    submission_validation_record(
        submission_id=submission_id, engine_valid=valid, errors=errors, derived=derived
    )
    return "valid" if valid else "invalid"

"""Celery task: validate a submitted FUBA 3 turn log with the rules engine.

Enqueued with transaction.on_commit by matches.services.result_submit. The task claims the
submission with a conditional UPDATE (pending → validating), so a duplicate delivery does nothing;
a claim older than CLAIM_TIMEOUT is taken over, because acks_late redelivers the task of a worker
that died mid-validation.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from celery import shared_task
from django.db.models import Q
from django.utils import timezone

from matches import engine
from matches.models import ResultSubmission
from tournaments.models import Fixture
from tournaments.selectors import fixture_players_short
from tournaments.skills import log_skill_errors

logger = logging.getLogger(__name__)

CLAIM_TIMEOUT = timedelta(minutes=5)


def lineup_errors(log: Any, players_short: dict[str, int]) -> list[dict[str, Any]]:
    """FUBA: a team serving a suspension starts one player short — the log's header must say so."""
    teams = log.get("teams") if isinstance(log, dict) else None
    if not isinstance(teams, dict):
        return []
    errors = []
    for side, expected in players_short.items():
        header = teams.get(side)
        declared = header.get("players_short", 0) if isinstance(header, dict) else 0
        if declared != min(expected, 1):
            errors.append(
                {
                    "turn": None,
                    "stage": None,
                    "rule": "suspension",
                    "path": f"$.teams.{side}.players_short",
                    "reason": (
                        f"the {side} team serves a suspension in this fixture and starts one player short "
                        f"(players_short 1), the log says {declared}"
                        if expected
                        else f"the {side} team serves no suspension here, "
                        f"the log says players_short {declared}"
                    ),
                }
            )
    return errors


def roster_errors(fixture: Fixture, log: Any) -> list[dict[str, Any]]:
    """The log's skills must come from the team's roster and respect the competition's limit."""
    teams = log.get("teams") if isinstance(log, dict) else None
    if not isinstance(teams, dict):
        return []
    errors: list[dict[str, Any]] = []
    for side, team in (("home", fixture.home_team), ("away", fixture.away_team)):
        header = teams.get(side)
        codes = header.get("skills") if isinstance(header, dict) else None
        if team is not None and isinstance(codes, list):
            errors += log_skill_errors(fixture=fixture, team=team, side=side, codes=[str(c) for c in codes])
    return errors


def run_rules_engine(log: Any) -> tuple[bool, list[dict[str, Any]], dict[str, Any] | None]:
    """Call the rules engine; returns (valid, errors, derived result with a [home, away] 'final_score')."""
    report = engine.validate_log(log)
    errors = [engine.error_summary(e) for e in report.errors]
    if report.result is None:
        return report.valid, errors, None
    derived = report.result.to_dict()
    derived["final_score"] = list(report.result.score)
    return report.valid, errors, derived


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
        "fixture",
        "fixture__competition",
        "fixture__home_team__coach",
        "fixture__away_team__coach",
        "match_log",
    ).get(id=submission_id)
    fixture = submission.fixture
    short = {
        "home": fixture_players_short(fixture=fixture, team=fixture.home_team),  # type: ignore[arg-type]
        "away": fixture_players_short(fixture=fixture, team=fixture.away_team),  # type: ignore[arg-type]
    }
    try:
        valid, errors, derived = run_rules_engine(submission.match_log.data)
        errors += lineup_errors(submission.match_log.data, short)
        errors += roster_errors(fixture, submission.match_log.data)
        valid = valid and not errors
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

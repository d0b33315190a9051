"""The checks of a submitted FUBA 3 turn log, and the claim that lets exactly one run record them.

The Celery task (matches.validation_tasks) and the live scorer (scoring.services, which validates
a scored log at once) both call ``submission_validate``; the rules live here, the tasks only run
them. The claim is a conditional UPDATE (pending → validating) storing the caller's token, as the
forfeit claims do (docs/reliability.md): a duplicate (another token) finds the claim held and does
nothing, the same task redelivered finds its own token and carries on, and a claim older than
VALIDATION_CLAIM_TIMEOUT (longer than the hard time limit) is taken over by whoever comes next.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from matches.models import ResultSubmission
from matches.services.validation import submission_validation_record
from matchplay import engine_door
from tournaments.models import Fixture
from tournaments.selectors import fixture_players_short
from tournaments.skills import log_skill_errors

logger = logging.getLogger(__name__)


def validation_claim_timeout() -> timedelta:
    return timedelta(seconds=settings.VALIDATION_CLAIM_TIMEOUT)


def lineup_errors(*, log: Any, players_short: dict[str, int]) -> list[dict[str, Any]]:
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


def roster_errors(*, fixture: Fixture, log: Any) -> list[dict[str, Any]]:
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


def run_rules_engine(*, log: Any) -> tuple[bool, list[dict[str, Any]], dict[str, Any] | None]:
    """Call the rules engine; returns (valid, errors, derived result with a [home, away] 'final_score')."""
    report = engine_door.validate_log(log)
    errors = [engine_door.error_summary(e) for e in report.errors]
    if report.result is None:
        return report.valid, errors, None
    derived = report.result.to_dict()
    derived["final_score"] = list(report.result.score)
    return report.valid, errors, derived


def _validation_claim(*, submission_id: int, task_id: str, now: datetime) -> bool:
    own = Q(validation_task_id=task_id) if task_id else Q(pk__in=[])
    stale = Q(validation_claimed_at__isnull=True) | Q(
        validation_claimed_at__lt=now - validation_claim_timeout()
    )
    return bool(
        ResultSubmission.objects.filter(id=submission_id)
        .filter(
            Q(validation_status=ResultSubmission.Validation.PENDING)
            | (Q(validation_status=ResultSubmission.Validation.VALIDATING) & (own | stale))
        )
        .update(
            validation_status=ResultSubmission.Validation.VALIDATING,
            validation_task_id=task_id,
            validation_claimed_at=now,
            validation_attempts=F("validation_attempts") + 1,
            updated_at=now,
        )
    )


def submission_validate(*, submission_id: int, task_id: str = "") -> str:
    """Validate one submission's log. Safe to call any number of times for the same submission."""
    if not _validation_claim(submission_id=submission_id, task_id=task_id, now=timezone.now()):
        return "skipped"
    submission = ResultSubmission.objects.select_related(
        "fixture",
        "fixture__competition",
        "fixture__home_team__coach",
        "fixture__away_team__coach",
        "match_log",
    ).get(id=submission_id)
    log = submission.turn_log
    if log is None:
        return "no log"  # replaced in the meantime: its log went with it (docs/reliability.md)
    fixture = submission.fixture
    short = {
        "home": fixture_players_short(fixture=fixture, team=fixture.home_team),  # type: ignore[arg-type]
        "away": fixture_players_short(fixture=fixture, team=fixture.away_team),  # type: ignore[arg-type]
    }
    try:
        valid, errors, derived = run_rules_engine(log=log)
        errors += lineup_errors(log=log, players_short=short)
        errors += roster_errors(fixture=fixture, log=log)
        valid = valid and not errors
    except Exception as exc:
        logger.exception("rules engine failed on submission %s", submission_id)
        valid, errors, derived = (
            False,
            [{"turn": None, "stage": None, "rule": "engine", "reason": str(exc)}],
            None,
        )
    recorded = submission_validation_record(
        submission_id=submission_id, engine_valid=valid, errors=errors, derived=derived, task_id=task_id
    )
    if recorded.validation_task_id != task_id or recorded.validation_status not in (
        ResultSubmission.Validation.VALID,
        ResultSubmission.Validation.INVALID,
    ):
        return "not recorded"  # the claim was taken over, or the submission replaced meanwhile
    return recorded.validation_status

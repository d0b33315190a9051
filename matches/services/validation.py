"""The rules engine's verdict on a submitted turn log, and the cards that a valid log yields."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from kernel.errors import NotFound
from matches.models import CardKind, ResultAudit, ResultSubmission
from matches.services.shared import (
    audit,
    lock_fixture,
    submission_snapshot,
)
from tournaments.models import Fixture


def cards_from_derived(derived: Mapping[str, Any]) -> list[dict[str, Any]]:
    """FUBA team cards from the rules engine's derived result.

    The engine's red-card test tells a red after a second yellow from a direct red
    (``red_cards_detail``); the two yellows behind a second-yellow red are not counted again.
    """
    cards: list[dict[str, Any]] = []
    for side in ("home", "away"):
        team = (derived.get("teams") or {}).get(side) or {}
        reds = list(team.get("red_cards_detail") or [])
        second = reds.count("second_yellow")
        yellows = max(0, int(team.get("yellow_cards") or 0) - 2 * second)
        cards += [{"team": side, "kind": CardKind.YELLOW, "shirt_number": None}] * yellows
        cards += [{"team": side, "kind": CardKind.SECOND_YELLOW, "shirt_number": None}] * second
        cards += [{"team": side, "kind": CardKind.RED, "shirt_number": None}] * reds.count("direct")
    return cards


def _log_against_report(submission: ResultSubmission, derived: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Where a valid log disagrees with the report it came with: its final score, its extra time."""
    problems: list[dict[str, Any]] = []
    score = derived.get("final_score")
    if score is None:
        problems.append(
            {"turn": None, "stage": None, "rule": "result", "reason": "the log yields no final score"}
        )
    elif list(score) != [submission.home_goals, submission.away_goals]:
        problems.append(
            {
                "turn": None,
                "stage": None,
                "rule": "result",
                "reason": f"the log ends {score[0]}-{score[1]}, the submission says "
                f"{submission.home_goals}-{submission.away_goals}",
            }
        )
    if derived.get("extra_time") and not submission.extra_time:
        # (the other way round is allowed: logs of 90 minutes came before extra time could be logged)
        problems.append(
            {
                "turn": None,
                "stage": None,
                "rule": "I-38",
                "reason": "the log plays extra time, the submission says the match ended after 90 minutes",
            }
        )
    return problems


@transaction.atomic
def submission_validation_record(
    *,
    submission_id: int,
    engine_valid: bool,
    errors: Sequence[Mapping[str, Any]],
    derived: Mapping[str, Any] | None,
    task_id: str | None = None,
) -> ResultSubmission:
    """Store the rules engine's verdict; a log whose score differs from the submitted one is invalid.

    With ``task_id`` the verdict is stored only while that task holds the validation claim, so
    of two runs (a stale claim taken over) exactly one records it.
    """
    fixture_id = (
        ResultSubmission.objects.filter(id=submission_id).values_list("fixture_id", flat=True).first()
    )
    if fixture_id is None:
        raise NotFound(f"No result submission {submission_id}.")
    # Fixture first, then submission: the same lock order as every other service (no deadlock).
    fixture = lock_fixture(fixture_id)
    submission = ResultSubmission.objects.select_for_update().get(id=submission_id)
    if submission.validation_status not in (
        ResultSubmission.Validation.PENDING,
        ResultSubmission.Validation.VALIDATING,
    ):
        return submission
    if task_id is not None and submission.validation_task_id != task_id:
        return submission  # another task took the claim over; it records the verdict
    problems = [dict(e) for e in errors]
    if engine_valid:
        problems += _log_against_report(submission, derived or {})
    valid = engine_valid and not problems
    before = submission_snapshot(submission)
    submission.validation_status = (
        ResultSubmission.Validation.VALID if valid else ResultSubmission.Validation.INVALID
    )
    submission.validation_errors = problems
    submission.derived_result = dict(derived) if derived is not None else None
    fields = ["validation_status", "validation_errors", "derived_result", "updated_at"]
    if valid and derived is not None and derived.get("teams"):
        # The log is the record of the match: its cards replace the ones typed in.
        submission.cards = cards_from_derived(derived)
        fields.append("cards")
    if not valid and submission.status == ResultSubmission.Status.OPEN:
        submission.status = ResultSubmission.Status.REJECTED
        fields.append("status")
        if fixture.status == Fixture.Status.SUBMITTED:
            fixture.status = Fixture.Status.SCHEDULED
            fixture.save(update_fields=["status", "updated_at"])
    submission.save(update_fields=fields)
    audit(
        fixture,
        ResultAudit.Action.VALIDATE,
        None,
        before,
        submission_snapshot(submission),
        note="turn log valid" if valid else f"turn log rejected: {len(problems)} problem(s)",
    )
    return submission

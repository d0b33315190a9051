"""Results that no club reported: simulated after the deadline or awarded (called from Celery tasks)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from kernel.errors import ApplicationError, Conflict
from matches.models import MatchLog, Result, ResultAudit, ResultSubmission
from matches.services.recording import apply_skill_changes, write_result
from matches.services.shared import (
    FUBA_3_LOG_FORMAT,
    CardInput,
    audit,
    checked_result,
    lock_fixture,
    snapshot,
)
from tournaments.bracket import Score
from tournaments.models import Fixture


@transaction.atomic
def result_record_system(
    *,
    fixture_id: int,
    source: str,
    score: Score,
    cards: Sequence[Mapping[str, Any] | CardInput] = (),
    match_log: Mapping[str, Any] | None = None,
    log_format: str = FUBA_3_LOG_FORMAT,
    seed: int | None = None,
    note: str = "",
    allowed_statuses: Sequence[str] = (Fixture.Status.SIMULATING,),
    derived: Mapping[str, Any] | None = None,
) -> Result:
    """Record a simulated or awarded result (forfeits after the deadline; called from Celery tasks).

    The fixture must be in one of ``allowed_statuses`` (by default: claimed for simulation), so a
    duplicate task, or one that lost the race with a club's confirmation, changes nothing.
    ``derived`` is the rules engine's result of ``match_log``: skills lost or gained in the
    simulated match carry over to the teams' next matches as in a played one (A13).
    """
    if source not in (Result.Source.SIMULATED, Result.Source.AWARDED):
        raise ApplicationError(f"Source must be '{Result.Source.SIMULATED}' or '{Result.Source.AWARDED}'.")
    fixture = lock_fixture(fixture_id)
    if fixture.status not in allowed_statuses:
        raise Conflict(f"{fixture}: status is '{fixture.status}', expected one of {list(allowed_statuses)}.")
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before a result can be recorded.")
    score, parsed = checked_result(
        fixture,
        score,
        cards,
        awarded=source == Result.Source.AWARDED,
    )
    before = snapshot(fixture)
    ResultSubmission.objects.filter(fixture=fixture, status=ResultSubmission.Status.OPEN).update(
        status=ResultSubmission.Status.SUPERSEDED
    )
    simulated = source == Result.Source.SIMULATED
    result = write_result(
        fixture,
        score=score,
        cards=parsed,
        source=source,
        status=Fixture.Status.SIMULATED if simulated else Fixture.Status.AWARDED,
        actor=None,
    )
    if match_log is not None:
        MatchLog.objects.create(
            fixture=fixture, format=log_format, data=dict(match_log), is_simulated=simulated, seed=seed
        )
    apply_skill_changes(fixture, derived)
    audit(
        fixture,
        ResultAudit.Action.SIMULATE if simulated else ResultAudit.Action.AWARD,
        None,
        before,
        snapshot(fixture),
        note=note,
    )
    return result

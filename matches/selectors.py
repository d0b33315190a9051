"""Read-only queries over results, submissions, turn logs and the audit trail."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import F, Q, QuerySet

from matches.models import MatchLog, Result, ResultAudit, ResultSubmission
from tournaments.models import Fixture
from tournaments.selectors import competition_permits, user_club_team_ids


def result_for_fixture(*, fixture: Fixture, counted_only: bool = True) -> Result | None:
    """The fixture's result; by default only when it counts (confirmed, simulated or awarded)."""
    if counted_only and fixture.status not in Fixture.COUNTED_STATUSES:
        return None
    return Result.objects.filter(fixture=fixture).prefetch_related("cards").first()


def submission_list(*, fixture: Fixture) -> QuerySet[ResultSubmission]:
    return fixture.submissions.select_related("team", "submitted_by", "disputed_by").order_by(
        "-created_at", "-id"
    )


def submission_open(*, fixture: Fixture) -> ResultSubmission | None:
    return fixture.submissions.filter(status=ResultSubmission.Status.OPEN).first()


def submissions_awaiting_user(*, user: User) -> QuerySet[ResultSubmission]:
    """Open submissions the user's clubs must confirm or dispute (the other side submitted them)."""
    if not user.is_authenticated:
        return ResultSubmission.objects.none()
    clubs = Q(fixture__home_team__club__members=user) | Q(fixture__away_team__club__members=user)
    return (
        ResultSubmission.objects.filter(clubs, status=ResultSubmission.Status.OPEN)
        .exclude(team__club__members=user)
        .select_related("fixture", "fixture__home_team", "fixture__away_team", "team")
        .distinct()
        .order_by("created_at")
    )


def audit_trail(*, fixture: Fixture) -> QuerySet[ResultAudit]:
    return fixture.audit_entries.select_related("actor").order_by("created_at", "id")


# What the public sees of a fixture's trail: the results that counted and the
# administrators' overrides with their note, never who typed what, nor the submissions, their
# unconfirmed scores, the validations and the disputes with their reasons.
PUBLIC_AUDIT_ACTIONS = (
    ResultAudit.Action.CONFIRM,
    ResultAudit.Action.RESOLVE,
    ResultAudit.Action.OVERRIDE,
    ResultAudit.Action.SIMULATE,
    ResultAudit.Action.AWARD,
    ResultAudit.Action.CLEAR,
    ResultAudit.Action.REOPEN,
)
# Notes the public reads: why staff overrode or cleared a result (or a correction reopened it),
# and the system's note on a simulation or award.
PUBLIC_AUDIT_NOTES = (
    ResultAudit.Action.OVERRIDE,
    ResultAudit.Action.SIMULATE,
    ResultAudit.Action.AWARD,
    ResultAudit.Action.CLEAR,
    ResultAudit.Action.REOPEN,
)


def audit_trail_is_full_for(*, fixture: Fixture, user: Any) -> bool:
    """Staff, those holding a role in the competition and the members of the two clubs see the
    whole trail; everyone else the public part."""
    if user is None or not user.is_authenticated:
        return False
    if competition_permits(user=user, competition=fixture.competition, action="view"):
        return True
    return bool(user_club_team_ids(user=user, fixture=fixture))


def audit_trail_public(*, fixture: Fixture) -> QuerySet[ResultAudit]:
    return fixture.audit_entries.filter(action__in=PUBLIC_AUDIT_ACTIONS).order_by("created_at", "id")


def match_logs_readable() -> QuerySet[MatchLog]:
    """Logs that describe a match as played: simulated ones and those the rules engine accepted."""
    return MatchLog.objects.filter(
        Q(is_simulated=True) | Q(submission__validation_status=ResultSubmission.Validation.VALID)
    )


# The same rule as the audit trail: the public reads a log once it is the record of a result that
# counts (the simulation of a simulated result, the submission the result was confirmed from),
# never while the result awaits confirmation, nor a log that was disputed, replaced or overruled.
_PUBLIC_LOG = Q(fixture__status__in=Fixture.COUNTED_STATUSES) & (
    Q(is_simulated=True, fixture__result__source=Result.Source.SIMULATED)
    | Q(
        submission_id=F("fixture__result__submission_id"),
        submission__validation_status=ResultSubmission.Validation.VALID,
    )
)


def match_logs_public() -> QuerySet[MatchLog]:
    return MatchLog.objects.filter(_PUBLIC_LOG)


def match_logs_for(*, user: Any) -> QuerySet[MatchLog]:
    """The logs ``user`` may read: staff every readable log, a club member also those of the
    club's fixtures (a result still to confirm included), anyone else the public ones."""
    if user is None or not user.is_authenticated:
        return match_logs_public()
    readable = match_logs_readable()
    if user.is_staff:
        return readable
    clubs = user.fuba_clubs.all()
    return readable.filter(
        _PUBLIC_LOG | Q(fixture__home_team__club__in=clubs) | Q(fixture__away_team__club__in=clubs)
    ).distinct()


def match_log_list(*, fixture: Fixture) -> QuerySet[MatchLog]:
    return fixture.match_logs.select_related("submission").order_by("-created_at", "-id")


def disputed_fixtures(*, competition_id: int | None = None) -> QuerySet[Fixture]:
    qs = Fixture.objects.filter(status=Fixture.Status.DISPUTED).select_related(
        "competition", "home_team", "away_team"
    )
    if competition_id is not None:
        qs = qs.filter(competition_id=competition_id)
    return qs.order_by("updated_at")

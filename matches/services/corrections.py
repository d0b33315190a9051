"""The administrators' corrections: resolve a dispute, override, award, clear or void a match."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction

from kernel.errors import ApplicationError, Conflict, PermissionDenied
from matches.models import Result, ResultAudit, ResultSubmission
from matches.services.recording import clear, refuse_unless_reopened, write_result
from matches.services.shared import (
    CardInput,
    audit,
    check_score,
    checked_result,
    lock_fixture,
    may_act,
    snapshot,
)
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage


def _admin_set(
    *,
    fixture: Fixture,
    user: User,
    action: str,
    score: Score,
    cards: Sequence[Mapping[str, Any] | CardInput],
    note: str,
    reopen: bool = False,
) -> Result:
    if not may_act(user, fixture, "results"):
        raise PermissionDenied(
            f"{fixture}: only the competition's organisers and results desk can set a result."
        )
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before a result can be set.")
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated; wait for it to finish.")
    score, parsed = checked_result(fixture, score, cards)
    before = snapshot(fixture)
    cascade: list[dict[str, Any]] = []
    result = write_result(
        fixture,
        score=score,
        cards=parsed,
        source=Result.Source.ADMIN,
        status=Fixture.Status.CONFIRMED,
        actor=user,
        cascade=cascade,
    )
    refuse_unless_reopened(fixture, cascade, reopen)
    if cascade:
        note += "\nReopened: " + "; ".join(c["fixture"] for c in cascade)
    audit(fixture, action, user, before, snapshot(fixture), note=note)
    return result


@transaction.atomic
def result_resolve(
    *,
    fixture_id: int,
    user: User,
    score: Score,
    cards: Sequence[Mapping[str, Any] | CardInput] = (),
    note: str = "",
) -> Result:
    """An administrator settles a disputed result."""
    fixture = lock_fixture(fixture_id)
    if fixture.status != Fixture.Status.DISPUTED:
        raise Conflict(f"{fixture}: only a disputed result is resolved; use an override otherwise.")
    ResultSubmission.objects.filter(fixture=fixture, status=ResultSubmission.Status.DISPUTED).update(
        status=ResultSubmission.Status.SUPERSEDED
    )
    return _admin_set(
        fixture=fixture,
        user=user,
        action=ResultAudit.Action.RESOLVE,
        score=score,
        cards=cards,
        note=note,
    )


@transaction.atomic
def result_override(
    *,
    fixture_id: int,
    user: User,
    score: Score,
    cards: Sequence[Mapping[str, Any] | CardInput] = (),
    note: str = "",
    reopen: bool = False,
) -> Result:
    """An administrator sets or corrects any fixture's result; standings, brackets and bans follow.

    Where a later fixture was already played with the old outcome (a knockout slot it filled), the
    correction is refused (Conflict, ``details.fixtures`` lists them all) unless ``reopen``: then
    those fixtures are cleared too, each with its own audit entry.
    """
    fixture = lock_fixture(fixture_id)
    if not note.strip():
        raise ApplicationError(f"{fixture}: an override needs a note saying why.")
    ResultSubmission.objects.filter(
        fixture=fixture, status__in=[ResultSubmission.Status.OPEN, ResultSubmission.Status.DISPUTED]
    ).update(status=ResultSubmission.Status.SUPERSEDED)
    return _admin_set(
        fixture=fixture,
        user=user,
        action=ResultAudit.Action.OVERRIDE,
        score=score,
        cards=cards,
        note=note,
        reopen=reopen,
    )


def results_round_enter(*, scores: Sequence[tuple[int, Score]], user: User, note: str) -> int:
    """A round's results at once (the console's results desk), each through result_override in
    the order given, so a second leg sees its first; all or nothing. Every row is tried, so that a
    refusal names each refused fixture: ApplicationError with ``details.refused`` {fixture id:
    why}. Returns how many results were saved."""
    refused: dict[int, str] = {}
    try:
        with transaction.atomic():
            for fixture_id, score in scores:
                try:
                    with transaction.atomic():  # a refused row leaves the others' writes usable
                        result_override(fixture_id=fixture_id, user=user, score=score, note=note)
                except ApplicationError as exc:
                    refused[fixture_id] = exc.message
            if refused:
                raise _RoundRefused
    except _RoundRefused:
        raise ApplicationError(
            f"{len(refused)} of {len(scores)} results refused: nothing was saved.",
            details={"refused": refused},
        ) from None
    return len(scores)


class _RoundRefused(Exception):
    """Rolls the whole round back: a row was refused."""


@transaction.atomic
def result_award(*, fixture_id: int, user: User, team_id: int, note: str, reopen: bool = False) -> Result:
    """Staff award the match to one side (the other did not show): the competition's award score.

    Works on a fixture in any state but being simulated; replacing a counted result follows the
    corrections' rules (later fixtures played with the old outcome: refused, or reopened).
    """
    fixture = lock_fixture(fixture_id)
    if not may_act(user, fixture, "correct"):
        raise PermissionDenied(f"{fixture}: only the competition's organisers can award a match.")
    if not note.strip():
        raise ApplicationError(f"{fixture}: an award needs a note saying why.")
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams must be known before the match can be awarded.")
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated; wait for it to finish.")
    if team_id not in (fixture.home_team_id, fixture.away_team_id):
        raise ApplicationError(
            f"{fixture}: team {team_id} does not play this fixture.",
            details={"team_id": ["not in this fixture"]},
        )
    competition = fixture.competition
    won, lost = competition.award_goals_for, competition.award_goals_against
    home_wins = team_id == fixture.home_team_id
    score = Score(won if home_wins else lost, lost if home_wins else won)
    check_score(fixture, score, awarded=True)
    before = snapshot(fixture)
    ResultSubmission.objects.filter(
        fixture=fixture, status__in=[ResultSubmission.Status.OPEN, ResultSubmission.Status.DISPUTED]
    ).update(status=ResultSubmission.Status.SUPERSEDED)
    cascade: list[dict[str, Any]] = []
    result = write_result(
        fixture,
        score=score,
        cards=[],
        source=Result.Source.AWARDED,
        status=Fixture.Status.AWARDED,
        actor=user,
        cascade=cascade,
    )
    refuse_unless_reopened(fixture, cascade, reopen)
    winner = fixture.home_team if home_wins else fixture.away_team
    text = f"awarded {won}-{lost} to {winner}: {note.strip()}"
    if cascade:
        text += "\nReopened: " + "; ".join(c["fixture"] for c in cascade)
    audit(fixture, ResultAudit.Action.AWARD, user, before, snapshot(fixture), note=text)
    return result


@transaction.atomic
def result_clear(*, fixture_id: int, user: User, note: str, reopen: bool = False) -> list[dict[str, Any]]:
    """An administrator removes a fixture's result: it is scheduled again and counts for nothing.

    Standings, stage status, knockout slots, suspensions and A13 skills follow. Later fixtures that
    used the old outcome are refused or, with ``reopen``, cleared too; returns those fixtures.
    """
    fixture = lock_fixture(fixture_id)
    if not may_act(user, fixture, "correct"):
        raise PermissionDenied(f"{fixture}: only the competition's organisers can clear a result.")
    if not note.strip():
        raise ApplicationError(f"{fixture}: clearing a result needs a note saying why.")
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated; wait for it to finish.")
    clearable = (
        *Fixture.COUNTED_STATUSES,
        Fixture.Status.SUBMITTED,
        Fixture.Status.DISPUTED,
        Fixture.Status.VOID,
    )
    if fixture.status not in clearable:
        raise Conflict(f"{fixture}: there is no result to clear ({fixture.get_status_display()}).")
    return _clear_noted(fixture, user, ResultAudit.Action.CLEAR, note.strip(), reopen)


def _clear_noted(
    fixture: Fixture,
    user: User,
    action: str,
    note: str,
    reopen: bool,
    status: str = Fixture.Status.SCHEDULED,
) -> list[dict[str, Any]]:
    """Clear (or void) the fixture with the audit entry ``action``; later fixtures that used the
    old outcome are refused or, with ``reopen``, cleared and named in that entry's note."""
    cascade: list[dict[str, Any]] = []
    clear(fixture, actor=user, action=action, note=note, cascade=cascade, status=status)
    refuse_unless_reopened(fixture, cascade, reopen)
    if cascade:
        entry = ResultAudit.objects.filter(fixture=fixture, action=action).latest("id")
        entry.note = note + "\nReopened: " + "; ".join(c["fixture"] for c in cascade)
        entry.save(update_fields=["note"])
    return cascade


@transaction.atomic
def result_void(*, fixture_id: int, user: User, note: str, reopen: bool = False) -> list[dict[str, Any]]:
    """An administrator voids a match: not played, it counts for nothing, for either side.

    Whatever was reported or counted goes (the result, its cards, A13 skills lost or gained in it),
    and standings, stage status, suspensions and where they are served follow. A knockout tie needs
    a winner, so a knockout match is awarded or cleared instead. Later fixtures that used the old
    outcome are refused or, with ``reopen``, cleared; returns those fixtures. ``result_clear`` puts
    a void match back on the schedule.
    """
    fixture = lock_fixture(fixture_id)
    if not may_act(user, fixture, "correct"):
        raise PermissionDenied(f"{fixture}: only the competition's organisers can void a match.")
    if not note.strip():
        raise ApplicationError(f"{fixture}: voiding a match needs a note saying why.")
    if fixture.stage.kind == Stage.Kind.KNOCKOUT:
        raise Conflict(
            f"{fixture}: a knockout tie needs a winner, so a knockout match cannot be void; "
            "award it to one side, or clear it to be played again."
        )
    if fixture.status == Fixture.Status.SIMULATING:
        raise Conflict(f"{fixture}: the match is being simulated; wait for it to finish.")
    if fixture.status == Fixture.Status.VOID:
        raise Conflict(f"{fixture}: the match is already void.")
    action, void = ResultAudit.Action.VOID, Fixture.Status.VOID
    return _clear_noted(fixture, user, action, note.strip(), reopen, status=void)

"""Roles in a competition: its creator is its organiser; organisers add co-organisers and
results-desk helpers and take them away. Who may do what with a role is decided by
tournaments.selectors.competition_permits alone."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from kernel.errors import Conflict, PermissionDenied
from tournaments.models import Competition, CompetitionRole
from tournaments.selectors import competition_permits
from tournaments.services.shared import invalid

# The kinds an organiser hands out; the organiser's own role comes with creating the competition.
GRANTABLE = (CompetitionRole.Kind.CO_ORGANISER, CompetitionRole.Kind.RESULTS_DESK)


def competition_organiser_set(*, competition: Competition, user: Any) -> CompetitionRole:
    """The creator of a competition becomes its organiser (called by whatever created it)."""
    role, _created = CompetitionRole.objects.update_or_create(
        competition=competition,
        user=user,
        defaults={"kind": CompetitionRole.Kind.ORGANISER, "added_by": user},
    )
    return role


def _people_check(*, competition: Competition, by: Any) -> None:
    if not competition_permits(user=by, competition=competition, action="people"):
        raise PermissionDenied(f"Only the organisers of {competition} may change who runs it.")


@transaction.atomic
def role_grant(*, competition: Competition, user: Any, kind: str, by: Any) -> CompetitionRole:
    _people_check(competition=competition, by=by)
    if kind not in GRANTABLE:
        names = " or ".join(str(CompetitionRole.Kind(k).label).lower() for k in GRANTABLE)
        raise invalid(f"A role given in {competition} is {names}.", "kind")
    current = CompetitionRole.objects.select_for_update().filter(competition=competition, user=user).first()
    if current is not None and current.kind == CompetitionRole.Kind.ORGANISER:
        raise Conflict(f"{user} is the organiser of {competition}.", details={"field": "username"})
    if current is not None:
        current.kind = kind
        current.added_by = by
        current.save(update_fields=["kind", "added_by"])
        return current
    return CompetitionRole.objects.create(competition=competition, user=user, kind=kind, added_by=by)


@transaction.atomic
def role_remove(*, role: CompetitionRole, by: Any) -> None:
    _people_check(competition=role.competition, by=by)
    if role.kind == CompetitionRole.Kind.ORGANISER:
        raise Conflict(f"{role.user} created {role.competition} and stays its organiser.")
    role.delete()

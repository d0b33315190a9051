"""Who may do what through the API.

Anonymous users read public data; a member of a club acts on the fixtures of its own teams only;
staff may do everything. The services check participation again (they are
also called from the admin and pages), so these classes exist to fail fast with 401/403.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments.models import Competition, Fixture, Group
from tournaments.selectors import competition_permits, user_club_team_ids


def is_staff(request: Request) -> bool:
    user = request.user
    return bool(user and user.is_authenticated and user.is_staff)


def user_acts_in_fixture(user: Any, fixture: Fixture) -> bool:
    # The same rule the services apply (club membership), so the API refuses early what they would.
    return bool(user_club_team_ids(user=user, fixture=fixture))


class ReadOnlyOrStaff(BasePermission):
    """Public data: anyone reads, only staff writes."""

    message = "Only staff may change this resource."

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or is_staff(request)


class StaffOnly(BasePermission):
    message = "Only staff may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_staff(request)


class StaffWithPerms(BasePermission):
    """Staff actions: a staff account that also holds the model permissions the admin asks for
    the same change (is_staff alone let an account the admin refused act here)."""

    def __init__(self, *perms: str) -> None:
        self.perms = perms
        self.message = (
            f"Only staff with the permission{'s' if len(perms) > 1 else ''} {', '.join(perms)} may do this."
        )

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_staff(request) and request.user.has_perms(self.perms)


def staff_can(request: Request, *perms: str) -> bool:
    return is_staff(request) and request.user.has_perms(perms)


class FixtureParticipantOrStaff(BasePermission):
    """Result workflow actions: the two clubs of the fixture and staff who may change fixtures
    (staff status alone does not let an account act on a fixture, as in the admin)."""

    message = "Only the clubs playing this fixture (or staff who may change fixtures) may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if staff_can(request, "tournaments.change_fixture"):
            return True
        fixture = obj if isinstance(obj, Fixture) else obj.fixture
        return user_acts_in_fixture(request.user, fixture)


def competition_of_object(obj: Any) -> Competition | None:
    """The competition a set-up or results object belongs to (None for clubs and coaches, which
    belong to no one competition: the instance's staff change them)."""
    if isinstance(obj, Competition):
        return obj
    if isinstance(obj, Group):
        return obj.stage.competition
    if hasattr(obj, "competition"):
        return obj.competition
    if hasattr(obj, "fixture"):
        return obj.fixture.competition
    return None


class CompetitionAction(BasePermission):
    """An action on an object of one competition, allowed by the one rule of roles
    (tournaments.selectors.competition_permits): the instance's staff with `staff_perms`, or a
    role in that competition that allows `action`."""

    def __init__(self, action: str, *staff_perms: str) -> None:
        self.action = action
        self.staff_perms = staff_perms
        needs = f" (or staff with the permission {', '.join(staff_perms)})" if staff_perms else ""
        who = "organisers and results desk" if action == "results" else "organisers"
        self.message = f"Only the competition's {who}{needs} may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        competition = competition_of_object(obj)
        if competition is None:
            return is_staff(request) and request.user.has_perms(self.staff_perms)
        return competition_permits(
            user=request.user, competition=competition, action=self.action, staff_perms=self.staff_perms
        )

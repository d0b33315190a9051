"""Who may do what through the API.

Anonymous users read public data; a member of a club acts on the fixtures of its own teams only;
staff may do everything. The services check participation again (they are
also called from the admin and pages), so these classes exist to fail fast with 401/403.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments.models import Fixture
from tournaments.selectors import user_club_team_ids


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

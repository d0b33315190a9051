"""Who may do what through the API.

Anonymous users read public data; a club member (or the team's coach account) acts on the fixtures
of its own teams only; staff may do everything. The services check participation again (they are
also called from the admin and pages), so these classes exist to fail fast with 401/403.
"""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request

from tournaments.models import Fixture, Team


def is_staff(request: Request) -> bool:
    user = request.user
    return bool(user and user.is_authenticated and user.is_staff)


def user_acts_for_team(user: Any, team: Team | None) -> bool:
    """A user acts for a team if they are a member of its club or its coach's linked account."""
    if team is None or not user or not user.is_authenticated:
        return False
    if team.coach_id is not None and team.coach is not None and team.coach.user_id == user.pk:
        return True
    if team.club_id is None:
        return False
    return team.club.members.filter(pk=user.pk).exists()


def user_acts_in_fixture(user: Any, fixture: Fixture) -> bool:
    return user_acts_for_team(user, fixture.home_team) or user_acts_for_team(user, fixture.away_team)


class ReadOnlyOrStaff(BasePermission):
    """Public data: anyone reads, only staff writes."""

    message = "Only staff may change this resource."

    def has_permission(self, request: Request, view: Any) -> bool:
        return request.method in SAFE_METHODS or is_staff(request)


class StaffOnly(BasePermission):
    message = "Only staff may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return is_staff(request)


class FixtureParticipantOrStaff(BasePermission):
    """Result workflow actions: the two clubs of the fixture and staff."""

    message = "Only the clubs playing this fixture (or staff) may do this."

    def has_permission(self, request: Request, view: Any) -> bool:
        return bool(request.user and request.user.is_authenticated)

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if is_staff(request):
            return True
        fixture = obj if isinstance(obj, Fixture) else obj.fixture
        return user_acts_in_fixture(request.user, fixture)

"""A competition's sign-up page: the organiser opens and closes it; a signed-in user asks to enter
a club's team; the organiser approves (the team is entered, the user joins the club) or refuses."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from kernel.errors import Conflict, PermissionDenied
from tournaments.models import Club, ClubApplication, Competition
from tournaments.selectors import competition_permits
from tournaments.services.clubs import club_create, team_create
from tournaments.services.shared import invalid


def signup_set(*, competition: Competition, open: bool, by: Any) -> Competition:
    if not competition_permits(user=by, competition=competition, action="setup"):
        raise PermissionDenied(f"Only the organisers of {competition} open or close its sign-up.")
    competition.signup_open = open
    competition.save(update_fields=["signup_open"])
    return competition


def club_apply(
    *, competition: Competition, applicant: Any, club_name: str, team_name: str, country: str = ""
) -> ClubApplication:
    club_name, team_name = club_name.strip(), team_name.strip()
    if not competition.signup_open:
        raise Conflict(f"The sign-up of {competition} is closed.")
    if not club_name:
        raise invalid("Name your club.", "club_name")
    if not team_name:
        raise invalid("Name the team your club enters.", "team_name")
    if (
        competition.teams.filter(name__iexact=team_name).exists()
        or competition.applications.filter(
            team_name__iexact=team_name, status=ClubApplication.Status.PENDING
        ).exists()
    ):
        raise Conflict(
            f"{competition} already has a team named '{team_name}'.", details={"field": "team_name"}
        )
    club = Club.objects.filter(name=club_name).first()
    if club is not None and club.members.exists() and not club.members.filter(pk=applicant.pk).exists():
        raise PermissionDenied(
            f"{club_name} already has members: ask one of them to invite you, or sign up another club."
        )
    return ClubApplication.objects.create(
        competition=competition,
        applicant=applicant,
        club_name=club_name,
        team_name=team_name,
        country=country.strip(),
    )


@transaction.atomic
def application_decide(*, application: ClubApplication, approve: bool, by: Any) -> ClubApplication:
    application = (
        ClubApplication.objects.select_for_update().select_related("competition").get(pk=application.pk)
    )
    competition = application.competition
    if not competition_permits(user=by, competition=competition, action="setup"):
        raise PermissionDenied(f"Only the organisers of {competition} approve its clubs.")
    if application.status != ClubApplication.Status.PENDING:
        raise Conflict(f"{application.team_name} was already {application.get_status_display().lower()}.")
    if approve:
        club = Club.objects.filter(name=application.club_name).first() or club_create(
            name=application.club_name, country=application.country
        )
        application.team = team_create(
            competition=competition, name=application.team_name, club=club, country=application.country
        )
        club.members.add(application.applicant)
    application.status = ClubApplication.Status.APPROVED if approve else ClubApplication.Status.REFUSED
    application.decided_by = by
    application.save(update_fields=["status", "team", "decided_by"])
    return application

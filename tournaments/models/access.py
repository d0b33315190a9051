"""Who runs a competition and who joins it: roles, invitations of clubs and clubs' applications."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tournaments.models.clubs import Club
from tournaments.models.competitions import Competition, Team


class CompetitionRole(models.Model):
    """Who runs a competition besides the instance's staff: its organisers and results-desk helpers.

    What each kind may do is decided in one place, tournaments.selectors.competition_permits.
    """

    class Kind(models.TextChoices):
        ORGANISER = "organiser", "Organiser"
        CO_ORGANISER = "co_organiser", "Co-organiser"
        RESULTS_DESK = "results_desk", "Results desk"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="competition_roles"
    )
    kind = models.CharField(max_length=16, choices=Kind.choices)
    added_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["competition", "kind", "user__username"]
        constraints = [
            models.UniqueConstraint(fields=["competition", "user"], name="competition_role_unique")
        ]

    def __str__(self) -> str:
        return f"{self.user} – {self.get_kind_display()} of {self.competition}"


class Invitation(models.Model):
    """A link to join a competition: as a member of a club, or in a role. Only a hash of the token
    is stored; the link holds the token itself."""

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="invitations")
    club = models.ForeignKey(
        Club, null=True, blank=True, on_delete=models.CASCADE, related_name="invitations"
    )
    role = models.CharField(max_length=16, choices=CompetitionRole.Kind.choices, blank=True)
    username = models.CharField(max_length=150, blank=True, help_text="The user name proposed to the invitee")
    email = models.EmailField(blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        what = self.club.name if self.club is not None else self.get_role_display()
        return f"{self.username or self.email} – {what} in {self.competition}"


class ClubApplication(models.Model):
    """A club's entry asked for on a competition's sign-up page, waiting for the organiser."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the organiser"
        APPROVED = "approved", "Approved"
        REFUSED = "refused", "Refused"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="applications")
    applicant = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    club_name = models.CharField(max_length=120)
    team_name = models.CharField(max_length=120)
    country = models.CharField(max_length=60, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    team = models.ForeignKey(Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.team_name} ({self.club_name}) in {self.competition}: {self.get_status_display()}"

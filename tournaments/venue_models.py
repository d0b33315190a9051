"""Venue rounds (issue 33, item 6): a round's clock and the clubs' check-in before it.

A round is a stage's fixtures with one round number (there is no round row): its clock is kept
beside it here, by (stage, round). Loaded by tournaments.models (the app's model module).
Written only through tournaments.services.venue.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models


class RoundClock(models.Model):
    """When a round at the venue starts and how long it lasts (the countdown's two numbers)."""

    competition = models.ForeignKey(
        "tournaments.Competition", on_delete=models.CASCADE, related_name="round_clocks"
    )
    stage = models.ForeignKey("tournaments.Stage", on_delete=models.CASCADE, related_name="round_clocks")
    round = models.PositiveSmallIntegerField()
    starts_at = models.DateTimeField()
    minutes = models.PositiveSmallIntegerField()
    set_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["starts_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "round"], name="round_clock_stage_round_unique"),
            models.CheckConstraint(condition=models.Q(minutes__gte=1), name="round_clock_minutes_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.stage} round {self.round} from {self.starts_at:%Y-%m-%d %H:%M}, {self.minutes} min"

    @property
    def ends_at(self) -> datetime:
        return self.starts_at + timedelta(minutes=self.minutes)


class CheckIn(models.Model):
    """A club said at the venue that its team is at the table for this fixture (the audit: who,
    in which standing, when)."""

    fixture = models.ForeignKey("tournaments.Fixture", on_delete=models.CASCADE, related_name="check_ins")
    team = models.ForeignKey("tournaments.Team", on_delete=models.CASCADE, related_name="check_ins")
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The person's standing when they checked in ("member of Lions FC", "organiser"), kept as words.
    checked_in_by_role = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["fixture", "team"], name="check_in_fixture_team_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.team} checked in for {self.fixture} at {self.created_at:%H:%M}"

"""Results of fixtures, the submissions that lead to them, turn logs and the audit trail."""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ObjectDoesNotExist
from django.db import models
from django.db.models import Q

from tournaments.models import Club, Competition, Fixture, Team


class CardKind(models.TextChoices):
    # One row per booked player; the kind is the player's final disciplinary outcome in the match,
    # which is also what FIFA fair-play points count (yellow −1, second yellow −3, red −4, yellow+red −5).
    YELLOW = "yellow", "Yellow card"
    SECOND_YELLOW = "second_yellow", "Red card after a second yellow"
    RED = "red", "Direct red card"
    YELLOW_RED = "yellow_red", "Yellow card then a direct red"


FAIR_PLAY_POINTS = {
    CardKind.YELLOW: -1,
    CardKind.SECOND_YELLOW: -3,
    CardKind.RED: -4,
    CardKind.YELLOW_RED: -5,
}


class Result(models.Model):
    """The one result that counts for a fixture (OneToOne: concurrent writers cannot create two)."""

    class Source(models.TextChoices):
        CLUBS = "clubs", "Submitted and confirmed by the clubs"
        ADMIN = "admin", "Set by an administrator"
        SIMULATED = "simulated", "Simulated"
        AWARDED = "awarded", "Awarded"

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="result")
    # Goals include extra time; the shoot-out is kept apart because it never counts as goals.
    home_goals = models.PositiveSmallIntegerField()
    away_goals = models.PositiveSmallIntegerField()
    extra_time = models.BooleanField(default=False)
    home_penalties = models.PositiveSmallIntegerField(null=True, blank=True)
    away_penalties = models.PositiveSmallIntegerField(null=True, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices)
    submission = models.ForeignKey(
        "ResultSubmission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=(Q(home_penalties__isnull=True) & Q(away_penalties__isnull=True))
                | (Q(home_penalties__isnull=False) & Q(away_penalties__isnull=False)),
                name="result_penalties_both_or_none",
            )
        ]

    def __str__(self) -> str:
        text = f"{self.home_goals}-{self.away_goals}"
        if self.extra_time:
            text += " a.e.t."
        if self.home_penalties is not None:
            text += f" ({self.home_penalties}-{self.away_penalties} pens)"
        return text

    @property
    def is_simulated(self) -> bool:
        return self.source == self.Source.SIMULATED


class Card(models.Model):
    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="cards")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="cards")
    kind = models.CharField(max_length=14, choices=CardKind.choices)
    # Soccer City books players by number; FUBA records team cards without one.
    shirt_number = models.PositiveSmallIntegerField(null=True, blank=True)
    # Order of booking within the match (The Cup bans "the first 2 players booked").
    sequence = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["result", "sequence", "id"]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.team}" + (
            f" #{self.shirt_number}" if self.shirt_number else ""
        )

    @property
    def fair_play_points(self) -> int:
        return FAIR_PLAY_POINTS[CardKind(self.kind)]


class ResultSubmission(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Awaiting the opponent"
        ACCEPTED = "accepted", "Accepted"
        DISPUTED = "disputed", "Disputed"
        REJECTED = "rejected", "Rejected"
        SUPERSEDED = "superseded", "Superseded"

    class Validation(models.TextChoices):
        NOT_REQUIRED = "not_required", "No turn log"
        PENDING = "pending", "Pending"
        VALIDATING = "validating", "Validating"
        VALID = "valid", "Valid"
        INVALID = "invalid", "Invalid"

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="submissions")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+", help_text="Submitting side")
    home_goals = models.PositiveSmallIntegerField()
    away_goals = models.PositiveSmallIntegerField()
    extra_time = models.BooleanField(default=False)
    home_penalties = models.PositiveSmallIntegerField(null=True, blank=True)
    away_penalties = models.PositiveSmallIntegerField(null=True, blank=True)
    # [{"team": "home"|"away", "kind": CardKind, "shirt_number": int|None}, ...] in booking order.
    cards = models.JSONField(default=list, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    validation_status = models.CharField(
        max_length=12, choices=Validation.choices, default=Validation.NOT_REQUIRED
    )
    # The claim of the task validating the log (docs/reliability.md): a redelivered task (same
    # Celery task id, its worker died) takes its own claim back, a duplicate finds it held, and a
    # claim older than VALIDATION_CLAIM_TIMEOUT is taken over by the next task (e.g. the sweep's).
    validation_task_id = models.CharField(max_length=64, blank=True)
    validation_claimed_at = models.DateTimeField(null=True, blank=True)
    validation_attempts = models.PositiveSmallIntegerField(default=0)
    # Size of the turn log sent with it (compact JSON), kept after the log itself is dropped:
    # the club's daily storage quota counts what was sent (docs/reliability.md).
    log_bytes = models.PositiveIntegerField(default=0)
    # The rules engine's errors: [{"turn":…, "stage":…, "rule":…, "reason":…}, ...]
    validation_errors = models.JSONField(default=list, blank=True)
    # What the rules engine derived from the log (score, cards, injuries, skills lost/gained).
    derived_result = models.JSONField(null=True, blank=True)
    dispute_reason = models.TextField(blank=True)
    # Indexes into `cards` of the card lines the opponent says are wrong (empty: the score only).
    disputed_cards = models.JSONField(default=list, blank=True)
    disputed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            # One live submission per fixture; resubmitting supersedes the previous one.
            models.UniqueConstraint(
                fields=["fixture"], condition=Q(status="open"), name="one_open_submission_per_fixture"
            )
        ]

    def __str__(self) -> str:
        return f"{self.fixture}: {self.home_goals}-{self.away_goals} by {self.team}"

    @property
    def turn_log(self) -> dict | None:
        """The submitted turn log (stored as a MatchLog), if any."""
        try:
            return self.match_log.data
        except ObjectDoesNotExist:
            return None


class MatchLog(models.Model):
    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="match_logs")
    submission = models.OneToOneField(
        ResultSubmission, null=True, blank=True, on_delete=models.CASCADE, related_name="match_log"
    )
    format = models.CharField(max_length=40, default="fuba-log/1")
    data = models.JSONField()
    is_simulated = models.BooleanField(default=False)
    seed = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Log of {self.fixture} ({self.format})"


class ResultAudit(models.Model):
    class Action(models.TextChoices):
        SUBMIT = "submit", "Submitted"
        VALIDATE = "validate", "Log validated"
        CONFIRM = "confirm", "Confirmed"
        DISPUTE = "dispute", "Disputed"
        RESOLVE = "resolve", "Dispute resolved"
        OVERRIDE = "override", "Overridden by an administrator"
        SIMULATE = "simulate", "Simulated"
        AWARD = "award", "Awarded"
        CLEAR = "clear", "Cleared by an administrator"
        REOPEN = "reopen", "Reopened: an earlier result it depended on changed"
        VOID = "void", "Voided by an administrator"

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The actor's standing when they acted ("co-organiser", "results desk", "member of Wolves FC",
    # "administrator"), kept as words so the trail still says it after a role is taken away.
    actor_role = models.CharField(max_length=60, blank=True)
    action = models.CharField(max_length=10, choices=Action.choices)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.get_action_display()} {self.fixture} at {self.created_at:%Y-%m-%d %H:%M}"


class PointAdjustment(models.Model):
    """Points deducted from (negative) or added to a team by the organisers, with the reason.

    Applied in every table of the team's competition (tournaments.standings.table.compute_table);
    written only through matches.standings.services.points_adjust.
    """

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="point_adjustments")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="point_adjustments")
    points = models.SmallIntegerField(help_text="Negative to deduct")
    reason = models.TextField()
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # The person's standing when they adjusted ("co-organiser", "administrator"), as audits name it.
    created_by_role = models.CharField(max_length=80, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]

    def __str__(self) -> str:
        return f"{self.points:+d} for {self.team}: {self.reason}"


class Forfeit(models.Model):
    """Why a fixture is decided without the clubs' result, and the claim of the task deciding it.

    One per fixture. The claim fields let a redelivered task (same Celery task id, after its worker
    died) take its own claim back, while a duplicate task (another id) finds the claim held and
    does nothing.
    """

    class Reason(models.TextChoices):
        DECLARED = "declared", "Declared by a club"
        DEADLINE = "deadline", "No confirmed result by the deadline"
        ADMIN = "admin", "Started by an administrator"

    class State(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        SKIPPED = "skipped", "Skipped: the fixture already had a result"
        FAILED = "failed", "Failed"

    fixture = models.OneToOneField(Fixture, on_delete=models.CASCADE, related_name="forfeit")
    reason = models.CharField(max_length=10, choices=Reason.choices)
    # The side that gave the match up; null when nobody declared (deadline missed by both).
    forfeiting_team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.SET_NULL, related_name="forfeits"
    )
    declared_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    state = models.CharField(max_length=8, choices=State.choices, default=State.QUEUED)
    claim_task_id = models.CharField(max_length=64, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    # The fixture's status before the claim, restored if the simulation fails for good.
    claimed_from_status = models.CharField(max_length=12, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    seed = models.BigIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"Forfeit of {self.fixture} ({self.get_reason_display()}, {self.get_state_display()})"

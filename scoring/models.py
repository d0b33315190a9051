"""A live scoring session: one fixture recorded turn by turn at the table.

The session is the ordered list of its events; the engine state is rebuilt from them (scoring.session_engine),
never taken from a client. An undone event stays in the table (undone_at set) as the record of what
was entered and taken back; the live events are those not undone, numbered 1..seq without gaps.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments.models import Fixture


class ScoringSession(models.Model):
    class Status(models.TextChoices):
        LIVE = "live", "Live"
        FULL_TIME = "full_time", "Full time, waiting for the clubs' confirmation"
        SUBMITTED = "submitted", "Submitted as the result"
        ABANDONED = "abandoned", "Abandoned"

    # Statuses in which the session still holds the fixture: one such session per fixture.
    ACTIVE_STATUSES = (Status.LIVE, Status.FULL_TIME)

    fixture = models.ForeignKey(Fixture, on_delete=models.CASCADE, related_name="scoring_sessions")
    header = models.JSONField(help_text="fuba-log/1 header built from the fixture when the session started")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LIVE, db_index=True)
    # Number of live events; a client posts the sequence number it expects to follow (seq + 1).
    seq = models.PositiveIntegerField(default=0)
    # Bumped by every change (event, undo, confirmation, status): the live endpoint's ETag.
    version = models.PositiveIntegerField(default=0)
    # client_id of the last live event: with seq and version it names the engine state exactly, even
    # across a rolled-back write (scoring.session_engine's per-process cache key).
    head = models.CharField(max_length=64, blank=True)
    # Which clubs' members entered events (both: each side confirms the result on its own device).
    home_entered = models.BooleanField(default=False)
    away_entered = models.BooleanField(default=False)
    # The last live events as the pages show them (newest first): the state answers every post
    # without another query.
    recent = models.JSONField(default=list, blank=True)
    last_undo = models.JSONField(null=True, blank=True, help_text="The last undone event and why")
    # Set when the match first reaches full time and never cleared (an undo, an abandon): from then
    # until the fixture's result counts, the result, log and feed are the two clubs' and staff's only.
    reached_full_time = models.BooleanField(default=False)
    started_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    home_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    away_confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # A level knockout tie (I-38, I-42): the shoot-out score as the first club to confirm gave it,
    # and who gave it. The other club's confirmation must give the same score (scoring.services).
    shootout_home = models.PositiveSmallIntegerField(null=True, blank=True)
    shootout_away = models.PositiveSmallIntegerField(null=True, blank=True)
    shootout_side = models.CharField(max_length=4, blank=True, help_text="home/away: the club that gave it")
    shootout_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submission = models.ForeignKey(
        "matches.ResultSubmission", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    abandoned_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    abandon_reason = models.TextField(blank=True)
    # "App dice": the app rolls every roll of the session (one club chooses, the other agrees;
    # scoring.dice has the rules). app_dice_by/at: whose word set the mode now, and when;
    # dice_record: every word of the clubs on the dice, in order (club, member, event, time).
    app_dice = models.BooleanField(default=False)
    app_dice_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    app_dice_at = models.DateTimeField(null=True, blank=True)
    dice_record = models.JSONField(
        default=list,
        blank=True,
        help_text="The clubs' words on the dice: [{what, app_dice, side, user, seq, at}]",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["fixture"],
                condition=Q(status__in=["live", "full_time"]),
                name="scoring_one_active_session_per_fixture",
            )
        ]

    def __str__(self) -> str:
        return f"Scoring session {self.pk} of {self.fixture}"


class ScoringEvent(models.Model):
    session = models.ForeignKey(ScoringSession, on_delete=models.CASCADE, related_name="events")
    seq = models.PositiveIntegerField()
    # Made by the client; a resend of the same id is recognised and changes nothing.
    client_id = models.CharField(max_length=64)
    data = models.JSONField(help_text="The fuba-log/1 event")
    side = models.CharField(
        max_length=4, blank=True, help_text="home/away: the club of the user; blank: staff"
    )
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    rolled_by_app = models.BooleanField(default=False)
    # App dice rolled on the phone of the posting club without connection (its crypto RNG): the
    # server checked they are legal dice for the roll, as for typed dice, and trusts that phone.
    rolled_offline = models.BooleanField(default=False)
    # The tap that stored the event (made by the client): a resend of a stored tap answers as stored.
    tap_id = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    undo_reason = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ["session", "seq", "id"]
        indexes = [models.Index(fields=["session", "tap_id"], name="scoring_event_tap_id")]
        constraints = [
            models.UniqueConstraint(fields=["session", "client_id"], name="scoring_event_client_id_unique"),
            models.UniqueConstraint(
                fields=["session", "seq"],
                condition=Q(undone_at__isnull=True),
                name="scoring_event_live_seq_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"Event {self.seq} of session {self.session_id}"


class ScoringSideBranch(models.Model):
    """Taps a phone recorded offline that the session could not take: another device had stored
    events on the same sequence numbers first (the first to sync wins). Kept on record, never
    applied; the phone that recorded them is told which of its taps were not used and why."""

    session = models.ForeignKey(ScoringSession, on_delete=models.CASCADE, related_name="side_branches")
    # Made by the phone: a resend of the same branch changes nothing.
    branch_id = models.CharField(max_length=64)
    from_seq = models.PositiveIntegerField(
        help_text="The sequence number the phone's first tap was meant for"
    )
    from_minute = models.CharField(max_length=16, blank=True, help_text="The match minute at that tap")
    events = models.JSONField(help_text="The phone's taps in order: [{client_id, event}] (fuba-log/1 events)")
    session_seq = models.PositiveIntegerField(help_text="The session's seq when the branch was recorded")
    side = models.CharField(max_length=4, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    message = models.TextField(help_text="What the phone was told")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "id"]
        constraints = [
            models.UniqueConstraint(fields=["session", "branch_id"], name="scoring_side_branch_id_unique")
        ]

    def __str__(self) -> str:
        return f"Side branch {self.branch_id} of scoring session {self.session_id} from {self.from_seq}"

"""Notifications: the outbox (events), one delivery per recipient and channel with its log, the
people's choices, what they follow, webhooks and phones (web push subscriptions).

The models name the league's by string ("tournaments.Fixture"): this module imports nothing of the
league, so the league's services can write the outbox (notifications.outbox) from below.
"""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q

from notifications import kinds

KIND_CHOICES = [(k, label) for k, label in kinds.LABELS.items()]


class Event(models.Model):
    """The outbox: one row per thing that happened, written in the transaction of the change.

    ``key`` makes an emit idempotent (one "round 3 paired" however many fixtures it created; one
    "deadline in 24 h" per fixture and deadline). ``data`` is what the messages say, taken when
    the change was made, so a retried delivery says the same."""

    kind = models.CharField(max_length=24, choices=KIND_CHOICES)
    key = models.CharField(max_length=200, unique=True)
    competition = models.ForeignKey(
        "tournaments.Competition", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    fixture = models.ForeignKey(
        "tournaments.Fixture", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    # Teams concerned (both of a fixture, the suspended one, every team of a draw or round).
    team_ids = models.JSONField(default=list, blank=True)
    # Only these teams' clubs hear of it (the opponent of the side that reported a score); empty: all.
    for_team_ids = models.JSONField(default=list, blank=True)
    # Private events: a webhook's owner or a user named directly (channel paused).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Set by the fan-out task in the transaction that writes the deliveries (its claim).
    fanned_out_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["fanned_out_at", "created_at"], name="notif_event_fanout")]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} ({self.key})"

    @property
    def is_public(self) -> bool:
        return self.kind not in kinds.PRIVATE


class Webhook(models.Model):
    """An outgoing webhook of a competition (its organisers) or of a club, signed by the Standard
    Webhooks spec; ``style`` posts a readable message a Discord or Slack channel accepts instead."""

    class Style(models.TextChoices):
        STANDARD = "standard", "Standard Webhooks (JSON, signed)"
        DISCORD = "discord", "Discord channel webhook"
        SLACK = "slack", "Slack incoming webhook"

    competition = models.ForeignKey(
        "tournaments.Competition", null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks"
    )
    club = models.ForeignKey(
        "tournaments.Club", null=True, blank=True, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=500)
    style = models.CharField(max_length=10, choices=Style.choices, default=Style.STANDARD)
    # "whsec_" + base64 of 32 random bytes (the spec's form); shown to the owner once made.
    secret = models.CharField(max_length=80)
    # Kinds sent; empty: every kind the webhook may receive.
    kinds = models.JSONField(default=list, blank=True)
    # A club's webhook may also get the club's private notices (a score to confirm, a dispute):
    # for a channel only the club's members read.
    include_private = models.BooleanField(default=False)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    failures = models.PositiveIntegerField(default=0, help_text="Failed attempts in a row")
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(competition__isnull=False, club__isnull=True)
                | Q(competition__isnull=True, club__isnull=False),
                name="webhook_one_owner",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_style_display()} {self.url}"


class PushSubscription(models.Model):
    """A phone or browser that allowed notifications (the Push API's subscription)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    endpoint = models.URLField(max_length=800, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    user_agent = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    failures = models.PositiveIntegerField(default=0)
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_reason = models.TextField(blank=True)

    def __str__(self) -> str:
        return f"Push to {self.user} ({self.user_agent or self.endpoint[:40]})"


class Delivery(models.Model):
    """One message to one recipient on one channel. ``uid`` is its stable id (the webhook-id
    header, the push's tag): every attempt sends the same, so a receiver drops repeats."""

    class Channel(models.TextChoices):
        EMAIL = "email", "E-mail"
        PUSH = "push", "Web push"
        WEBHOOK = "webhook", "Webhook"

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting to be sent"
        SENDING = "sending", "Being sent"
        SENT = "sent", "Sent"
        DIGEST = "digest", "Kept for the daily digest"
        HELD = "held", "Held: the channel is paused"
        FAILED = "failed", "Given up"

    uid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="deliveries")
    channel = models.CharField(max_length=8, choices=Channel.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    webhook = models.ForeignKey(
        Webhook, null=True, blank=True, on_delete=models.CASCADE, related_name="deliveries"
    )
    push = models.ForeignKey(
        PushSubscription, null=True, blank=True, on_delete=models.CASCADE, related_name="deliveries"
    )
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "deliveries"
        constraints = [
            models.UniqueConstraint(
                fields=["event", "channel", "user", "webhook", "push"],
                nulls_distinct=False,
                name="delivery_once_per_recipient",
            )
        ]
        indexes = [models.Index(fields=["status", "next_attempt_at"], name="notif_delivery_due")]

    def __str__(self) -> str:
        return f"{self.get_channel_display()} {self.uid} ({self.status})"


class DeliveryAttempt(models.Model):
    """The delivery log: every try, with what the receiver answered."""

    delivery = models.ForeignKey(Delivery, on_delete=models.CASCADE, related_name="log")
    at = models.DateTimeField(auto_now_add=True)
    ok = models.BooleanField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    duration_ms = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["at", "id"]

    def __str__(self) -> str:
        return f"{'ok' if self.ok else 'failed'} at {self.at:%Y-%m-%d %H:%M:%S}"


class Preference(models.Model):
    """A person's choices: channels per kind (missing: the default) and the daily digest."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notification_preference"
    )
    # {kind: ["email", "push"]}; a kind not here has kinds.DEFAULT_CHANNELS.
    channels = models.JSONField(default=dict, blank=True)
    digest = models.BooleanField(default=False, help_text="One mail a day instead of single mails")
    last_digest_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"Notification choices of {self.user}"


class Follow(models.Model):
    """A signed-in person follows a team, a competition or a coach."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows")
    team = models.ForeignKey(
        "tournaments.Team", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    competition = models.ForeignKey(
        "tournaments.Competition", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    coach = models.ForeignKey(
        "tournaments.Coach", null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(team__isnull=False, competition__isnull=True, coach__isnull=True)
                | Q(team__isnull=True, competition__isnull=False, coach__isnull=True)
                | Q(team__isnull=True, competition__isnull=True, coach__isnull=False),
                name="follow_one_thing",
            ),
            models.UniqueConstraint(
                fields=["user", "team", "competition", "coach"], nulls_distinct=False, name="follow_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} follows {self.team or self.competition or self.coach}"


class ClubMute(models.Model):
    """A club's member who does not follow the club's fixtures (they do by default)."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    club = models.ForeignKey("tournaments.Club", on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "club"], name="club_mute_once")]

    def __str__(self) -> str:
        return f"{self.user} does not follow the fixtures of club {self.club_id}"

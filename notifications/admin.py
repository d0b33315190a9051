"""The notifications in the admin: read only (the outbox, the deliveries with their log, the
webhooks and phones). Changes go through the pages and notifications.services."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from notifications.models import Delivery, DeliveryAttempt, Event, PushSubscription, Webhook


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class Record(ReadOnly):
    """The outbox and its delivery log: the record of what was told to whom, never deleted here
    (a webhook or a phone may be: that stops what is sent to it)."""

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Event)
class EventAdmin(Record):
    list_display = ["id", "kind", "key", "created_at", "fanned_out_at"]
    list_filter = ["kind"]
    search_fields = ["key"]


class AttemptInline(admin.TabularInline):
    model = DeliveryAttempt
    extra = 0
    can_delete = False
    readonly_fields = ["at", "ok", "status_code", "error", "duration_ms"]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Delivery)
class DeliveryAdmin(Record):
    list_display = ["uid", "channel", "status", "attempts", "user", "webhook", "created_at", "sent_at"]
    list_filter = ["channel", "status"]
    search_fields = ["uid", "user__username", "webhook__url"]
    inlines = [AttemptInline]


@admin.register(Webhook)
class WebhookAdmin(ReadOnly):
    list_display = ["url", "style", "competition", "club", "failures", "paused_at"]
    exclude = ["secret"]


@admin.register(PushSubscription)
class PushSubscriptionAdmin(ReadOnly):
    list_display = ["user", "user_agent", "failures", "paused_at", "created_at"]

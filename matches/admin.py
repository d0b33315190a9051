from __future__ import annotations

from django.contrib import admin

from matches.models import Card, MatchLog, Result, ResultAudit, ResultSubmission


class CardInline(admin.TabularInline):
    model = Card
    extra = 0


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ("fixture", "__str__", "source", "updated_at")
    list_filter = ("source",)
    raw_id_fields = ("fixture", "submission")
    inlines = [CardInline]


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(admin.ModelAdmin):
    list_display = (
        "fixture",
        "team",
        "home_goals",
        "away_goals",
        "status",
        "validation_status",
        "created_at",
    )
    list_filter = ("status", "validation_status")
    raw_id_fields = ("fixture",)


@admin.register(MatchLog)
class MatchLogAdmin(admin.ModelAdmin):
    list_display = ("fixture", "format", "is_simulated", "seed", "created_at")
    raw_id_fields = ("fixture", "submission")


@admin.register(ResultAudit)
class ResultAuditAdmin(admin.ModelAdmin):
    list_display = ("fixture", "action", "actor", "created_at")
    list_filter = ("action",)
    raw_id_fields = ("fixture",)

    # The audit trail is evidence: nobody edits or deletes it from the admin.
    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False

"""Admin for results: read-mostly views of results, submissions, logs and the audit trail.

Results are changed through the workflow services (fixture admin actions: resolve a dispute,
simulate a forfeit; the API's override), never by editing rows here, so every change lands in
the audit trail and standings, brackets and suspensions follow.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from matches.models import Card, Forfeit, MatchLog, Result, ResultAudit, ResultSubmission


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class CardInline(ReadOnlyInline):
    model = Card
    fields = ("team", "kind", "shirt_number", "sequence")
    readonly_fields = fields


class ResultInline(admin.StackedInline):
    model = Result
    extra = 0
    can_delete = False
    fields = (
        "home_goals",
        "away_goals",
        "extra_time",
        "home_penalties",
        "away_penalties",
        "source",
        "confirmed_by",
    )
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SubmissionInline(ReadOnlyInline):
    model = ResultSubmission
    fields = (
        "team",
        "submitted_by",
        "home_goals",
        "away_goals",
        "status",
        "validation_status",
        "validation_errors",
        "dispute_reason",
        "created_at",
    )
    readonly_fields = fields
    show_change_link = True


class ForfeitInline(admin.StackedInline):
    model = Forfeit
    extra = 0
    can_delete = False

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in Forfeit._meta.fields]

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AuditInline(ReadOnlyInline):
    model = ResultAudit
    fields = ("created_at", "action", "actor", "before", "after", "note")
    readonly_fields = fields


@admin.register(Result)
class ResultAdmin(admin.ModelAdmin):
    list_display = ("fixture", "__str__", "source", "competition", "updated_at")
    list_filter = ("source", "extra_time", "fixture__competition")
    search_fields = ("fixture__home_team__name", "fixture__away_team__name")
    list_select_related = ("fixture__home_team", "fixture__away_team", "fixture__competition")
    raw_id_fields = ("fixture", "submission", "confirmed_by")
    readonly_fields = ("source", "submission", "confirmed_by", "created_at", "updated_at")
    inlines = [CardInline]

    @admin.display(description="Competition", ordering="fixture__competition__name")
    def competition(self, obj: Result) -> str:
        return obj.fixture.competition.name


@admin.register(Card)
class CardAdmin(admin.ModelAdmin):
    list_display = ("team", "kind", "shirt_number", "result", "sequence")
    list_filter = ("kind", "team__competition")
    search_fields = ("team__name",)
    list_select_related = ("team", "result__fixture")
    raw_id_fields = ("result", "team")

    # Cards belong to a result; they change with it through the workflow services.
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(admin.ModelAdmin):
    list_display = (
        "fixture",
        "team",
        "home_goals",
        "away_goals",
        "status",
        "validation_status",
        "submitted_by",
        "created_at",
    )
    list_filter = ("status", "validation_status", "fixture__competition")
    search_fields = ("fixture__home_team__name", "fixture__away_team__name", "submitted_by__username")
    list_select_related = ("fixture__home_team", "fixture__away_team", "team", "submitted_by")
    raw_id_fields = ("fixture", "team", "club", "submitted_by", "disputed_by")
    date_hierarchy = "created_at"

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(MatchLog)
class MatchLogAdmin(admin.ModelAdmin):
    list_display = ("fixture", "format", "is_simulated", "seed", "created_at", "replay")
    list_filter = ("is_simulated", "format", "fixture__competition")
    search_fields = ("fixture__home_team__name", "fixture__away_team__name")
    list_select_related = ("fixture__competition",)
    raw_id_fields = ("fixture", "submission")

    @admin.display(description="Replay")
    def replay(self, obj: MatchLog) -> str:
        url = reverse("tournaments:match", args=[obj.fixture.competition.slug, obj.fixture_id])
        return format_html('<a href="{}">match page</a>', url)


@admin.register(Forfeit)
class ForfeitAdmin(admin.ModelAdmin):
    list_display = ("fixture", "reason", "state", "forfeiting_team", "declared_by")
    list_filter = ("reason", "state")
    search_fields = ("fixture__home_team__name", "fixture__away_team__name")
    raw_id_fields = ("fixture", "forfeiting_team", "declared_by")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [f.name for f in Forfeit._meta.fields]


@admin.register(ResultAudit)
class ResultAuditAdmin(admin.ModelAdmin):
    list_display = ("fixture", "action", "actor", "note", "created_at")
    list_filter = ("action", "fixture__competition")
    search_fields = ("fixture__home_team__name", "fixture__away_team__name", "actor__username", "note")
    list_select_related = ("fixture__home_team", "fixture__away_team", "actor")
    raw_id_fields = ("fixture",)
    date_hierarchy = "created_at"

    # The audit trail is evidence: nobody edits or deletes it from the admin.
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

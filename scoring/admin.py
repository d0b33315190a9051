"""Scoring sessions in the admin: read-only (the record of what the clubs entered and undid)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html_join
from django.utils.safestring import mark_safe

from scoring import dice, selectors
from scoring.models import ScoringEvent, ScoringSession, ScoringSideBranch


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class EventInline(admin.TabularInline):
    model = ScoringEvent
    fields = (
        "seq", "data", "side", "entered_by", "rolled_by_app", "rolled_offline", "tap_id", "created_at",
        "undone_at", "undo_reason",
    )  # fmt: skip
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("-id",)
    max_num = 0


class SideBranchInline(admin.TabularInline):
    model = ScoringSideBranch
    fields = (
        "branch_id",
        "from_seq",
        "from_minute",
        "session_seq",
        "side",
        "recorded_by",
        "message",
        "events",
    )
    readonly_fields = fields
    extra = 0
    can_delete = False
    max_num = 0


@admin.register(ScoringSession)
class ScoringSessionAdmin(ReadOnly):
    list_display = ("id", "fixture", "status", "seq", "app_dice", "started_by", "created_at", "updated_at")
    list_filter = ("status",)
    search_fields = ("fixture__home_team__name", "fixture__away_team__name")
    list_select_related = ("fixture", "fixture__home_team", "fixture__away_team", "started_by")
    readonly_fields = (
        "fixture", "header", "status", "seq", "version", "head", "home_entered", "away_entered", "started_by",
        "home_confirmed_by", "away_confirmed_by", "shootout_home", "shootout_away", "shootout_side",
        "shootout_by", "submission", "abandoned_by", "abandon_reason",
        "last_undo", "app_dice", "app_dice_by", "app_dice_at", "dice_words", "created_at", "updated_at",
    )  # fmt: skip
    exclude = ("recent", "dice_record")
    inlines = [EventInline, SideBranchInline]

    @admin.display(description="Dice (the clubs' words, in order)")
    def dice_words(self, obj: ScoringSession) -> str:
        names = selectors.session_names(obj)
        lines = [dice.summary(obj.dice_record, app_dice=obj.app_dice, names=names)]
        lines += [
            f"{entry['at'][:16].replace('T', ' ')}: {dice.entry_words(entry, names)}"
            for entry in obj.dice_record
        ]
        return format_html_join(mark_safe("<br>"), "{}", ((line,) for line in lines))

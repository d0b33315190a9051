"""Ratings are derived data: the admin shows them read-only (change them with rebuild_ratings)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from ratings.models import CoachRating, RatedMatch, RatingHistory


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(CoachRating)
class CoachRatingAdmin(ReadOnly):
    list_display = (
        "coach",
        "game_system",
        "ordinal",
        "mu",
        "sigma",
        "games",
        "wins",
        "draws",
        "losses",
        "provisional",
    )
    list_filter = ("game_system",)
    search_fields = ("coach__name",)

    @admin.display(boolean=True)
    def provisional(self, obj: CoachRating) -> bool:
        return obj.provisional


@admin.register(RatedMatch)
class RatedMatchAdmin(ReadOnly):
    list_display = ("sequence", "fixture", "game_system", "outcome", "home_goals", "away_goals", "applied_at")
    list_filter = ("game_system", "outcome")


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnly):
    list_display = ("coach", "game_system", "sequence", "mu", "sigma", "ordinal", "games")
    list_filter = ("game_system",)
    search_fields = ("coach__name",)

from __future__ import annotations

from django.contrib import admin

from tournaments.models import (
    Bye,
    Club,
    Coach,
    Competition,
    Fixture,
    Group,
    LotDraw,
    MatchSkill,
    Skill,
    SkillLoss,
    Stage,
    Suspension,
    Team,
    TeamSkill,
)


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "country")
    search_fields = ("name",)
    filter_horizontal = ("members",)


@admin.register(Coach)
class CoachAdmin(admin.ModelAdmin):
    list_display = ("name", "country", "ranking_id", "club", "played_world_cup_2019")
    search_fields = ("name", "ranking_id")


@admin.register(Skill)
class SkillAdmin(admin.ModelAdmin):
    list_display = ("name", "position_group", "cp_cost", "counts_as_two", "restriction")
    list_filter = ("position_group", "counts_as_two")
    search_fields = ("name", "chapter_text")


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0
    fields = ("order", "name", "kind", "status", "legs", "away_goals_rule", "extra_time", "penalties")


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = ("name", "game_system", "status", "forfeit_policy", "tiebreak_preset")
    list_filter = ("game_system", "status")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [StageInline]


class TeamSkillInline(admin.TabularInline):
    model = TeamSkill
    extra = 0


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = ("name", "competition", "coach", "club", "seed")
    list_filter = ("competition",)
    search_fields = ("name",)
    inlines = [TeamSkillInline]


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ("name", "competition", "order", "kind", "status")
    list_filter = ("kind", "status")


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ("name", "stage")
    filter_horizontal = ("teams",)


@admin.register(Fixture)
class FixtureAdmin(admin.ModelAdmin):
    list_display = ("__str__", "competition", "stage", "round", "status", "kickoff", "deadline")
    list_filter = ("status", "competition")
    raw_id_fields = ("home_team", "away_team", "group")


admin.site.register([Bye, LotDraw, MatchSkill, SkillLoss, Suspension])

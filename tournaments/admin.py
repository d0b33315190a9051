"""Admin for competitions: search, filters, inlines, and actions that call the services.

Actions never change data themselves: they call the services (the fixture admin's result actions
come from matches.admin) and report each ApplicationError as a message naming the object, so a batch
action on ten stages tells which two were refused and why.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from fubaleague.admin_actions import run_service
from fubaleague.auth import signed_in_user
from fubaleague.errors import ApplicationError
from matches.admin import FixtureResultActions
from tournaments import services
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
from tournaments.standings import presentation
from tournaments.standings.services import standings_recompute


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ("name", "country", "member_count", "team_count")
    list_filter = ("country",)
    search_fields = ("name", "country", "members__username")
    filter_horizontal = ("members",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Club]:
        return (
            super()
            .get_queryset(request)
            .annotate(n_members=Count("members", distinct=True), n_teams=Count("teams", distinct=True))
        )

    @admin.display(description="Members", ordering="n_members")
    def member_count(self, obj: Any) -> int:
        return obj.n_members

    @admin.display(description="Teams", ordering="n_teams")
    def team_count(self, obj: Any) -> int:
        return obj.n_teams


@admin.register(Coach)
class CoachAdmin(admin.ModelAdmin):
    list_display = ("name", "country", "ranking_id", "club", "played_world_cup_2019", "public_page")
    list_filter = ("played_world_cup_2019", "country", "club")
    search_fields = ("name", "ranking_id", "country", "club__name")
    list_select_related = ("club",)
    raw_id_fields = ("user",)

    @admin.display(description="Page")
    def public_page(self, obj: Coach) -> str:
        return format_html('<a href="{}">view</a>', reverse("tournaments:coach", args=[obj.pk]))


@admin.register(Skill)
class SkillAdmin(admin.ModelAdmin):
    list_display = ("name", "position_group", "cp_cost", "counts_as_two", "restriction")
    list_filter = ("position_group", "counts_as_two", "restriction", "cp_cost")
    search_fields = ("name", "chapter_text", "restrictions_text")


class StageInline(admin.TabularInline):
    model = Stage
    extra = 0
    fields = ("order", "name", "kind", "status", "legs", "away_goals_rule", "extra_time", "penalties")
    show_change_link = True


class TeamInline(admin.TabularInline):
    model = Team
    extra = 0
    fields = ("name", "country", "coach", "club", "seed", "default_formation", "withdrawn")
    raw_id_fields = ("coach", "club")
    show_change_link = True


@admin.register(Competition)
class CompetitionAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "game_system",
        "status",
        "team_total",
        "played",
        "disputed",
        "forfeit_policy",
        "tiebreak_preset",
        "links",
    )
    list_filter = ("game_system", "status", "is_world_cup", "tiebreak_preset", "forfeit_policy")
    search_fields = ("name", "slug")
    prepopulated_fields = {"slug": ("name",)}
    inlines = [StageInline, TeamInline]
    actions = ["generate_fixtures", "recompute_standings"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Competition]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_teams=Count("teams", distinct=True),
                n_played=Count(
                    "fixtures", filter=Q(fixtures__status__in=Fixture.COUNTED_STATUSES), distinct=True
                ),
                n_disputed=Count(
                    "fixtures", filter=Q(fixtures__status=Fixture.Status.DISPUTED), distinct=True
                ),
            )
        )

    @admin.display(description="Teams", ordering="n_teams")
    def team_total(self, obj: Any) -> int:
        return obj.n_teams

    @admin.display(description="Played", ordering="n_played")
    def played(self, obj: Any) -> int:
        return obj.n_played

    @admin.display(description="Disputed", ordering="n_disputed")
    def disputed(self, obj: Any) -> str:
        if not obj.n_disputed:
            return "0"
        url = (
            reverse("admin:tournaments_fixture_changelist")
            + f"?competition__id__exact={obj.pk}&status__exact=disputed"
        )
        return format_html('<a href="{}" style="color:#a4262c;font-weight:bold">{}</a>', url, obj.n_disputed)

    @admin.display(description="Links")
    def links(self, obj: Competition) -> str:
        return format_html(
            '<a href="{}">standings (staff)</a> · <a href="{}">public page</a>',
            reverse("admin:tournaments_competition_standings", args=[obj.pk]),
            reverse("tournaments:competition", args=[obj.slug]),
        )

    @admin.action(description="Generate fixtures for stages that have none")
    def generate_fixtures(self, request: HttpRequest, queryset: QuerySet[Competition]) -> None:
        stages = Stage.objects.filter(competition__in=queryset).annotate(n=Count("fixtures")).filter(n=0)
        run_service(
            self, request, stages, lambda s: f"{len(services.fixture_generate(stage=s))} fixtures generated"
        )

    @admin.action(description="Recompute standings (draw lots where still level)")
    def recompute_standings(self, request: HttpRequest, queryset: QuerySet[Competition]) -> None:
        run_service(
            self,
            request,
            queryset,
            lambda c: (
                f"{standings_recompute(competition=c, user=signed_in_user(request.user))} tables recomputed"
            ),
        )

    def get_urls(self) -> list[Any]:
        custom = [
            path(
                "<int:competition_id>/standings/",
                self.admin_site.admin_view(self.standings_view),
                name="tournaments_competition_standings",
            )
        ]
        return custom + super().get_urls()

    def standings_view(self, request: HttpRequest, competition_id: int) -> HttpResponse:
        """Staff standings: every table computed fresh (no cache), with tie-break reasons and lot draws."""
        competition = get_object_or_404(Competition, pk=competition_id)
        if request.method == "POST" and self.has_change_permission(request, competition):
            try:
                n = standings_recompute(competition=competition, user=signed_in_user(request.user))
            except ApplicationError as exc:
                self.message_user(request, exc.message, messages.ERROR)
            else:
                self.message_user(request, f"{n} tables recomputed; lots drawn where teams were level.")
            return HttpResponseRedirect(request.path)
        tables = presentation.compute_competition_tables(competition)
        lot_draws = LotDraw.objects.filter(stage__competition=competition).select_related(
            "stage", "group", "drawn_by"
        )
        names = dict(competition.teams.values_list("id", "name"))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Standings – {competition}",
            "opts": self.model._meta,
            "competition": competition,
            "tables": tables,
            "lot_draws": [
                {"draw": d, "teams": [names.get(t, t) for t in d.order]}
                for d in lot_draws.order_by("drawn_at")
            ],
            "disputed": Fixture.objects.filter(
                competition=competition, status=Fixture.Status.DISPUTED
            ).select_related("home_team", "away_team"),
        }
        return TemplateResponse(request, "admin/tournaments/competition/standings.html", context)


class TeamSkillInline(admin.TabularInline):
    model = TeamSkill
    extra = 0
    raw_id_fields = ("gained_in",)


class SuspensionInline(admin.TabularInline):
    model = Suspension
    extra = 0
    fields = ("reason", "shirt_number", "source_fixture", "sequence", "served_in")
    raw_id_fields = ("source_fixture", "served_in")
    fk_name = "team"


class SkillLossInline(admin.TabularInline):
    model = SkillLoss
    extra = 0
    raw_id_fields = ("lost_in", "unavailable_for")


@admin.register(Team)
class TeamAdmin(admin.ModelAdmin):
    list_display = (
        "name",
        "competition",
        "coach",
        "club",
        "seed",
        "default_formation",
        "withdrawn",
        "public_page",
    )
    list_filter = ("competition", "withdrawn", "default_formation")
    search_fields = ("name", "country", "coach__name", "club__name")
    list_select_related = ("competition", "coach", "club")
    raw_id_fields = ("coach", "club")
    inlines = [TeamSkillInline, SkillLossInline, SuspensionInline]

    @admin.display(description="Page")
    def public_page(self, obj: Team) -> str:
        return format_html(
            '<a href="{}">view</a>', reverse("tournaments:team", args=[obj.competition.slug, obj.pk])
        )


class GroupInline(admin.TabularInline):
    model = Group
    extra = 0
    fields = ("name",)
    show_change_link = True


class FixtureInline(admin.TabularInline):
    model = Fixture
    extra = 0
    fields = ("match_number", "round", "leg", "home_team", "away_team", "kickoff", "deadline", "status")
    readonly_fields = ("status",)
    raw_id_fields = ("home_team", "away_team")
    show_change_link = True
    ordering = ("round", "match_number", "leg")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Fixture]:
        return super().get_queryset(request).select_related("home_team", "away_team")


@admin.register(Stage)
class StageAdmin(admin.ModelAdmin):
    list_display = ("name", "competition", "order", "kind", "status", "fixture_total")
    list_filter = ("kind", "status", "competition")
    search_fields = ("name", "competition__name")
    list_select_related = ("competition",)
    filter_horizontal = ("teams",)
    inlines = [GroupInline, FixtureInline]
    actions = ["generate_fixtures", "next_swiss_round"]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Stage]:
        return super().get_queryset(request).annotate(n_fixtures=Count("fixtures"))

    @admin.display(description="Fixtures", ordering="n_fixtures")
    def fixture_total(self, obj: Any) -> int:
        return obj.n_fixtures

    @admin.action(description="Generate fixtures")
    def generate_fixtures(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        def generate(stage: Stage) -> str:
            created = services.fixture_generate(stage=stage)
            return f"{len(created)} fixtures generated"

        run_service(self, request, queryset, generate)

    @admin.action(description="Pair the next Swiss round")
    def next_swiss_round(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        def pair(stage: Stage) -> str:
            created = services.swiss_round_generate(stage=stage)
            return f"{len(created)} pairings created"

        run_service(self, request, queryset, pair)


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ("name", "stage", "team_list")
    list_filter = ("stage__competition",)
    search_fields = ("name", "teams__name")
    filter_horizontal = ("teams",)
    inlines = [FixtureInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Group]:
        return super().get_queryset(request).select_related("stage__competition").prefetch_related("teams")

    @admin.display(description="Teams")
    def team_list(self, obj: Group) -> str:
        return ", ".join(t.name for t in obj.teams.all())


class FixtureStatusFilter(admin.SimpleListFilter):
    title = "needs attention"
    parameter_name = "attention"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("disputed", "Disputed"), ("awaiting", "Awaiting confirmation"), ("overdue", "Past deadline")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> QuerySet[Fixture]:
        from django.utils import timezone

        if self.value() == "disputed":
            return queryset.filter(status=Fixture.Status.DISPUTED)
        if self.value() == "awaiting":
            return queryset.filter(status=Fixture.Status.SUBMITTED)
        if self.value() == "overdue":
            return queryset.filter(status__in=Fixture.OPEN_STATUSES, deadline__lt=timezone.now())
        return queryset


@admin.register(Fixture)
class FixtureAdmin(FixtureResultActions):
    list_display = (
        "__str__",
        "competition",
        "stage",
        "group",
        "round",
        "status_badge",
        "score",
        "kickoff",
        "deadline",
    )
    list_filter = (FixtureStatusFilter, "status", "competition", "stage__kind", "round")
    search_fields = (
        "home_team__name",
        "away_team__name",
        "home_placeholder",
        "away_placeholder",
        "=match_number",
    )
    list_select_related = ("competition", "stage", "group", "home_team", "away_team", "result")
    raw_id_fields = ("home_team", "away_team", "group")
    readonly_fields = ("status", "updated_at")
    date_hierarchy = "kickoff"
    actions = ["simulate_forfeit_now", "resolve_dispute", "recompute_standings"]

    @admin.display(description="Status", ordering="status")
    def status_badge(self, obj: Fixture) -> str:
        colours = {
            "disputed": "#a4262c",
            "submitted": "#9a5b00",
            "simulated": "#5b3fa0",
            "simulating": "#5b3fa0",
        }
        return format_html(
            '<span style="color:{};font-weight:600">{}</span>',
            colours.get(obj.status, "inherit"),
            obj.get_status_display(),
        )

    @admin.display(description="Result")
    def score(self, obj: Fixture) -> str:
        result = getattr(obj, "result", None)
        if result is None or not obj.is_counted:
            return "–"
        return str(result) + (" (sim)" if result.is_simulated else "")

    @admin.action(description="Recompute standings of their competitions")
    def recompute_standings(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> None:
        competitions = Competition.objects.filter(fixtures__in=queryset).distinct()
        run_service(
            self,
            request,
            competitions,
            lambda c: (
                f"{standings_recompute(competition=c, user=signed_in_user(request.user))} tables recomputed"
            ),
        )


@admin.register(Suspension)
class SuspensionAdmin(admin.ModelAdmin):
    list_display = (
        "team",
        "competition",
        "reason",
        "shirt_number",
        "source_fixture",
        "sequence",
        "served_in",
    )
    list_filter = ("reason", "competition")
    search_fields = ("team__name",)
    list_select_related = ("team", "competition", "source_fixture", "served_in")
    raw_id_fields = ("team", "source_fixture", "served_in")


@admin.register(LotDraw)
class LotDrawAdmin(admin.ModelAdmin):
    list_display = ("stage", "group", "key", "order", "seed", "drawn_at", "drawn_by")
    list_filter = ("stage__competition",)
    readonly_fields = ("stage", "group", "key", "order", "seed", "drawn_at", "drawn_by")

    # A drawing of lots is drawn once and kept: editing it would change a table behind everyone's back.
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Bye)
class ByeAdmin(admin.ModelAdmin):
    list_display = ("team", "stage", "round")
    list_filter = ("stage",)
    search_fields = ("team__name",)


@admin.register(SkillLoss)
class SkillLossAdmin(admin.ModelAdmin):
    list_display = ("team", "skill", "lost_in", "unavailable_for")
    list_filter = ("skill",)
    search_fields = ("team__name", "skill__name")
    raw_id_fields = ("team", "lost_in", "unavailable_for")


@admin.register(MatchSkill)
class MatchSkillAdmin(admin.ModelAdmin):
    list_display = ("fixture", "team", "skill")
    list_filter = ("skill",)
    search_fields = ("team__name", "skill__name")
    raw_id_fields = ("fixture", "team")


@admin.register(TeamSkill)
class TeamSkillAdmin(admin.ModelAdmin):
    list_display = ("team", "skill", "source", "gained_in")
    list_filter = ("source", "skill__position_group", "team__competition")
    search_fields = ("team__name", "skill__name")
    list_select_related = ("team", "skill", "gained_in")
    raw_id_fields = ("team", "gained_in")

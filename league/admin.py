"""Admin for competitions: search, filters, inlines, and actions that call the services.

Actions never change data themselves: they call the services (the fixture admin's result actions
come from matches.admin) and report each ApplicationError as a message naming the object, so a batch
action on ten stages tells which two were refused and why.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

import league.admin_clubs  # noqa: F401  (registers the clubs', coaches' and records' admins)
from kernel.admin_actions import ReadOnlyAdminInline, ServiceAdmin, form_error, run_service
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from league.admin_forms import (
    TIEBREAK_SLOTS,
    CompetitionForm,
    FixtureForm,
    GroupForm,
    StageForm,
    TeamForm,
    WizardForm,
)
from matches import progress
from matches.admin import FixtureResultActions
from matches.audit_words import audit_sentences
from matches.standings import presentation
from matches.standings.services import standings_recompute
from tournaments.formats import competition_create_from_format
from tournaments.models import (
    Competition,
    Draw,
    Fixture,
    Group,
    LotDraw,
    SkillLoss,
    Stage,
    Suspension,
    Team,
    TeamSkill,
)
from tournaments.services.clubs import team_delete
from tournaments.services.competitions import competition_delete
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import group_delete, stage_delete

admin.site.site_header = "FUBA League administration"
admin.site.site_title = "FUBA League admin"
admin.site.index_title = "Competitions, results and clubs"


def _hide_beat_models() -> None:
    """Celery beat's schedule tables are internals: kept reachable by URL, out of the main index."""
    for model, model_admin in list(admin.site._registry.items()):
        if model._meta.app_label == "django_celery_beat":
            model_admin.get_model_perms = lambda request: {}  # type: ignore[method-assign]


_hide_beat_models()


class StageInline(ReadOnlyAdminInline):
    model = Stage
    fields = ("order", "name", "kind", "status", "legs", "away_goals_rule", "extra_time", "penalties")


class TeamInline(ReadOnlyAdminInline):
    model = Team
    fields = ("name", "country", "confederation", "coach", "club", "seed", "default_formation", "withdrawn")


@admin.register(Competition)
class CompetitionAdmin(ServiceAdmin):
    form = CompetitionForm
    change_list_template = "admin/tournaments/competition/change_list.html"
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

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        names = list(CompetitionForm.Meta.fields)
        order = [f"tiebreak_{i + 1}" for i in range(TIEBREAK_SLOTS)]
        return [(None, {"fields": names}), ("Custom tie-break order", {"fields": order})]

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        # The tie-break slots are added in the form's __init__; the admin must not look for them on the model.
        kwargs["fields"] = None
        return super().get_form(request, obj, change, **kwargs)

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

    def service_delete(self, obj: Competition) -> None:
        competition_delete(competition=obj)

    def save_model(self, request: HttpRequest, obj: Competition, form: Any, change: bool) -> None:
        super().save_model(request, obj, form, change)
        if form.discipline_change is not None:
            self.message_user(request, f"Discipline settings changed. {form.discipline_change.summary()}")

    @admin.action(description="Generate fixtures for stages that have none", permissions=["change"])
    def generate_fixtures(self, request: HttpRequest, queryset: QuerySet[Competition]) -> None:
        stages = Stage.objects.filter(competition__in=queryset).annotate(n=Count("fixtures")).filter(n=0)
        run_service(self, request, stages, lambda s: f"{len(fixture_generate(stage=s))} fixtures generated")

    @admin.action(description="Recompute standings (draw lots where still level)", permissions=["change"])
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
            ),
            path(
                "wizard/", self.admin_site.admin_view(self.wizard_view), name="tournaments_competition_wizard"
            ),
        ]
        return custom + super().get_urls()

    def wizard_view(self, request: HttpRequest) -> HttpResponse:
        """New competition in one step: a format's stages and groups, its teams, and the group draw."""
        if not (self.has_add_permission(request) and request.user.has_perm("tournaments.add_stage")):
            return HttpResponseRedirect(reverse("admin:index"))
        form = WizardForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            d = form.cleaned_data
            try:
                created = competition_create_from_format(
                    name=d["name"],
                    slug=d["slug"],
                    format=d["format"],
                    teams=form.team_rows(),
                    seed=d.get("seed"),
                    user=request.user,
                )
            except ApplicationError as exc:
                form_error(form, exc)
            else:
                note = f" Groups drawn with seed {created.draw.seed}." if created.draw else ""
                self.message_user(request, f"{created.competition}: stages and groups created.{note}")
                return HttpResponseRedirect(
                    reverse("admin:tournaments_competition_change", args=[created.competition.pk])
                )
        context = {
            **self.admin_site.each_context(request),
            "title": "New competition",
            "opts": self.model._meta,
            "form": form,
        }
        return TemplateResponse(request, "admin/tournaments/competition/wizard.html", context)

    def standings_view(self, request: HttpRequest, competition_id: int) -> HttpResponse:
        """Staff standings: every table computed fresh (no cache), with tie-break reasons and lot draws."""
        competition = get_object_or_404(Competition, pk=competition_id)
        # Staff status alone is not enough: viewing needs the view permission,
        # recomputing the change permission, as everywhere else in the admin.
        if not self.has_view_permission(request, competition):
            raise PermissionDenied
        if request.method == "POST" and not self.has_change_permission(request, competition):
            raise PermissionDenied
        if request.method == "POST":
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


class TeamSkillInline(ReadOnlyAdminInline):
    model = TeamSkill
    fields = ("skill", "source", "gained_in")
    show_change_link = False


class SuspensionInline(ReadOnlyAdminInline):
    model = Suspension
    fields = ("reason", "shirt_number", "source_fixture", "sequence", "served_in")
    fk_name = "team"
    show_change_link = False


class SkillLossInline(ReadOnlyAdminInline):
    model = SkillLoss
    fields = ("skill", "lost_in", "unavailable_for")
    show_change_link = False


@admin.register(Team)
class TeamAdmin(ServiceAdmin):
    form = TeamForm
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
    autocomplete_fields = ("coach", "club")
    inlines = [TeamSkillInline, SkillLossInline, SuspensionInline]

    def service_delete(self, obj: Team) -> None:
        team_delete(team=obj)

    @admin.display(description="Page")
    def public_page(self, obj: Team) -> str:
        return format_html(
            '<a href="{}">view</a>', reverse("tournaments:team", args=[obj.competition.slug, obj.pk])
        )


class GroupInline(ReadOnlyAdminInline):
    model = Group
    fields = ("name",)


class FixtureInline(ReadOnlyAdminInline):
    model = Fixture
    fields = ("match_number", "round", "leg", "home_team", "away_team", "kickoff", "deadline", "status")
    ordering = ("round", "match_number", "leg")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Fixture]:
        return super().get_queryset(request).select_related("home_team", "away_team")


@admin.register(Stage)
class StageAdmin(ServiceAdmin):
    form = StageForm
    list_display = ("name", "competition", "order", "kind", "status", "fixture_total")
    list_filter = ("kind", "status", "competition")
    search_fields = ("name", "competition__name")
    list_select_related = ("competition",)
    inlines = [GroupInline, FixtureInline]
    actions = ["generate_fixtures", "next_swiss_round"]
    readonly_fields = ("status",)

    def service_delete(self, obj: Stage) -> None:
        stage_delete(stage=obj)

    def get_form(self, request: HttpRequest, obj: Any = None, change: bool = False, **kwargs: Any) -> Any:
        # The stage trail names who changed a stage: the form's service call needs the person.
        form = super().get_form(request, obj, change, **kwargs)
        form.acting_user = signed_in_user(request.user)  # type: ignore[attr-defined]
        return form

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        stage_delete(stage=obj, user=signed_in_user(request.user))

    def delete_queryset(self, request: HttpRequest, queryset: Any) -> None:
        for obj in queryset:
            stage_delete(stage=obj, user=signed_in_user(request.user))

    def get_queryset(self, request: HttpRequest) -> QuerySet[Stage]:
        return super().get_queryset(request).annotate(n_fixtures=Count("fixtures"))

    @admin.display(description="Fixtures", ordering="n_fixtures")
    def fixture_total(self, obj: Any) -> int:
        return obj.n_fixtures

    @admin.action(description="Generate fixtures", permissions=["change"])
    def generate_fixtures(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        def generate(stage: Stage) -> str:
            created = fixture_generate(stage=stage)
            return f"{len(created)} fixtures generated"

        run_service(self, request, queryset, generate)

    @admin.action(description="Pair the next Swiss round", permissions=["change"])
    def next_swiss_round(self, request: HttpRequest, queryset: QuerySet[Stage]) -> None:
        def pair(stage: Stage) -> str:
            created = progress.swiss_round_generate(stage=stage)
            return f"{len(created)} pairings created"

        run_service(self, request, queryset, pair)


@admin.register(Group)
class GroupAdmin(ServiceAdmin):
    form = GroupForm
    list_display = ("name", "stage", "team_list")
    list_filter = ("stage__competition",)
    search_fields = ("name", "teams__name")
    inlines = [FixtureInline]

    def service_delete(self, obj: Group) -> None:
        group_delete(group=obj)

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
            return queryset.filter(status=Fixture.Status.SCHEDULED, deadline__lt=timezone.now())
        return queryset


@admin.register(Fixture)
class FixtureAdmin(ServiceAdmin, FixtureResultActions):
    form = FixtureForm
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
    # Who plays whom comes from fixture generation and progress; here only the schedule changes.
    readonly_fields = (
        "competition",
        "stage",
        "group",
        "round",
        "round_name",
        "leg",
        "match_number",
        "home_team",
        "away_team",
        "home_placeholder",
        "away_placeholder",
        "status",
        "updated_at",
        "what_happened",
    )

    @admin.display(description="What happened")
    def what_happened(self, obj: Fixture) -> str:
        """The audit trail in words, as the console shows it."""
        return " · ".join(audit_sentences(obj)) or "–"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    date_hierarchy = "kickoff"
    actions = [
        "simulate_forfeit_now",
        "resolve_dispute",
        "correct_result",
        "award_match",
        "clear_result",
        "void_match",
        "recompute_standings",
    ]

    @admin.display(description="Status", ordering="status")
    def status_badge(self, obj: Fixture) -> str:
        colours = {
            "disputed": "#a4262c",
            "submitted": "#9a5b00",
            "simulated": "#5b3fa0",
            "simulating": "#5b3fa0",
            "void": "#666666",
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

    @admin.action(description="Recompute standings of their competitions", permissions=["change"])
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

    # Suspensions follow from cards and the discipline settings (matches.discipline recomputes
    # them); editing one by hand would be undone by the next recompute.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(LotDraw)
class LotDrawAdmin(admin.ModelAdmin):
    list_display = ("stage", "group", "key", "order", "seed", "drawn_at", "drawn_by")
    list_filter = ("stage__competition",)
    readonly_fields = ("stage", "group", "key", "order", "seed", "drawn_at", "drawn_by")

    # A drawing of lots is drawn once and kept: editing it would change a table behind everyone's back.
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Draw)
class DrawAdmin(admin.ModelAdmin):
    list_display = ("stage", "kind", "seed", "constraints_text", "drawn_at", "drawn_by")
    list_filter = ("kind", "stage__competition")
    readonly_fields = (
        "stage",
        "kind",
        "seed",
        "pots",
        "constraints_text",
        "relaxed_text",
        "result",
        "drawn_at",
        "drawn_by",
    )
    exclude = ("constraints", "relax", "relaxed")

    @admin.display(description="Constraints")
    def constraints_text(self, obj: Draw) -> str:
        return "; ".join(str(c.get("text", c)) for c in obj.constraints) or "none"

    @admin.display(description="Relaxed")
    def relaxed_text(self, obj: Draw) -> str:
        if not obj.relax:
            return "not allowed"
        return (
            "; ".join(f"pot {r['pot']}: group {r['group']} {r['reason']}" for r in obj.relaxed)
            or "not needed"
        )

    # A draw is kept as drawn (its seed repeats it); a new draw is a new row.
    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

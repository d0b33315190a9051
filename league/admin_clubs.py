"""Admin of clubs and coaches (saved and deleted by their services, as the API does) and of the
records the services derive (the skill catalog, byes, skills lost, used and held): those are
read-only here, changed only by what makes them (the rulebook's catalog migration, Swiss pairing,
results and the team's roster)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.contrib.auth import get_user_model
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from kernel.admin_actions import ServiceAdmin, ServiceForm
from tournaments.models import (
    Bye,
    CheckIn,
    Club,
    ClubApplication,
    Coach,
    CompetitionRole,
    Invitation,
    MatchSkill,
    RoundClock,
    Skill,
    SkillLoss,
    StageChange,
    TeamSkill,
)
from tournaments.services.clubs import (
    club_create,
    club_delete,
    club_members_set,
    club_update,
    coach_create,
    coach_delete,
    coach_update,
)

COACH_FIELDS = ("name", "country", "ranking_id", "club", "user", "played_world_cup_2019")


class ClubForm(ServiceForm):
    members = forms.ModelMultipleChoiceField(
        queryset=get_user_model().objects.order_by("username"),
        required=False,
        widget=FilteredSelectMultiple("members", is_stacked=False),
        help_text="The members act for the club: they report and confirm its results.",
    )

    class Meta:
        model = Club
        fields = ["name", "country", "members"]

    def service_save(self) -> Club:
        data = self.cleaned_data
        club = Club.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
        if club is None:
            return club_create(
                name=data["name"], country=data.get("country", ""), members=data.get("members")
            )
        changes = self.changes(("name", "country"))
        club = club_update(club=club, **changes) if changes else club
        if "members" in self.changed_data:
            club_members_set(club=club, members=list(data.get("members") or []))
        return club


class CoachForm(ServiceForm):
    class Meta:
        model = Coach
        fields = list(COACH_FIELDS)

    def service_save(self) -> Coach:
        data = self.cleaned_data
        coach = Coach.objects.filter(pk=self.instance.pk).first() if self.instance.pk else None
        if coach is None:
            return coach_create(**{f: data[f] for f in COACH_FIELDS if f in data})
        return coach_update(coach=coach, **self.changes(COACH_FIELDS))


@admin.register(Club)
class ClubAdmin(ServiceAdmin):
    form = ClubForm
    list_display = ("name", "country", "member_count", "team_count")
    list_filter = ("country",)
    search_fields = ("name", "country", "members__username")

    def service_delete(self, obj: Club) -> None:
        club_delete(club=obj)

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
class CoachAdmin(ServiceAdmin):
    form = CoachForm
    list_display = ("name", "country", "ranking_id", "club", "played_world_cup_2019", "public_page")
    list_filter = ("played_world_cup_2019", "country", "club")
    search_fields = ("name", "ranking_id", "country", "club__name")
    list_select_related = ("club",)
    raw_id_fields = ("user",)
    autocomplete_fields = ("club",)

    def service_delete(self, obj: Coach) -> None:
        coach_delete(coach=obj)

    @admin.display(description="Page")
    def public_page(self, obj: Coach) -> str:
        return format_html('<a href="{}">view</a>', reverse("tournaments:coach", args=[obj.pk]))


class RecordAdmin(admin.ModelAdmin):
    """A record the services keep: shown and searched, never added, changed or deleted here."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Skill)
class SkillAdmin(RecordAdmin):
    """The A11 catalog of rulebook 3, loaded by a data migration (the rulebook's text, not settings)."""

    list_display = ("name", "position_group", "cp_cost", "counts_as_two", "restriction")
    list_filter = ("position_group", "counts_as_two", "restriction", "cp_cost")
    search_fields = ("name", "chapter_text", "restrictions_text")


@admin.register(Bye)
class ByeAdmin(RecordAdmin):
    """Given by Swiss pairing (tournaments.services.swiss_rounds)."""

    list_display = ("team", "stage", "round")
    list_filter = ("stage",)
    search_fields = ("team__name",)


@admin.register(SkillLoss)
class SkillLossAdmin(RecordAdmin):
    """Kept by the results (A13 skills lost and when they are back)."""

    list_display = ("team", "skill", "lost_in", "unavailable_for")
    list_filter = ("skill",)
    search_fields = ("team__name", "skill__name")
    raw_id_fields = ("team", "lost_in", "unavailable_for")


@admin.register(MatchSkill)
class MatchSkillAdmin(RecordAdmin):
    """The skills a team used in a match, recorded with its result."""

    list_display = ("fixture", "team", "skill")
    list_filter = ("skill",)
    search_fields = ("team__name", "skill__name")
    raw_id_fields = ("fixture", "team")


@admin.register(TeamSkill)
class TeamSkillAdmin(RecordAdmin):
    """A team's skills: its chosen roster is set on the team's page (by its service), gained ones by
    the results."""

    list_display = ("team", "skill", "source", "gained_in")
    list_filter = ("source", "skill__position_group", "team__competition")
    search_fields = ("team__name", "skill__name")
    list_select_related = ("team", "skill", "gained_in")
    raw_id_fields = ("team", "gained_in")


@admin.register(CompetitionRole)
class CompetitionRoleAdmin(RecordAdmin):
    """Given on the console's People page (tournaments.services.roles) and by invitations."""

    list_display = ("competition", "user", "kind", "added_by", "created_at")
    list_filter = ("kind",)
    search_fields = ("competition__name", "user__username")
    list_select_related = ("competition", "user", "added_by")


@admin.register(Invitation)
class InvitationAdmin(RecordAdmin):
    """Made by the invitation services; the token itself is never stored (its hash is not shown)."""

    list_display = ("competition", "club", "role", "username", "email", "created_at", "accepted_at")
    list_filter = ("role",)
    search_fields = ("competition__name", "club__name", "username", "email")
    exclude = ("token_hash",)
    list_select_related = ("competition", "club")


@admin.register(ClubApplication)
class ClubApplicationAdmin(RecordAdmin):
    """Asked for on a competition's sign-up page; decided on the console (tournaments.services.signups)."""

    list_display = ("competition", "team_name", "club_name", "applicant", "status", "created_at")
    list_filter = ("status",)
    search_fields = ("competition__name", "team_name", "club_name", "applicant__username")
    list_select_related = ("competition", "applicant")


@admin.register(RoundClock)
class RoundClockAdmin(RecordAdmin):
    """Set by the organiser's console or API (tournaments.services.venue.round_clock_set)."""

    list_display = ("stage", "round", "starts_at", "minutes", "set_by")
    list_filter = ("competition",)
    search_fields = ("stage__name", "competition__name")


@admin.register(CheckIn)
class CheckInAdmin(RecordAdmin):
    """A club's arrival at the venue (tournaments.services.venue.fixture_check_in)."""

    list_display = ("fixture", "team", "checked_in_by", "checked_in_by_role", "created_at")
    list_filter = ("fixture__competition",)
    search_fields = ("team__name", "checked_in_by__username")


@admin.register(StageChange)
class StageChangeAdmin(RecordAdmin):
    """The stage trail: a stage added, changed or deleted (tournaments.services.stages)."""

    list_display = ("changed_at", "competition", "stage_name", "action", "changed_by", "changed_by_role")
    list_filter = ("action", "competition")
    search_fields = ("stage_name", "changed_by__username")

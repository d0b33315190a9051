"""Admin for results: read-mostly views of results, submissions, logs and the audit trail.

Results are changed through the workflow services (the fixture admin's result actions, defined here
in `FixtureResultActions`: resolve a dispute, simulate a forfeit; the API's override), never by
editing rows, so every change lands in
the audit trail and standings, brackets and suspensions follow.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.html import format_html

from kernel.admin_actions import run_service
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from matches import forfeits
from matches import services as results
from matches.forms import add_card_rows, card_rows_initial, card_text, cards_from_rows
from matches.models import (
    Card,
    Forfeit,
    MatchLog,
    PointAdjustment,
    Result,
    ResultAudit,
    ResultSubmission,
)
from matches.standings.services import points_adjust
from tournaments.bracket import Score
from tournaments.models import Fixture


def _result_fields(d: dict[str, Any]) -> dict[str, Any]:
    """The score, shoot-out and cards of a staff result form, as the results services take them."""
    score = Score(
        d["home_goals"],
        d["away_goals"],
        extra_time=bool(d.get("extra_time")),
        home_penalties=d.get("home_penalties"),
        away_penalties=d.get("away_penalties"),
    )
    return {"score": score, "cards": d.get("cards", [])}


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

    # A read-only view: results change through the fixture's actions (resolve, correct, clear),
    # which call the services, so the audit trail, brackets and suspensions follow.
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

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
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
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


class PointAdjustmentForm(forms.ModelForm):
    class Meta:
        model = PointAdjustment
        fields = ["team", "points", "reason"]

    def clean_points(self) -> int:
        points = self.cleaned_data["points"]
        if not points or abs(points) > 99:
            raise forms.ValidationError("A whole number from -99 to 99 other than 0 (negative deducts).")
        return int(points)


@admin.register(PointAdjustment)
class PointAdjustmentAdmin(admin.ModelAdmin):
    """Adding one calls the service (staff check, reason); an adjustment is never edited afterwards."""

    form = PointAdjustmentForm
    list_display = ("team", "points", "reason", "competition", "created_by", "created_at")
    list_filter = ("competition",)
    search_fields = ("team__name", "reason")
    raw_id_fields = ("team",)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def save_model(self, request: HttpRequest, obj: PointAdjustment, form: Any, change: bool) -> None:
        created = points_adjust(
            team=obj.team, points=obj.points, reason=obj.reason, user=signed_in_user(request.user)
        )
        obj.pk = created.pk


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


class ResolveForm(forms.Form):
    """The score with the teams' names on its fields; cards picked by team, player and kind."""

    home_goals = forms.IntegerField(min_value=0, max_value=99)
    away_goals = forms.IntegerField(min_value=0, max_value=99)
    extra_time = forms.BooleanField(required=False, label="After extra time")
    home_penalties = forms.IntegerField(min_value=0, max_value=99, required=False)
    away_penalties = forms.IntegerField(min_value=0, max_value=99, required=False)
    note = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), required=False)

    def __init__(self, *args: Any, fixture: Fixture, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        home, away = str(fixture.home_team or "Home side"), str(fixture.away_team or "Away side")
        for side, name in (("home", home), ("away", away)):
            self.fields[f"{side}_goals"].label = f"{name} goals"
            self.fields[f"{side}_penalties"].label = f"{name} penalties (shoot-out)"
        self.card_rows = add_card_rows(self, fixture)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:
            # These cards replace the reported ones.
            data["cards"] = cards_from_rows(data, self.card_rows)
        except forms.ValidationError as exc:
            self.add_error(None, exc)
        return data


REOPEN_HELP = (
    "Also clear later fixtures that were played with the old outcome (a knockout slot it filled). "
    "Without it such a change is refused and the fixtures are listed."
)


class CorrectForm(ResolveForm):
    reopen = forms.BooleanField(required=False, help_text=REOPEN_HELP)

    def clean_note(self) -> str:
        note = (self.cleaned_data.get("note") or "").strip()
        if not note:
            raise forms.ValidationError("Say why the result is corrected (kept in the audit trail).")
        return note


class AwardForm(forms.Form):
    winner = forms.ChoiceField(
        choices=[("home", "Home side"), ("away", "Away side")], widget=forms.RadioSelect
    )
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), help_text="Why (kept in the audit trail)"
    )
    reopen = forms.BooleanField(required=False, help_text=REOPEN_HELP)


class ClearForm(forms.Form):
    note = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), help_text="Why (kept in the audit trail)"
    )
    reopen = forms.BooleanField(required=False, help_text=REOPEN_HELP)


class FixtureResultActions(admin.ModelAdmin):
    """The fixture admin's result desk: the result inlines, simulating a forfeit, resolving a dispute.

    `league.admin.FixtureAdmin` is built on it. A resolved dispute needs no cache call here:
    saving the fixture and its result invalidates the standings (the standings signals).
    """

    def get_inlines(self, request: HttpRequest, obj: Fixture | None) -> list[Any]:
        return [ResultInline, SubmissionInline, ForfeitInline, AuditInline] if obj is not None else []

    @admin.action(description="Simulate a forfeit now (rules engine, in a task)", permissions=["change"])
    def simulate_forfeit_now(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> None:
        def simulate(fixture: Fixture) -> str:
            forfeits.forfeit_simulate_now(fixture_id=fixture.pk, user=signed_in_user(request.user))
            return "simulation queued"

        run_service(self, request, queryset, simulate)

    @admin.action(description="Resolve the dispute…", permissions=["change"])
    def resolve_dispute(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> HttpResponse | None:
        disputed = list(queryset.filter(status=Fixture.Status.DISPUTED)[:2])
        if len(disputed) != 1:
            self.message_user(request, "Select exactly one disputed fixture to resolve.", messages.WARNING)
            return None
        return HttpResponseRedirect(reverse("admin:tournaments_fixture_resolve", args=[disputed[0].pk]))

    @admin.action(description="Correct the result… (override, cards too)")
    def correct_result(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> HttpResponse | None:
        return self._one(request, queryset, "admin:tournaments_fixture_correct")

    @admin.action(description="Award the match (no-show)…")
    def award_match(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> HttpResponse | None:
        return self._one(request, queryset, "admin:tournaments_fixture_award")

    @admin.action(description="Clear the result…")
    def clear_result(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> HttpResponse | None:
        return self._one(request, queryset, "admin:tournaments_fixture_clear")

    @admin.action(description="Void the match…")
    def void_match(self, request: HttpRequest, queryset: QuerySet[Fixture]) -> HttpResponse | None:
        return self._one(request, queryset, "admin:tournaments_fixture_void")

    def _one(self, request: HttpRequest, queryset: QuerySet[Fixture], url: str) -> HttpResponse | None:
        chosen = list(queryset[:2])
        if len(chosen) != 1:
            self.message_user(request, "Select exactly one fixture.", messages.WARNING)
            return None
        return HttpResponseRedirect(reverse(url, args=[chosen[0].pk]))

    def get_urls(self) -> list[Any]:
        custom = [
            path(
                "<int:fixture_id>/resolve/",
                self.admin_site.admin_view(self.resolve_view),
                name="tournaments_fixture_resolve",
            ),
            path(
                "<int:fixture_id>/correct/",
                self.admin_site.admin_view(self.correct_view),
                name="tournaments_fixture_correct",
            ),
            path(
                "<int:fixture_id>/award/",
                self.admin_site.admin_view(self.award_view),
                name="tournaments_fixture_award",
            ),
            path(
                "<int:fixture_id>/clear/",
                self.admin_site.admin_view(self.clear_view),
                name="tournaments_fixture_clear",
            ),
            path(
                "<int:fixture_id>/void/",
                self.admin_site.admin_view(self.void_view),
                name="tournaments_fixture_void",
            ),
        ]
        return custom + super().get_urls()

    def _desk(
        self, request: HttpRequest, fixture: Fixture, title: str, form: forms.Form, **extra: Any
    ) -> HttpResponse:
        context = {
            **self.admin_site.each_context(request),
            "title": f"{title} – {fixture}",
            "opts": self.model._meta,
            "fixture": fixture,
            "form": form,
            **extra,
        }
        return TemplateResponse(request, "admin/tournaments/fixture/result_desk.html", context)

    def correct_view(self, request: HttpRequest, fixture_id: int) -> HttpResponse:
        fixture = get_object_or_404(
            Fixture.objects.select_related("competition", "stage", "home_team", "away_team"), pk=fixture_id
        )
        if not self.has_change_permission(request, fixture):
            return HttpResponseRedirect(reverse("admin:index"))
        result = Result.objects.filter(fixture=fixture).prefetch_related("cards").first()
        initial: dict[str, Any] = {}
        if result is not None:
            initial = {
                "home_goals": result.home_goals,
                "away_goals": result.away_goals,
                "extra_time": result.extra_time,
                "home_penalties": result.home_penalties,
                "away_penalties": result.away_penalties,
                **card_rows_initial(
                    [
                        {
                            "team": "home" if c.team_id == fixture.home_team_id else "away",
                            "kind": c.kind,
                            "shirt_number": c.shirt_number,
                        }
                        for c in result.cards.all()
                    ]
                ),
            }
        form = CorrectForm(request.POST or None, initial=initial, fixture=fixture)
        if request.method == "POST" and form.is_valid():
            d = form.cleaned_data
            try:
                results.result_override(
                    fixture_id=fixture.pk,
                    user=signed_in_user(request.user),
                    **_result_fields(d),
                    note=d["note"],
                    reopen=bool(d.get("reopen")),
                )
            except ApplicationError as exc:
                form.add_error(None, exc.message)
            else:
                self.message_user(request, f"{fixture}: result corrected; standings, slots and bans follow.")
                return HttpResponseRedirect(reverse("admin:tournaments_fixture_change", args=[fixture.pk]))
        return self._desk(
            request, fixture, "Correct the result", form, result=result, button="Correct the result"
        )

    def award_view(self, request: HttpRequest, fixture_id: int) -> HttpResponse:
        fixture = get_object_or_404(
            Fixture.objects.select_related("competition", "stage", "home_team", "away_team"), pk=fixture_id
        )
        if not self.has_change_permission(request, fixture):
            return HttpResponseRedirect(reverse("admin:index"))
        form = AwardForm(request.POST or None)
        form.fields["winner"].choices = [  # type: ignore[attr-defined]
            ("home", f"{fixture.home_team or 'home side'} (home)"),
            ("away", f"{fixture.away_team or 'away side'} (away)"),
        ]
        if request.method == "POST" and form.is_valid():
            d = form.cleaned_data
            try:
                results.result_award(
                    fixture_id=fixture.pk,
                    user=signed_in_user(request.user),
                    team_id=fixture.home_team_id if d["winner"] == "home" else fixture.away_team_id,  # type: ignore[arg-type]
                    note=d["note"],
                    reopen=bool(d.get("reopen")),
                )
            except ApplicationError as exc:
                form.add_error(None, exc.message)
            else:
                self.message_user(request, f"{fixture}: match awarded with the competition's award score.")
                return HttpResponseRedirect(reverse("admin:tournaments_fixture_change", args=[fixture.pk]))
        result = Result.objects.filter(fixture=fixture).first()
        return self._desk(request, fixture, "Award the match", form, result=result, button="Award the match")

    def clear_view(self, request: HttpRequest, fixture_id: int) -> HttpResponse:
        return self._note_and_reopen_view(
            request,
            fixture_id,
            results.result_clear,
            "Clear the result",
            "result cleared, the fixture is scheduled again.",
        )

    def void_view(self, request: HttpRequest, fixture_id: int) -> HttpResponse:
        done = "the match is void and counts for nothing."
        return self._note_and_reopen_view(request, fixture_id, results.result_void, "Void the match", done)

    def _note_and_reopen_view(
        self,
        request: HttpRequest,
        fixture_id: int,
        service: Callable[..., list[dict[str, Any]]],
        title: str,
        done: str,
    ) -> HttpResponse:
        """Clearing and voiding take the same form (a note, reopen the later fixtures or not) and
        answer the same way: the fixtures reopened, or the service's refusal on the form."""
        fixture = get_object_or_404(
            Fixture.objects.select_related("competition", "stage", "home_team", "away_team"), pk=fixture_id
        )
        if not self.has_change_permission(request, fixture):
            return HttpResponseRedirect(reverse("admin:index"))
        result = Result.objects.filter(fixture=fixture).first()
        form = ClearForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                reopened = service(
                    fixture_id=fixture.pk,
                    user=signed_in_user(request.user),
                    note=form.cleaned_data["note"],
                    reopen=bool(form.cleaned_data.get("reopen")),
                )
            except ApplicationError as exc:
                form.add_error(None, exc.message)
            else:
                also = f" Reopened: {'; '.join(c['fixture'] for c in reopened)}." if reopened else ""
                self.message_user(request, f"{fixture}: {done}{also}")
                return HttpResponseRedirect(reverse("admin:tournaments_fixture_change", args=[fixture.pk]))
        return self._desk(request, fixture, title, form, result=result, button=title)

    def resolve_view(self, request: HttpRequest, fixture_id: int) -> HttpResponse:
        fixture = get_object_or_404(
            Fixture.objects.select_related("competition", "stage", "home_team", "away_team"), pk=fixture_id
        )
        if not self.has_change_permission(request, fixture):
            return HttpResponseRedirect(reverse("admin:index"))
        submission = (
            ResultSubmission.objects.filter(fixture=fixture, status=ResultSubmission.Status.DISPUTED)
            .select_related("team", "submitted_by", "disputed_by")
            .first()
        )
        initial: dict[str, Any] = {}
        if submission is not None:
            initial = {
                "home_goals": submission.home_goals,
                "away_goals": submission.away_goals,
                "extra_time": submission.extra_time,
                "home_penalties": submission.home_penalties,
                "away_penalties": submission.away_penalties,
                **card_rows_initial(submission.cards),
            }
        form = ResolveForm(request.POST or None, initial=initial, fixture=fixture)
        if request.method == "POST" and form.is_valid():
            d = form.cleaned_data
            try:
                results.result_resolve(
                    fixture_id=fixture.pk,
                    user=signed_in_user(request.user),
                    **_result_fields(d),
                    note=d.get("note") or "",
                )
            except ApplicationError as exc:
                form.add_error(None, exc.message)
            else:
                self.message_user(request, f"{fixture}: dispute resolved, the result now counts.")
                return HttpResponseRedirect(reverse("admin:tournaments_fixture_change", args=[fixture.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Resolve the dispute – {fixture}",
            "opts": self.model._meta,
            "fixture": fixture,
            "submission": submission,
            "disputed_cards": [
                card_text(fixture, submission.cards[i])
                for i in submission.disputed_cards
                if 0 <= i < len(submission.cards)
            ]
            if submission is not None
            else [],
            "form": form,
        }
        return TemplateResponse(request, "admin/tournaments/fixture/resolve.html", context)

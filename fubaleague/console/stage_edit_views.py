"""Console: one stage's settings changed, or the stage deleted, through the services the API calls
(tournaments.services.stages): what shapes the fixtures changes only before they exist, a stage
with a result or one that feeds another is not deleted, and every change goes on the competition's
stage trail with who made it. The trail and the refills of table places read here in words."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse

from fubaleague.console.access import competition_of, competition_required
from kernel.admin_actions import form_error
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from tournaments.models import Competition, Draw, Fixture, Stage, StageChange
from tournaments.services.stages import STAGE_RANGES, STAGE_WORDS, TABLE_KINDS, stage_delete, stage_update

# The settings each kind of stage reads (the service keeps the others at their defaults).
KIND_SETTINGS: dict[str, tuple[str, ...]] = {
    Stage.Kind.ROUND_ROBIN: ("legs",),
    Stage.Kind.GROUPS: ("legs", "advance_per_group", "best_thirds", "thirds_placing"),
    Stage.Kind.SWISS: ("swiss_rounds",),
    Stage.Kind.LEAGUE_PHASE: (),
    Stage.Kind.KNOCKOUT: (
        "legs",
        "knockout_rounds",
        "third_place_match",
        "extra_time",
        "penalties",
        "away_goals_rule",
        "feeder",
        "feed",
        "feed_places_from",
        "feed_places_to",
        "feed_playoff",
    ),
}
RELATED = ("feeder", "feed_playoff")
# The form's words (the model's field names read as codes: "Feed places from").
LABELS = {
    "name": "Name",
    "order": "Stage number",
    "legs": "Legs (1: single matches, 2: double or two-legged)",
    "knockout_rounds": "Rounds it plays",
    "third_place_match": "Third-place match",
    "extra_time": "Extra time in a level knockout match",
    "penalties": "Then a penalty shoot-out",
    "away_goals_rule": "Away goals decide a level two-legged tie",
    "feeder": "Plays the qualifiers of",
    "feed": "It takes",
    "feed_places_from": "From place",
    "feed_places_to": "To place",
    "feed_playoff": "Plus the winners of the play-off",
    "advance_per_group": "Go through per group",
    "best_thirds": "Plus best third-placed teams",
    "thirds_placing": "Placing of the best thirds",
    "swiss_rounds": "Swiss rounds",
}


class StageEditForm(forms.Form):
    """The stage's own settings, typed as the model's, numbers within the service's STAGE_RANGES."""

    def __init__(self, data: Any = None, *, stage: Stage) -> None:
        names = ("name", "order", *KIND_SETTINGS[stage.kind])
        initial = {f: getattr(stage, f"{f}_id" if f in RELATED else f) for f in names}
        super().__init__(data, initial=initial)
        for name, field in forms.fields_for_model(Stage, fields=names).items():
            if name in STAGE_RANGES:
                low, high = STAGE_RANGES[name]
                field = forms.IntegerField(
                    min_value=low,
                    max_value=high,
                    required=field.required,
                    label=field.label,
                    help_text=field.help_text,
                )
            field.label = LABELS[name]
            if isinstance(field, forms.ModelChoiceField):
                field.label_from_instance = lambda s: s.name  # type: ignore[method-assign,assignment]
            self.fields[name] = field
        others = stage.competition.stages.exclude(pk=stage.pk).order_by("order")
        if "feeder" in self.fields:
            self.fields["feeder"].queryset = others  # type: ignore[attr-defined]
        if "feed_playoff" in self.fields:
            self.fields["feed_playoff"].queryset = others.filter(  # type: ignore[attr-defined]
                kind=Stage.Kind.KNOCKOUT, feed_places_from__isnull=False
            )
        if "feeder" in self.fields and (stage.feeder is None or stage.feeder.kind not in TABLE_KINDS):
            # The places belong to a knockout after a table; the service refuses them elsewhere.
            self.fields["feed_places_from"].help_text = "Only after a league, Swiss rounds or a league phase"

    def changes(self) -> dict[str, Any]:
        return {f: self.cleaned_data[f] for f in self.changed_data if f in self.cleaned_data}


@competition_required("setup")
def stage_edit(request: HttpRequest, slug: str, stage_id: int) -> HttpResponse:
    competition = competition_of(slug)
    stage = get_object_or_404(Stage.objects.select_related("feeder"), pk=stage_id, competition=competition)
    user = signed_in_user(request.user)
    delete_error = ""
    if request.method == "POST" and "delete" in request.POST:
        try:
            stage_delete(stage=stage, user=user)
        except ApplicationError as exc:
            delete_error = exc.message
        else:
            messages.success(request, f"{stage.name} deleted.")
            return redirect("console:stages", slug=slug)
    form = StageEditForm(request.POST if "save" in request.POST else None, stage=stage)
    if request.method == "POST" and "save" in request.POST and form.is_valid():
        try:
            stage_update(stage=stage, user=user, **form.changes())
        except ApplicationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, f"{form.cleaned_data['name']} saved.")
            return redirect("console:stages", slug=slug)
    played = stage.fixtures.exclude(status=Fixture.Status.SCHEDULED).count()
    context = {
        "competition": competition,
        "stage": stage,
        "form": form,
        "delete_error": delete_error,
        "played": played,
        "fixtures": stage.fixtures.count(),
        "trail": stage_trail(competition, stage=stage),
    }
    return TemplateResponse(request, "console/stage.html", context)


def _value(field: str, value: Any, names: dict[int, str]) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if field in RELATED:
        return names.get(value, f"stage {value}")
    if field == "teams":
        return f"{len(value)} teams"
    return str(value)


def _label(field: str) -> str:
    if field in STAGE_WORDS:
        return STAGE_WORDS[field].removeprefix("The ").split(" (")[0]
    if field == "kind":
        return "kind"
    return str(getattr(Stage._meta.get_field(field), "verbose_name", field))


def stage_trail(competition: Competition, *, stage: Stage | None = None, limit: int = 30) -> list[str]:
    """The stage trail in words, latest first: "29 Nov 2026 05:40 · olga (organiser) changed
    Knockout: legs 1 → 2"."""
    names = dict(competition.stages.values_list("id", "name"))
    rows = competition.stage_changes.select_related("changed_by")
    if stage is not None:
        rows = rows.filter(stage=stage)
    out = []
    for row in rows.order_by("-changed_at", "-id")[:limit]:
        who = row.changed_by.username if row.changed_by else "the system"
        role = f" ({row.changed_by_role})" if row.changed_by and row.changed_by_role else ""
        verb = {"added": "added", "changed": "changed", "deleted": "deleted"}[row.action]
        what = ""
        if row.action == StageChange.Action.CHANGED:
            what = ": " + "; ".join(
                f"{_label(f)} {_value(f, a, names)} → {_value(f, b, names)}"
                for f, (a, b) in row.changes.items()
            )
        out.append(f"{row.changed_at:%d %b %Y %H:%M} · {who}{role} {verb} {row.stage_name}{what}")
    return out


def refill_trail(stages: list[Stage]) -> list[str]:
    """The refills of table places (a correction moved a team across a slot), latest first."""
    teams: dict[int, str] = {}
    out = []
    draws = Draw.objects.filter(stage__in=stages, kind=Draw.Kind.TABLE_PLACES, result__has_key="refill")
    for draw in draws.select_related("stage", "drawn_by").order_by("-drawn_at", "-id"):
        if not teams:
            teams = dict(draw.stage.competition.teams.values_list("id", "name"))
        who = draw.drawn_by.username if draw.drawn_by else "the system"
        role = f" ({draw.drawn_by_role})" if draw.drawn_by and draw.drawn_by_role else ""
        moved = "; ".join(
            f"place {c['place']}: {teams.get(c['before'], '–')} → {teams.get(c['after'], '–')}"
            for c in draw.result["refill"]
        )
        out.append(
            f"{draw.drawn_at:%d %b %Y %H:%M} · {who}{role} · {draw.stage.name} refilled after "
            f"{draw.result.get('cause', 'a correction')}: {moved}"
        )
    return out

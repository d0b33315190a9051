"""Console: a competition's rules of play — points for a win, draw and loss; the tie-break order,
a preset or a custom order built from the criteria by name (moved up and down with buttons, so it
works on a phone without dragging); away goals per two-legged knockout stage; points deducted or
added with the reason, each naming who did it and their role. Each is saved by the
service the API calls, so both refuse the same settings with the same words."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse

from fubaleague.console.access import competition_of, competition_required
from kernel.admin_actions import form_error
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from matches.models import PointAdjustment
from matches.standings.services import points_adjust
from tournaments.models import Competition, Stage, Team, TiebreakPreset
from tournaments.services.competitions import (
    SETTING_RANGES,
    SETTING_WORDS,
    competition_tiebreak_set,
    competition_update,
)
from tournaments.services.stages import stage_update
from tournaments.standings.criteria import CRITERIA, PRESETS


def _setting_field(name: str) -> forms.IntegerField:
    low, high = SETTING_RANGES[name]
    return forms.IntegerField(min_value=low, max_value=high, label=SETTING_WORDS[name])


class PointsForm(forms.Form):
    points_win = _setting_field("points_win")
    points_draw = _setting_field("points_draw")
    points_loss = _setting_field("points_loss")


class AdjustmentForm(forms.Form):
    team = forms.ModelChoiceField(queryset=Team.objects.none(), label="Team")
    points = forms.IntegerField(
        min_value=-99, max_value=99, label="Points", help_text="−3 deducts three points; 2 adds two."
    )
    reason = forms.CharField(max_length=300, label="Why (shown with the standings)")


class TiebreakForm(forms.Form):
    tiebreak_preset = forms.ChoiceField(choices=TiebreakPreset.choices, label="Tie-break rules")
    # The custom order as criteria names, comma-separated; the page shows it as a list in words.
    tiebreak_order = forms.CharField(required=False, widget=forms.HiddenInput)
    add = forms.ChoiceField(required=False, label="Add a criterion")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["add"].choices = [("", "—"), *((k, c.label) for k, c in CRITERIA.items())]  # type: ignore[attr-defined]

    def order(self) -> list[str]:
        text = self.cleaned_data.get("tiebreak_order") or ""
        return [c.strip() for c in text.split(",") if c.strip()]


def reordered(order: list[str], move: str, added: str) -> list[str]:
    """The order after one button: "up:3", "down:0", "drop:2" or "add" (the criterion chosen)."""
    order = list(order)
    verb, _sep, where = move.partition(":")
    if verb == "add":
        return [*order, added] if added and added not in order else order
    if not where.isdigit() or int(where) >= len(order):
        return order
    i = int(where)
    if verb == "drop":
        del order[i]
    elif verb == "up" and i > 0:
        order[i - 1], order[i] = order[i], order[i - 1]
    elif verb == "down" and i < len(order) - 1:
        order[i + 1], order[i] = order[i], order[i + 1]
    return order


def _tiebreak(request: HttpRequest, competition: Competition) -> tuple[TiebreakForm, bool]:
    """The tie-break form after a button (not saved) or a save (True when saved)."""
    initial_order = competition.tiebreak_order or list(PRESETS.get(competition.tiebreak_preset, ("points",)))
    initial = {"tiebreak_preset": competition.tiebreak_preset, "tiebreak_order": ",".join(initial_order)}
    if request.method != "POST" or not ({"tb", "save_tiebreak"} & set(request.POST)):
        return TiebreakForm(initial=initial), False
    form = TiebreakForm(request.POST)
    if not form.is_valid():
        return form, False
    order = form.order()
    if "tb" in request.POST:
        order = reordered(order, request.POST["tb"], form.cleaned_data.get("add") or "")
        data = request.POST.copy()
        data["tiebreak_order"] = ",".join(order)
        data["tiebreak_preset"] = TiebreakPreset.CUSTOM  # building an order is choosing a custom one
        data["add"] = ""
        form = TiebreakForm(data)
        form.is_valid()
        return form, False
    preset = form.cleaned_data["tiebreak_preset"]
    try:
        competition_tiebreak_set(
            competition=competition, preset=preset, order=order if preset == TiebreakPreset.CUSTOM else []
        )
    except ApplicationError as exc:
        form_error(form, exc)
        return form, False
    return form, True


def _points(request: HttpRequest, competition: Competition) -> tuple[PointsForm, bool]:
    initial = {f: getattr(competition, f) for f in ("points_win", "points_draw", "points_loss")}
    if request.method != "POST" or "save_points" not in request.POST:
        return PointsForm(initial=initial), False
    form = PointsForm(request.POST)
    if not form.is_valid():
        return form, False
    try:
        competition_update(competition=competition, **form.cleaned_data)
    except ApplicationError as exc:
        form_error(form, exc)
        return form, False
    return form, True


def _away_goals(request: HttpRequest, stages: list[Stage]) -> str | None:
    """Save each two-legged stage's away-goals box; the refusal's words, if any."""
    chosen = set(request.POST.getlist("away_goals"))
    try:
        for stage in stages:
            wanted = str(stage.pk) in chosen
            if wanted != stage.away_goals_rule:
                stage_update(stage=stage, away_goals_rule=wanted, user=signed_in_user(request.user))
    except ApplicationError as exc:
        return exc.message
    return None


def _adjustment(request: HttpRequest, competition: Competition) -> tuple[AdjustmentForm, bool]:
    form = AdjustmentForm(request.POST if "save_adjustment" in request.POST else None)
    form.fields["team"].queryset = competition.teams.order_by("name")  # type: ignore[attr-defined]
    if not form.is_bound or not form.is_valid():
        return form, False
    try:
        points_adjust(
            team=form.cleaned_data["team"],
            points=form.cleaned_data["points"],
            reason=form.cleaned_data["reason"],
            user=signed_in_user(request.user),
        )
    except ApplicationError as exc:
        form_error(form, exc)
        return form, False
    return form, True


@competition_required("setup")
def rules(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    two_legged = list(competition.stages.filter(kind=Stage.Kind.KNOCKOUT, legs=2).order_by("order"))
    points, points_saved = _points(request, competition)
    tiebreak, tiebreak_saved = _tiebreak(request, competition)
    adjustment, adjusted = _adjustment(request, competition)
    if adjusted:
        messages.success(request, "Points adjusted: every table of the competition shows it.")
        return redirect("console:rules", slug=slug)
    away_error = None
    if request.method == "POST" and "save_away_goals" in request.POST:
        away_error = _away_goals(request, two_legged)
        if away_error is None:
            messages.success(request, "Away goals saved.")
            return redirect("console:rules", slug=slug)
    if points_saved or tiebreak_saved:
        messages.success(request, "Points saved." if points_saved else "Tie-break rules saved.")
        return redirect("console:rules", slug=slug)
    order = tiebreak.order() if tiebreak.is_bound and tiebreak.is_valid() else []
    if not tiebreak.is_bound:
        order = [c for c in str(tiebreak.initial["tiebreak_order"]).split(",") if c]
    context = {
        "competition": competition,
        "points": points,
        "tiebreak": tiebreak,
        "order": [(i, key, CRITERIA[key].label if key in CRITERIA else key) for i, key in enumerate(order)],
        "two_legged": two_legged,
        "away_error": away_error,
        "adjustment": adjustment,
        "adjustments": PointAdjustment.objects.filter(competition=competition)
        .select_related("team", "created_by")
        .order_by("created_at", "id"),
    }
    return TemplateResponse(request, "console/rules.html", context)

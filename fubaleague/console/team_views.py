"""Console: one team changed (name, country, confederation, seed, formation) or removed, through
the services the API calls: a team in generated fixtures is not removed (withdraw it instead),
and a team's fields are checked as on any other writer."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse

from fubaleague.console.access import competition_of, competition_required
from kernel.admin_actions import form_error
from kernel.errors import ApplicationError
from tournaments.models import Team
from tournaments.services.clubs import team_delete, team_update

FIELDS = ("name", "country", "confederation", "seed", "default_formation")


class TeamForm(forms.Form):
    name = forms.CharField(max_length=100)
    country = forms.CharField(max_length=60, required=False)
    confederation = forms.CharField(max_length=20, required=False)
    seed = forms.IntegerField(required=False, min_value=0, label="Seed (lower is stronger)")
    default_formation = forms.CharField(max_length=20, label="Formation", help_text="For example 4-4-2")


@competition_required("setup")
def team_edit(request: HttpRequest, slug: str, team_id: int) -> HttpResponse:
    competition = competition_of(slug)
    team = get_object_or_404(Team, pk=team_id, competition=competition)
    if request.method == "POST" and "remove" in request.POST:
        try:
            team_delete(team=team)
        except ApplicationError as exc:
            messages.error(request, exc.message)
            return redirect("console:team", slug=slug, team_id=team.pk)
        messages.success(request, f"{team.name} removed.")
        return redirect("console:teams", slug=slug)
    initial: dict[str, Any] = {f: getattr(team, f) for f in FIELDS}
    form = TeamForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        changes = {f: v for f, v in form.cleaned_data.items() if v != initial[f]}
        try:
            team_update(team=team, **changes)
        except ApplicationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, f"{form.cleaned_data['name']} saved.")
            return redirect("console:teams", slug=slug)
    context = {"competition": competition, "team": team, "form": form, "in_fixtures": team_in_fixtures(team)}
    return TemplateResponse(request, "console/team.html", context)


def team_in_fixtures(team: Team) -> bool:
    return team.home_fixtures.exists() or team.away_fixtures.exists()

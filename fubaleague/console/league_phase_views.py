"""Console: the league phase draw (pots by seeding order or by hand, opponents, country cap, seed)
and its result, each team's opponents per pot. The service is tournaments.services.league_phase."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse

from kernel.admin_actions import form_error
from kernel.errors import ApplicationError
from tournaments.models import Competition, Draw, Stage, Team
from tournaments.services.league_phase import league_phase_draw, seeding_pots
from tournaments.services.shared import any_played


class LeaguePhaseForm(forms.Form):
    opponents = forms.IntegerField(
        min_value=2, max_value=20, initial=8, help_text="Two from each pot, one at home, one away"
    )
    country_cap = forms.IntegerField(
        min_value=1, max_value=20, initial=2, label="At most opponents of one country"
    )
    seed = forms.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, help_text="Repeat a draw; random if empty"
    )
    pots_by = forms.ChoiceField(
        choices=[("seeding", "Pots by seeding order"), ("hand", "Pots as placed below")],
        initial="seeding",
        widget=forms.RadioSelect,
        label="Pots",
    )

    def __init__(self, *args: Any, teams: list[Team], pot_count: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.teams = teams
        for team in teams:
            self.fields[f"pot_{team.pk}"] = forms.TypedChoiceField(
                coerce=int,
                choices=[(p, f"Pot {p}") for p in range(1, max(pot_count, 1) + 1)],
                label=f"{team.name}: pot",
                required=False,
            )

    def pot_rows(self) -> list[tuple[Team, forms.BoundField]]:
        return [(t, self[f"pot_{t.pk}"]) for t in self.teams]

    def pots(self) -> list[list[Team]] | None:
        """None: by seeding order (the service's); else the teams as placed, pot 1 first."""
        if self.cleaned_data["pots_by"] != "hand":
            return None
        count = self.cleaned_data["opponents"] // 2
        pots: list[list[Team]] = [[] for _ in range(count)]
        for team in self.teams:
            number = self.cleaned_data.get(f"pot_{team.pk}") or 1
            if number > count:
                raise ApplicationError(
                    f"{team.name} is in pot {number}; {self.cleaned_data['opponents']} opponents make "
                    f"{count} pots.",
                    details={"field": f"pot_{team.pk}"},
                )
            pots[number - 1].append(team)
        return pots


def _pot_count(request: HttpRequest) -> int:
    try:
        return max(1, int(request.POST.get("opponents", 8)) // 2)
    except ValueError:
        return 4


def opponents_by_pot(draw: Draw, names: dict[int, str]) -> list[dict[str, Any]]:
    """Per team (pot order): its pot and, per pot, the opponent at home and the one away."""
    pot_of = {t: p for p, pot in enumerate(draw.pots) for t in pot}
    rows = []
    for p, pot in enumerate(draw.pots):
        for team in pot:
            cells: list[dict[str, str]] = [{"home": "", "away": ""} for _ in draw.pots]
            for home, away, day in draw.result["matches"]:
                if team == home:
                    cells[pot_of[away]]["home"] = f"{names.get(away, '?')} (MD {day})"
                elif team == away:
                    cells[pot_of[home]]["away"] = f"{names.get(home, '?')} (MD {day})"
            rows.append({"team": names.get(team, "?"), "pot": p + 1, "cells": cells})
    return rows


def league_phase_page(request: HttpRequest, competition: Competition, stage: Stage) -> HttpResponse:
    teams = [t for pot in seeding_pots(list(stage.teams.all()), 1) for t in pot]
    initial = {f"pot_{t.pk}": 1 + i * 4 // max(len(teams), 1) for i, t in enumerate(teams)}
    form = LeaguePhaseForm(request.POST or None, teams=teams, pot_count=_pot_count(request), initial=initial)
    played = any_played(stage.fixtures.all())
    if request.method == "POST" and not played and form.is_valid():
        d = form.cleaned_data
        try:
            done = league_phase_draw(
                stage=stage,
                pots=form.pots(),
                opponents=d["opponents"],
                country_cap=d["country_cap"],
                seed=d.get("seed"),
                user=request.user,
            )
        except ApplicationError as exc:
            form_error(form, exc)
        else:
            messages.success(
                request,
                f"Drawn with seed {done.seed}: {len(done.result['matches'])} matches over "
                f"{done.result['matchdays']} matchdays. Give the seed again to repeat this draw.",
            )
            return redirect("console:draw", slug=competition.slug)
    latest = stage.draws.filter(kind=Draw.Kind.LEAGUE_PHASE).order_by("-drawn_at", "-id").first()
    names = dict(competition.teams.values_list("id", "name"))
    context = {
        "competition": competition,
        "stage": stage,
        "form": form,
        "latest": latest,
        "rows": opponents_by_pot(latest, names) if latest else [],
        "pot_numbers": range(1, len(latest.pots) + 1) if latest else [],
        "played": played,
        # What "by seeding order" gives for the opponents asked (the form's, else 8).
        "seeded_pots": seeding_pots(teams, _pot_count(request))
        if len(teams) % _pot_count(request) == 0
        else [],
    }
    return TemplateResponse(request, "console/league_phase_draw.html", context)

"""Console: the stages in order (each opens to be changed or deleted: stage_edit_views), a knockout
added after a league, Swiss rounds or a league phase (the places it takes, the play-off whose
winners join it), and the knockouts made from the final table once it is final, with the stage
trail and the refills of table places. Everything goes through the services the API calls."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse

from fubaleague.console.access import competition_of, competition_required
from fubaleague.console.stage_edit_views import refill_trail, stage_trail
from kernel.admin_actions import form_error
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from matches.table_fill import table_fed_stages, table_fill_waiting, table_places_fill
from tournaments.models import Competition, Stage
from tournaments.services.stages import STAGE_RANGES, TABLE_KINDS, stage_create
from tournaments.table_feed import ordinal


class KnockoutForm(forms.Form):
    name = forms.CharField(max_length=80, initial="Knockout")
    legs = forms.TypedChoiceField(coerce=int, choices=[(1, "One match"), (2, "Two legs")], label="Ties")
    knockout_rounds = forms.IntegerField(
        min_value=STAGE_RANGES["knockout_rounds"][0],
        max_value=STAGE_RANGES["knockout_rounds"][1],
        initial=0,
        label="Rounds it plays",
        help_text="0: down to the final; 1 for a play-off",
    )
    feeder = forms.ModelChoiceField(queryset=Stage.objects.none(), label="After the table of")
    feed_places_from = forms.IntegerField(
        min_value=STAGE_RANGES["feed_places_from"][0],
        max_value=STAGE_RANGES["feed_places_from"][1],
        label="From place",
    )
    feed_places_to = forms.IntegerField(
        min_value=STAGE_RANGES["feed_places_to"][0],
        max_value=STAGE_RANGES["feed_places_to"][1],
        label="To place",
    )
    feed_playoff = forms.ModelChoiceField(
        queryset=Stage.objects.none(),
        required=False,
        label="Plus the winners of the play-off",
        help_text="A one-round knockout of the places just below, made first",
    )
    third_place_match = forms.BooleanField(required=False, label="Third-place match")

    def __init__(self, *args: Any, competition: Competition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stages = competition.stages.order_by("order")
        self.fields["feeder"].queryset = stages.filter(kind__in=TABLE_KINDS)  # type: ignore[attr-defined]
        self.fields["feed_playoff"].queryset = stages.filter(  # type: ignore[attr-defined]
            kind=Stage.Kind.KNOCKOUT, feed_places_from__isnull=False
        )


def _side(team: Any, placeholder: str, source: Any, ties: dict[int, str]) -> str:
    """A team made from a table with its place ("Club 12 (24th)"); a play-off winner by the
    places of its tie ("Winner 16th/17th"); else the slot's words."""
    if team is None:
        match = source.get("match") if isinstance(source, dict) and source.get("type") == "winner" else None
        return f"Winner {ties[match]}" if match in ties else placeholder
    place = placeholder.split(",")[0]
    return f"{team.name} ({place})" if place else team.name


def _first_rounds(fed: list[Stage]) -> list[tuple[Stage, list[str]]]:
    out: list[tuple[Stage, list[str]]] = []
    ties: dict[int, str] = {}
    for stage in fed:  # each play-off before the stage its winners join
        legs = list(
            stage.fixtures.filter(round=1, leg=1)
            .select_related("home_team", "away_team")
            .order_by("match_number")
        )
        for f in legs:
            sources = [
                s for s in (f.home_source, f.away_source) if isinstance(s, dict) and s.get("type") == "place"
            ]
            if f.match_number is not None and len(sources) == 2:
                ties[f.match_number] = "/".join(ordinal(p) for p in sorted(int(s["place"]) for s in sources))
        rows = [
            f"{_side(f.home_team, f.home_placeholder, f.home_source, ties)} v "
            f"{_side(f.away_team, f.away_placeholder, f.away_source, ties)}"
            for f in legs
        ]
        out.append((stage, rows))
    return out


def _tables(competition: Competition) -> list[dict[str, Any]]:
    """Each table that feeds knockouts by places: the stages, and whether they can be made."""
    out = []
    for table in competition.stages.filter(kind__in=TABLE_KINDS).order_by("order"):
        fed = table_fed_stages(feeder=table)
        if fed:
            out.append(
                {
                    "table": table,
                    "fed": fed,
                    "rounds": _first_rounds(fed),
                    "made": all(s.fixtures.exists() for s in fed),
                    "waiting": table_fill_waiting(feeder=table),
                }
            )
    return out


@competition_required("setup")
def stages(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    form = KnockoutForm(request.POST if "add" in request.POST else None, competition=competition)
    fill_error = ""
    if request.method == "POST" and "fill" in request.POST:
        table = get_object_or_404(Stage, pk=request.POST.get("fill"), competition=competition)
        try:
            made = table_places_fill(feeder=table, user=signed_in_user(request.user))
        except ApplicationError as exc:
            fill_error = exc.message
        else:
            names = sorted({f.stage.name for f in made})
            messages.success(
                request,
                f"{len(made)} fixtures made from the final table of {table.name}: {', '.join(names)}.",
            )
            return redirect("console:stages", slug=slug)
    if request.method == "POST" and "add" in request.POST and form.is_valid():
        try:
            stage = stage_create(
                competition=competition,
                kind=Stage.Kind.KNOCKOUT,
                user=signed_in_user(request.user),
                **form.cleaned_data,
            )
        except ApplicationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, f"{stage.name} added.")
            return redirect("console:stages", slug=slug)
    context = {
        "competition": competition,
        "stages": competition.stages.order_by("order").select_related("feeder", "feed_playoff"),
        "tables": _tables(competition),
        "form": form,
        "fill_error": fill_error,
        "trail": stage_trail(competition, limit=10),
        "refills": refill_trail(list(competition.stages.filter(feed_places_from__isnull=False))),
    }
    return TemplateResponse(request, "console/stages.html", context)

"""Console: venue rounds (docs/venue.md). The organisers give a round its start time and length
(the countdown of the big screen and the scorer) and number its tables; everyone who runs the
competition sees which clubs have not checked in, each with a link to the results desk, where
the organiser decides as for any no-show ("Award the match")."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils import timezone

from fubaleague.console.access import REFUSALS, competition_of, competition_required, permits
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from tournaments.models import Competition, Stage
from tournaments.selectors import venue_rounds
from tournaments.services.venue import (
    MAX_ROUND_MINUTES,
    MAX_TABLE,
    round_clock_clear,
    round_clock_set,
    round_tables_number,
)


class RoundForm(forms.Form):
    stage = forms.ModelChoiceField(queryset=Stage.objects.none())
    round = forms.IntegerField(min_value=1, max_value=999)

    def __init__(self, *args: Any, competition: Competition, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["stage"].queryset = competition.stages.order_by("order")  # type: ignore[attr-defined]


class ClockForm(RoundForm):
    starts_at = forms.DateTimeField(
        label="Starts at",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text="The venue's time (the server's time zone).",
    )
    minutes = forms.IntegerField(min_value=1, max_value=MAX_ROUND_MINUTES, label="Length (minutes)")


class TablesForm(RoundForm):
    first = forms.IntegerField(min_value=1, max_value=MAX_TABLE, initial=1, label="First table")


class ClearForm(RoundForm):
    pass


def _act(request: HttpRequest, competition: Competition) -> str:
    """Run the posted form's service; the success message, or raise ApplicationError."""
    post = request.POST
    if "clock" in post:
        form: RoundForm = ClockForm(post, competition=competition)
    elif "tables" in post:
        form = TablesForm(post, competition=competition)
    else:
        form = ClearForm(post, competition=competition)
    if not form.is_valid():
        raise ApplicationError(
            "; ".join(f"{name}: {' '.join(map(str, errs))}" for name, errs in form.errors.items())
        )
    d = form.cleaned_data
    if "clock" in post:
        starts = d["starts_at"]
        clock = round_clock_set(
            stage=d["stage"],
            round=d["round"],
            starts_at=starts if timezone.is_aware(starts) else timezone.make_aware(starts),
            minutes=d["minutes"],
            user=signed_in_user(request.user),
        )
        return (
            f"{clock.stage.name}, round {clock.round} starts {timezone.localtime(clock.starts_at):%a %H:%M}."
        )
    if "tables" in post:
        moved = round_tables_number(stage=d["stage"], round=d["round"], first=d["first"])
        return f"{len(moved)} fixtures given a table."
    round_clock_clear(stage=d["stage"], round=d["round"])
    return f"{d['stage'].name}, round {d['round']} has no start time any more."


@competition_required("view")
def venue(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    may_setup = permits(request, competition, "setup")
    if request.method == "POST":
        if not may_setup:
            raise PermissionDenied(REFUSALS["setup"].format(c=competition))
        try:
            messages.success(request, _act(request, competition))
        except ApplicationError as exc:
            messages.error(request, exc.message)
        return redirect("console:venue", slug=slug)
    context = {
        "competition": competition,
        "may_setup": may_setup,
        "clock_form": ClockForm(competition=competition),
        "tables_form": TablesForm(competition=competition),
        "rounds": venue_rounds(competition=competition),
        "now": timezone.now(),
    }
    return TemplateResponse(request, "console/venue.html", context)

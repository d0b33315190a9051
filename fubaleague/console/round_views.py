"""Console: a round's results in one screen, one save.

A row per fixture, typed from field to field with the keyboard; each row is checked by the same
service call a single result makes (matches.services.result_override), in the round's order, so a
second leg sees its first. One row refused and nothing is saved: every row keeps what was typed
and the refused ones say why."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from fubaleague.console.access import competition_of, competition_required
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from matches import services as results
from matches.knockout import decider_fields
from tournaments.bracket import Score
from tournaments.models import Competition, Fixture, Stage

NOTE = "Entered at the results desk (a round in one screen)"


class RowForm(forms.Form):
    """One fixture's row: its goals, and extra time and a shoot-out only where it can have them."""

    home_goals = forms.IntegerField(min_value=0, max_value=99, required=False)
    away_goals = forms.IntegerField(min_value=0, max_value=99, required=False)
    extra_time = forms.BooleanField(required=False, label="a.e.t.")
    home_penalties = forms.IntegerField(min_value=0, max_value=99, required=False)
    away_penalties = forms.IntegerField(min_value=0, max_value=99, required=False)

    def __init__(self, *args: Any, fixture: Fixture, **kwargs: Any) -> None:
        kwargs["prefix"] = f"f{fixture.pk}"
        super().__init__(*args, **kwargs)
        self.fixture = fixture
        home, away = str(fixture.home_team), str(fixture.away_team)
        extra_time, shootout = decider_fields(fixture)
        if not extra_time:
            del self.fields["extra_time"]
        if not shootout:
            del self.fields["home_penalties"], self.fields["away_penalties"]
        words = {
            "home_goals": f"{home} goals",
            "away_goals": f"{away} goals",
            "extra_time": f"{home} v {away} after extra time",
            "home_penalties": f"{home} penalties",
            "away_penalties": f"{away} penalties",
        }
        for name, field in self.fields.items():
            field.widget.attrs["aria-label"] = words[name]
            if isinstance(field, forms.IntegerField):
                field.widget.attrs |= {"inputmode": "numeric", "class": "goals"}

    def score(self) -> Score | None:
        """The typed score; None when the row was left empty (not played yet)."""
        d = self.cleaned_data
        typed = [d.get(k) for k in ("home_goals", "away_goals", "home_penalties", "away_penalties")]
        if all(v is None for v in typed) and not d.get("extra_time"):
            return None
        if d.get("home_goals") is None or d.get("away_goals") is None:
            raise ApplicationError(f"{self.fixture}: give both teams' goals, or leave the row empty.")
        return form_score(d)


def form_score(d: Mapping[str, Any]) -> Score:
    """The score a result form's cleaned data gives (goals, extra time, the shoot-out)."""
    return Score(
        d["home_goals"],
        d["away_goals"],
        extra_time=bool(d.get("extra_time")),
        home_penalties=d.get("home_penalties"),
        away_penalties=d.get("away_penalties"),
    )


def round_save(*, rows: list[RowForm], user: Any) -> tuple[int, dict[int, str]]:
    """The typed rows through results_round_enter (all or nothing): (results saved, {fixture id:
    why refused}). A row with one side's goals only is refused here, before any is saved."""
    errors: dict[int, str] = {}
    scores: list[tuple[int, Score]] = []
    for row in rows:
        try:
            score = row.score()
        except ApplicationError as exc:
            errors[row.fixture.pk] = exc.message
            continue
        if score is not None:
            scores.append((row.fixture.pk, score))
    if errors:
        return 0, errors
    try:
        return results.results_round_enter(scores=scores, user=user, note=NOTE), {}
    except ApplicationError as exc:
        if "refused" not in exc.details:
            raise
        return 0, dict(exc.details["refused"])


def _rounds(competition: Competition) -> list[tuple[Stage, int, str]]:
    """Every (stage, round, name) with fixtures, in playing order."""
    seen: dict[tuple[int, int], tuple[Stage, int, str]] = {}
    fixtures = Fixture.objects.filter(competition=competition).select_related("stage")
    for f in fixtures.order_by("stage__order", "round", "match_number", "leg"):
        name = f.round_name or f"Round {f.round}"
        seen.setdefault((f.stage_id, f.round), (f.stage, f.round, f"{f.stage.name} · {name}"))
    return list(seen.values())


def round_choices(competition: Competition) -> list[tuple[str, str]]:
    """The rounds as choices "stage:round" for a filter or a picker."""
    return [(f"{stage.pk}:{rnd}", name) for stage, rnd, name in _rounds(competition)]


def _chosen(
    request: HttpRequest, competition: Competition, rounds: list[tuple[Stage, int, str]]
) -> tuple[Stage, int] | None:
    """The round asked for, else the first with a match still to enter."""
    pick = request.GET.get("pick", "").partition(":")
    asked = (pick[0], pick[2]) if pick[1] else (request.GET.get("stage", ""), request.GET.get("round", ""))
    for stage, rnd, _name in rounds:
        if asked == (str(stage.pk), str(rnd)):
            return stage, rnd
    open_ = Fixture.objects.filter(
        competition=competition,
        status=Fixture.Status.SCHEDULED,
        home_team__isnull=False,
        away_team__isnull=False,
    )
    first = open_.order_by("stage__order", "round").first()
    if first is not None:
        return first.stage, first.round
    return (rounds[0][0], rounds[0][1]) if rounds else None


def _rows(request: HttpRequest, fixtures: list[Fixture]) -> list[RowForm]:
    data = request.POST if request.method == "POST" else None
    return [
        RowForm(data, fixture=f) for f in fixtures if f.status == Fixture.Status.SCHEDULED and f.is_resolved
    ]


@competition_required("results")
def results_round(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    rounds = _rounds(competition)
    chosen = _chosen(request, competition, rounds)
    fixtures: list[Fixture] = []
    if chosen is not None:
        fixtures = list(
            Fixture.objects.filter(competition=competition, stage=chosen[0], round=chosen[1])
            .select_related("competition", "stage", "group", "home_team", "away_team", "result")
            .order_by("match_number", "leg", "group__name", "id")
        )
    rows = _rows(request, fixtures)
    errors: dict[int, str] = {}
    if request.method == "POST" and chosen is not None:
        valid = [row.is_valid() for row in rows]  # every row checked, so each shows its own errors
        if all(valid):
            saved, errors = round_save(rows=rows, user=signed_in_user(request.user))
            if not errors:
                messages.success(request, f"{saved} result{'s' if saved != 1 else ''} saved.")
                url = reverse("console:round", kwargs={"slug": slug})
                return redirect(f"{url}?stage={chosen[0].pk}&round={chosen[1]}")
            refused = f"{len(errors)} row(s) refused: nothing was saved; correct them and save again."
            messages.error(request, refused)
    by_fixture = {row.fixture.pk: row for row in rows}
    context = {
        "competition": competition,
        "rounds": rounds,
        "chosen": chosen,
        "lines": [(f, by_fixture.get(f.pk), errors.get(f.pk, "")) for f in fixtures],
        "rows": rows,
    }
    return TemplateResponse(request, "console/round.html", context)

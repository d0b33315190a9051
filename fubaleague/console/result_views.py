"""Console: the results desk (enter, resolve, correct, award, void) and the discipline desk."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils import timezone

from fubaleague.console.access import competition_of, competition_required, permits
from fubaleague.console.result_words import score_words
from fubaleague.console.round_views import form_score, round_choices
from kernel.admin_actions import service_dry_run
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError, posted_id
from matches import progress
from matches import services as results
from matches.audit_words import audit_sentences
from matches.discipline import competition_discipline_set
from matches.forms import CARD_WORDS, add_card_rows, card_rows_initial, cards_from_rows
from matches.holds import holds
from matches.knockout import decider_fields
from matches.models import Result, ResultSubmission
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage, Suspension

ACTIONS = {
    "enter": "Enter or correct the result",
    "confirm": "Confirm the result the club reported",
    "resolve": "Resolve the dispute with this result",
    "award": "Award the match",
    "void": "Void the match",
}


class ResultForm(forms.Form):
    action = forms.ChoiceField(choices=list(ACTIONS.items()))
    home_goals = forms.IntegerField(min_value=0, max_value=99, required=False)
    away_goals = forms.IntegerField(min_value=0, max_value=99, required=False)
    extra_time = forms.BooleanField(required=False, label="After extra time")
    home_penalties = forms.IntegerField(min_value=0, max_value=99, required=False)
    away_penalties = forms.IntegerField(min_value=0, max_value=99, required=False)
    award_to = forms.ChoiceField(required=False, label="Award the match to")
    note = forms.CharField(max_length=500, required=False, label="Note for the audit trail")
    reopen = forms.BooleanField(required=False, label="Also reopen later matches that depended on this one")

    def __init__(self, *args: Any, fixture: Fixture, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        home, away = str(fixture.home_team or "Home"), str(fixture.away_team or "Away")
        self.fields["home_goals"].label = f"{home} goals"
        self.fields["away_goals"].label = f"{away} goals"
        self.fields["home_penalties"].label = f"{home} penalties"
        self.fields["away_penalties"].label = f"{away} penalties"
        self.fields["award_to"].choices = [("", "—"), ("home", home), ("away", away)]  # type: ignore[attr-defined]
        self.card_rows = add_card_rows(self, fixture)
        # A group or league match (or a first leg) has goals only: no field for what it cannot have.
        extra_time, shootout = decider_fields(fixture)
        if not extra_time:
            del self.fields["extra_time"]
        if not shootout:
            del self.fields["home_penalties"], self.fields["away_penalties"]

    def card_fields(self) -> list[list[forms.BoundField]]:
        names = ("team", "shirt", "kind")
        return [
            [self[f"card_{i}_{n}"] for n in names if f"card_{i}_{n}" in self.fields]
            for i in range(self.card_rows)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:
            data["cards"] = cards_from_rows(data, self.card_rows)
        except forms.ValidationError as exc:
            self.add_error(None, exc)
        return data

    def cards(self) -> list[dict[str, Any]]:
        return list(self.cleaned_data.get("cards") or [])


def _call(fixture: Fixture, form: ResultForm, user: Any) -> Any:
    """The service call the chosen action makes (the same the API and the admin make)."""
    d = form.cleaned_data
    action, note, reopen = d["action"], d.get("note") or "", d.get("reopen", False)
    if action == "void":
        return results.result_void(
            fixture_id=fixture.pk, user=user, note=note or "Voided by staff", reopen=reopen
        )
    if action == "award":
        side = d.get("award_to")
        if not side:
            raise ApplicationError("Choose the team the match is awarded to.", details={"field": "award_to"})
        team_id = fixture.home_team_id if side == "home" else fixture.away_team_id
        if team_id is None:
            raise ApplicationError("That side of the match has no team yet.", details={"field": "award_to"})
        return results.result_award(
            fixture_id=fixture.pk, user=user, team_id=team_id, note=note or "Awarded by staff", reopen=reopen
        )
    if action == "confirm":
        reported = reported_submission(fixture)
        if reported is None or reported.status != ResultSubmission.Status.OPEN:
            raise ApplicationError(f"{fixture}: no reported result is waiting to be confirmed.")
        return results.result_override(
            fixture_id=fixture.pk,
            user=user,
            reopen=reopen,
            score=score_of_submission(reported),
            cards=list(reported.cards or []),
            note=note or "The reported result confirmed by staff",
        )
    if d.get("home_goals") is None or d.get("away_goals") is None:
        raise ApplicationError("Give both teams' goals.", details={"field": "home_goals"})
    score = form_score(d)
    if action == "resolve":
        return results.result_resolve(
            fixture_id=fixture.pk, user=user, score=score, cards=form.cards(), note=note
        )
    if not note:
        note = "Corrected at the results desk" if fixture.is_counted else "Entered at the results desk"
    return results.result_override(
        fixture_id=fixture.pk, user=user, reopen=reopen, score=score, cards=form.cards(), note=note
    )


def reported_submission(fixture: Fixture) -> ResultSubmission | None:
    """The club's report waiting for the opponent, or the disputed one."""
    waiting = (ResultSubmission.Status.OPEN, ResultSubmission.Status.DISPUTED)
    return fixture.submissions.filter(status__in=waiting).order_by("-id").first()


def score_of_submission(sub: ResultSubmission) -> Score:
    return Score(
        sub.home_goals,
        sub.away_goals,
        extra_time=sub.extra_time,
        home_penalties=sub.home_penalties,
        away_penalties=sub.away_penalties,
    )


def submission_score(sub: ResultSubmission) -> dict[str, Any]:
    return {
        "home_goals": sub.home_goals,
        "away_goals": sub.away_goals,
        "cards": list(sub.cards or []),
        "extra_time": sub.extra_time,
        "home_penalties": sub.home_penalties,
        "away_penalties": sub.away_penalties,
    }


def _form_initial(
    fixture: Fixture, result: Result | None, reported: ResultSubmission | None
) -> dict[str, Any]:
    """The reported score and cards to start from (a dispute, a report waiting), else the result."""
    initial: dict[str, Any] = {"action": "enter"}
    if fixture.status == Fixture.Status.DISPUTED:
        initial["action"] = "resolve"
    elif fixture.status == Fixture.Status.SUBMITTED:
        initial["action"] = "confirm"
    if reported is not None:
        data = submission_score(reported)
        initial |= {k: v for k, v in data.items() if k != "cards"}
        initial |= card_rows_initial(data["cards"])
    elif result is not None:
        initial |= {"home_goals": result.home_goals, "away_goals": result.away_goals}
    return initial


def _no_show_initial(fixture: Fixture, side: str | None) -> dict[str, Any]:
    """From the venue page's "not checked in" (?no_show=home|away): the award to the other side,
    for the organiser to confirm or change (docs/venue.md)."""
    if side not in ("home", "away") or fixture.status != Fixture.Status.SCHEDULED:
        return {}
    absent = fixture.home_team if side == "home" else fixture.away_team
    return {
        "action": "award",
        "award_to": "away" if side == "home" else "home",
        "note": f"No-show: {absent} did not check in at the venue",
    }


def _consequences(fixture: Fixture, form: ResultForm) -> str:
    d = form.cleaned_data
    home, away = str(fixture.home_team), str(fixture.away_team)
    if d["action"] == "void":
        return f"{home} v {away} will count for nothing: standings and bans are recomputed without it."
    if d["action"] == "confirm":
        reported = reported_submission(fixture)
        if reported is not None:
            words = score_words(fixture, score_of_submission(reported))
            return (
                f"{words}, as reported, will count: "
                "the tables, the knockout places and the suspensions follow from it."
            )
    if d["action"] == "award":
        winner = home if d.get("award_to") == "home" else away
        c = fixture.competition
        return f"{winner} will be awarded the match {c.award_goals_for}–{c.award_goals_against}."
    cards = ", ".join(
        f"{CARD_WORDS.get(c['kind'], c['kind']).lower()} for {home if c['team'] == 'home' else away}"
        + (f" #{c['shirt_number']}" if c.get("shirt_number") else "")
        for c in form.cards()
    )
    score = form_score(d)
    text = f"{score_words(fixture, score)}. It will count"
    text += f", with {cards}" if cards else ", without cards"
    return text + ": the tables, the knockout places and the suspensions follow from it."


STATUS_FILTERS = {
    "": "Any status",
    "to_enter": "To enter",
    "waiting": "Reported or disputed",
    "overdue": "Overdue",
    "done": "Counted or void",
}


class ListFilter(forms.Form):
    """The desk's list by round, date and status."""

    round = forms.ChoiceField(required=False, label="Round")
    day = forms.DateField(required=False, label="Date", widget=forms.DateInput(attrs={"type": "date"}))
    status = forms.ChoiceField(required=False, choices=list(STATUS_FILTERS.items()), label="Status")

    def __init__(self, *args: Any, competition: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rounds = round_choices(competition)
        self.fields["round"].choices = [("", "Every round"), *rounds]  # type: ignore[attr-defined]

    def apply(self, fixtures: Any) -> Any:
        d = self.cleaned_data
        if d.get("round"):
            stage, _sep, rnd = d["round"].partition(":")
            fixtures = fixtures.filter(stage_id=int(stage), round=int(rnd))
        if d.get("day"):
            fixtures = fixtures.filter(kickoff__date=d["day"])
        status = d.get("status")
        if status == "to_enter":
            fixtures = fixtures.filter(status=Fixture.Status.SCHEDULED)
        elif status == "waiting":
            fixtures = fixtures.filter(status__in=(Fixture.Status.SUBMITTED, Fixture.Status.DISPUTED))
        elif status == "overdue":
            fixtures = fixtures.filter(status=Fixture.Status.SCHEDULED, deadline__lt=timezone.now())
        elif status == "done":
            fixtures = fixtures.filter(status__in=Fixture.DONE_STATUSES)
        return fixtures


@competition_required("results")
def results_list(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    if request.method == "POST" and "next_swiss" in request.POST:
        stage = get_object_or_404(
            Stage, pk=posted_id(request.POST, "stage", "stage"), competition=competition
        )
        try:
            created = progress.swiss_round_generate(stage=stage)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{len(created)} pairings of the next round.")
        return redirect("console:results", slug=slug)
    fixtures = (
        Fixture.objects.filter(competition=competition)
        .select_related("stage", "group", "home_team", "away_team", "result")
        .order_by("stage__order", "round", "match_number", "leg")
    )
    filters = ListFilter(request.GET or None, competition=competition)
    shown = filters.apply(fixtures) if filters.is_valid() else fixtures
    # A match being scored live is not late: the sweep leaves it alone (matches.holds).
    held_ids = set(holds([f.id for f in fixtures if f.status == Fixture.Status.SCHEDULED]))
    attention = [
        f
        for f in fixtures
        if f.status in (Fixture.Status.DISPUTED, Fixture.Status.SUBMITTED)
        or (f.is_overdue and f.id not in held_ids)
    ]
    swiss = competition.stages.filter(kind=Stage.Kind.SWISS)
    context = {
        "competition": competition,
        "fixtures": shown,
        "filters": filters,
        "attention": attention,
        "swiss": swiss,
        "held_ids": held_ids,
    }
    return TemplateResponse(request, "console/results.html", context)


@competition_required("results")
def result_desk(request: HttpRequest, slug: str, fixture_id: int) -> HttpResponse:
    competition = competition_of(slug)
    fixture = get_object_or_404(
        Fixture.objects.select_related("competition", "stage", "group", "home_team", "away_team"),
        pk=fixture_id,
        competition=competition,
    )
    result = Result.objects.filter(fixture=fixture).first()
    reported = reported_submission(fixture)
    initial = _form_initial(fixture, result, reported) | _no_show_initial(fixture, request.GET.get("no_show"))
    form = ResultForm(request.POST or None, fixture=fixture, initial=initial)
    if not permits(request, competition, "correct"):
        # The results desk enters, confirms and resolves; awarding and voiding are the organisers'.
        form.fields["action"].choices = [(k, v) for k, v in ACTIONS.items() if k not in ("award", "void")]  # type: ignore[attr-defined]
    consequences = ""
    if request.method == "POST" and form.is_valid():
        user = signed_in_user(request.user)
        refusal = service_dry_run(lambda: _call(fixture, form, user))
        if refusal is not None:
            form.add_error(None, refusal.message)
        elif "confirm" in request.POST:
            _call(fixture, form, user)
            messages.success(request, f"{fixture}: {ACTIONS[form.cleaned_data['action']].lower()} – done.")
            return redirect("console:results", slug=slug)
        else:
            consequences = _consequences(fixture, form)
    context = {
        "competition": competition,
        "fixture": fixture,
        "result": result,
        "form": form,
        "consequences": consequences,
        "audit": audit_sentences(fixture),
        "reported": reported,
    }
    return TemplateResponse(request, "console/result.html", context)


class DisciplineForm(forms.Form):
    yellow_card_threshold = forms.IntegerField(
        min_value=0, max_value=20, label="Yellow cards for a ban (0: never)"
    )
    red_card_ban_matches = forms.IntegerField(
        min_value=0, max_value=20, label="Matches banned after a red card"
    )
    yellow_wipe_after_stage = forms.ModelChoiceField(
        queryset=Stage.objects.none(), required=False, label="Yellow cards wiped after stage"
    )


@competition_required("setup")
def discipline(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    initial: dict[str, Any] = {
        "yellow_card_threshold": competition.yellow_card_threshold,
        "red_card_ban_matches": competition.red_card_ban_matches,
        "yellow_wipe_after_stage": competition.yellow_wipe_after_stage_id,
    }
    form = DisciplineForm(request.POST or None, initial=initial)
    form.fields["yellow_wipe_after_stage"].queryset = competition.stages.order_by("order")  # type: ignore[attr-defined]
    if request.method == "POST" and form.is_valid():
        try:
            change = competition_discipline_set(
                competition=competition, cup_mode=competition.cup_mode, **form.cleaned_data
            )
        except ApplicationError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Discipline settings saved. {change.summary()}")
            return redirect("console:discipline", slug=slug)
    suspensions = (
        Suspension.objects.filter(competition=competition)
        .select_related("team", "source_fixture__stage", "served_in")
        .order_by("team__name", "id")
    )
    disputed = Fixture.objects.filter(competition=competition, status=Fixture.Status.DISPUTED).select_related(
        "home_team", "away_team"
    )
    context = {"competition": competition, "form": form, "suspensions": suspensions, "disputed": disputed}
    return TemplateResponse(request, "console/discipline.html", context)

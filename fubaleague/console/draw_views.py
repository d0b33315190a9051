"""Console: the group draw (pots, constraints, seed, revealed team by team) and the schedule."""

from __future__ import annotations

from datetime import UTC, datetime, time, timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse

from fubaleague.console.access import competition_of, competition_required
from fubaleague.console.league_phase_views import league_phase_page
from kernel.admin_actions import form_error
from kernel.errors import ApplicationError
from matches.holds import holds
from matches.table_fill import table_fill_waiting, table_places_fill
from tournaments.models import Competition, Draw, Fixture, Stage, Team
from tournaments.services.drawing import groups_draw, groups_enter
from tournaments.services.scheduling import fixture_generate, round_shift, stage_dates_set
from tournaments.services.shared import any_played
from tournaments.services.table_feed import fed_by_table


class DrawForm(forms.Form):
    countries_apart = forms.BooleanField(
        required=False, initial=True, label="No two teams of one country in a group"
    )
    clubs_apart = forms.BooleanField(required=False, label="No two teams of one club in a group")
    confederation = forms.CharField(max_length=20, required=False, label="Confederation (e.g. UEFA)")
    at_most = forms.IntegerField(min_value=1, max_value=20, required=False, label="At most per group")
    at_least = forms.IntegerField(min_value=1, max_value=20, required=False, label="At least per group")
    seed = forms.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, help_text="Repeat a draw; random if empty"
    )
    relax = forms.BooleanField(required=False, label="If impossible, relax the constraints (recorded)")

    def constraints(self) -> list[Any]:
        d = self.cleaned_data
        out: list[Any] = []
        if d["countries_apart"]:
            out.append("country")
        if d["clubs_apart"]:
            out.append("club")
        if d.get("confederation"):
            cap: dict[str, Any] = {"attribute": "confederation", "value": d["confederation"]}
            for key in ("at_most", "at_least"):
                if d.get(key):
                    cap[key] = d[key]
            out.append(cap)
        return out


def _group_stage(competition: Competition) -> Stage | None:
    return competition.stages.filter(kind=Stage.Kind.GROUPS).order_by("order").first()


def pots_of(competition: Competition, groups: int) -> list[list[Team]]:
    """Pots in the order the teams were seeded (then entered): pot 1 the first `groups` teams."""
    ordered = sorted(
        competition.teams.filter(withdrawn=False), key=lambda t: (t.seed is None, t.seed or 0, t.id)
    )
    return [ordered[i : i + groups] for i in range(0, len(ordered), groups)]


@competition_required("setup")
def draw(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    stage = _group_stage(competition)
    league_phase = competition.stages.filter(kind=Stage.Kind.LEAGUE_PHASE).order_by("order").first()
    if stage is None and league_phase is not None:
        return league_phase_page(request, competition, league_phase)
    form = DrawForm(request.POST or None)
    groups = list(stage.groups.order_by("name")) if stage else []
    pots = pots_of(competition, len(groups)) if groups else []
    if request.method == "POST" and stage is not None and form.is_valid():
        try:
            done = groups_draw(
                stage=stage,
                pots=pots,
                seed=form.cleaned_data.get("seed"),
                constraints=form.constraints(),
                relax=form.cleaned_data["relax"],
                user=request.user,
            )
        except ApplicationError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"Drawn with seed {done.seed}: give it again to repeat this draw.")
            return redirect("console:draw", slug=slug)
    kinds = (Draw.Kind.GROUPS, Draw.Kind.ENTERED)
    latest = stage.draws.filter(kind__in=kinds).order_by("-drawn_at", "-id").first() if stage else None
    names = dict(competition.teams.values_list("id", "name"))
    reveal = []
    if latest is not None:
        # Pot by pot, group by group: the order a draw ceremony shows them in.
        width = max((len(v) for v in latest.result.values()), default=0)
        step = 0
        for pot in range(width):
            for group, ids in sorted(latest.result.items()):
                if pot < len(ids):
                    step += 1
                    reveal.append(
                        {"step": step, "group": group, "pot": pot + 1, "team": names.get(ids[pot], "?")}
                    )
    context = {
        "competition": competition,
        "stage": stage,
        "pots": pots,
        "form": form,
        "latest": latest,
        "groups": groups,
        "reveal": reveal,
        "frozen": bool(stage and stage.fixtures.exists()),
    }
    return TemplateResponse(request, "console/draw.html", context)


class ScheduleForm(forms.Form):
    start_date = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    kickoff_time = forms.TimeField(initial=time(19, 0), widget=forms.TimeInput(attrs={"type": "time"}))
    days_between_rounds = forms.IntegerField(min_value=0, max_value=366, initial=7)
    deadline_days = forms.IntegerField(
        min_value=0, max_value=366, initial=3, label="Result due (days after kick-off)"
    )


class ShiftForm(forms.Form):
    stage = forms.ModelChoiceField(queryset=Stage.objects.none())
    round = forms.IntegerField(min_value=1, max_value=1000)
    days = forms.IntegerField(min_value=-366, max_value=366)


def _generate_all(competition: Competition, d: dict[str, Any], user: Any) -> tuple[int, str]:
    """Every stage without fixtures, each starting a round after the stage before it ends; a
    knockout taking a table's places is made once that table is final (else the run stops there
    and says why)."""
    start = datetime.combine(d["start_date"], d["kickoff_time"], tzinfo=UTC)
    interval = timedelta(days=d["days_between_rounds"])
    created = 0
    for stage in competition.stages.order_by("order"):
        if fed_by_table(stage) and not stage.fixtures.exists() and stage.feeder is not None:
            waiting = table_fill_waiting(feeder=stage.feeder)
            if waiting:
                return created, f"{stage.name} and the stages after it wait: {waiting}."
            table_places_fill(feeder=stage.feeder, user=user)
        undated_draw = not stage.fixtures.exclude(kickoff=None).exists() and not any_played(
            stage.fixtures.all()
        )
        if stage.fixtures.exists() and undated_draw:
            # A drawn league phase (or a knockout made from a table) has its fixtures already;
            # they get the dates here.
            dated = stage_dates_set(
                stage=stage, start=start, interval=interval, deadline_after=timedelta(days=d["deadline_days"])
            )
            created += len(dated)
            start = max(f.kickoff for f in dated if f.kickoff) + interval
            continue
        if stage.fixtures.exists():
            last = stage.fixtures.exclude(kickoff=None).order_by("-kickoff").first()
            start = last.kickoff + interval if last and last.kickoff else start
            continue
        fixtures = fixture_generate(
            stage=stage, start=start, interval=interval, deadline_after=timedelta(days=d["deadline_days"])
        )
        created += len(fixtures)
        kickoffs = [f.kickoff for f in fixtures if f.kickoff]
        start = max(kickoffs) + interval if kickoffs else start
    return created, ""


@competition_required("setup")
def schedule(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    form = ScheduleForm(request.POST if "generate" in request.POST else None)
    shift = ShiftForm(request.POST if "shift" in request.POST else None)
    shift.fields["stage"].queryset = competition.stages.order_by("order")  # type: ignore[attr-defined]
    if request.method == "POST" and "generate" in request.POST and form.is_valid():
        try:
            n, waiting = _generate_all(competition, form.cleaned_data, request.user)
        except ApplicationError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(request, f"{n} fixtures scheduled.")
            if waiting:
                messages.info(request, waiting)
            return redirect("console:schedule", slug=slug)
    if request.method == "POST" and "shift" in request.POST and shift.is_valid():
        d = shift.cleaned_data
        try:
            moved = round_shift(stage=d["stage"], round=d["round"], by=timedelta(days=d["days"]))
        except ApplicationError as exc:
            shift.add_error(None, exc.message)
        else:
            messages.success(request, f"{len(moved)} fixtures moved by {d['days']} days.")
            return redirect("console:schedule", slug=slug)
    fixtures = (
        Fixture.objects.filter(competition=competition)
        .select_related("stage", "group", "home_team", "away_team")
        .order_by("stage__order", "round", "match_number", "leg")
    )
    rounds: dict[str, list[Fixture]] = {}
    for fixture in fixtures:
        rounds.setdefault(
            f"{fixture.stage.name} · {fixture.round_name or f'Round {fixture.round}'}", []
        ).append(fixture)
    held_ids = set(holds([f.id for f in fixtures if f.status == Fixture.Status.SCHEDULED]))
    context = {
        "competition": competition,
        "form": form,
        "shift": shift,
        "rounds": rounds,
        "held_ids": held_ids,
    }
    return TemplateResponse(request, "console/schedule.html", context)


class ByHandForm(forms.Form):
    """Each team's group and pot, as a draw made elsewhere placed it."""

    def __init__(self, *args: Any, teams: list[Team], groups: list[Any], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.teams = teams
        size = -(-len(teams) // max(len(groups), 1))
        for team in teams:
            self.fields[f"group_{team.pk}"] = forms.ChoiceField(
                choices=[("", "—"), *((g.name, f"Group {g.name}") for g in groups)],
                label=f"{team.name}: group",
            )
            self.fields[f"pot_{team.pk}"] = forms.TypedChoiceField(
                coerce=int, choices=[(i, f"Pot {i}") for i in range(1, size + 1)], label=f"{team.name}: pot"
            )

    def rows(self) -> list[tuple[Team, forms.BoundField, forms.BoundField]]:
        return [(t, self[f"group_{t.pk}"], self[f"pot_{t.pk}"]) for t in self.teams]

    def placement(self) -> dict[str, list[Team | None]]:
        """Group name → its teams by pot; two teams in one pot of one group are refused."""
        placed: dict[str, list[Team | None]] = {}
        for team in self.teams:
            name, pot = self.cleaned_data[f"group_{team.pk}"], self.cleaned_data[f"pot_{team.pk}"]
            slots = placed.setdefault(name, [])
            slots.extend([None] * (pot - len(slots)))
            if slots[pot - 1] is not None:
                raise ApplicationError(
                    f"Group {name}, pot {pot}: {slots[pot - 1]} and {team.name} are both placed there.",
                    details={"field": f"pot_{team.pk}"},
                )
            slots[pot - 1] = team
        return placed


@competition_required("setup")
def draw_by_hand(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    stage = _group_stage(competition)
    groups = list(stage.groups.order_by("name")) if stage else []
    teams = [t for pot in pots_of(competition, len(groups) or 1) for t in pot]
    initial: dict[str, Any] = {}
    for group in groups:
        for pot, team in enumerate(group.teams.order_by("seed", "id"), start=1):
            initial |= {f"group_{team.pk}": group.name, f"pot_{team.pk}": pot}
    form = ByHandForm(request.POST or None, teams=teams, groups=groups, initial=initial)
    if request.method == "POST" and stage is not None and form.is_valid():
        try:
            groups_enter(stage=stage, placement=form.placement(), user=request.user)
        except ApplicationError as exc:
            form_error(form, exc)
        else:
            messages.success(request, "The draw made elsewhere is entered.")
            return redirect("console:draw", slug=slug)
    context = {"competition": competition, "stage": stage, "form": form, "groups": groups}
    return TemplateResponse(request, "console/draw_by_hand.html", context)

"""Console: the competitions, a new competition in one flow, its teams and clubs."""

from __future__ import annotations

import csv
import io
from dataclasses import asdict
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.utils.text import slugify

from fubaleague.console.access import (
    ORGANISER_PERMISSIONS,
    competition_of,
    competition_required,
    signed_in_required,
)
from kernel.errors import ApplicationError
from matches.progress import competition_champion
from tournaments.game_systems import FUBA_2, FUBA_3, game_system_rules
from tournaments.models import Competition, CompetitionRole, Stage, TiebreakPreset
from tournaments.rule_names import advanced_rule_names
from tournaments.selectors import competitions_run_by, may_create_competition
from tournaments.shapes import (
    SHAPE_PRESETS,
    STRUCTURES,
    TABLE_STRUCTURES,
    Shape,
    competition_create_from_shape,
    shape_preview,
)


def _error(form: forms.Form, exc: ApplicationError) -> None:
    field = exc.details.get("field") if isinstance(exc.details, dict) else None
    form.add_error(field if isinstance(field, str) and field in form.fields else None, exc.message)


@signed_in_required
def index(request: HttpRequest) -> HttpResponse:
    """The competitions the user holds a role in (every one for the instance's staff)."""
    competitions = competitions_run_by(user=request.user, staff_perms=ORGANISER_PERMISSIONS).order_by("-id")
    roles = dict(
        CompetitionRole.objects.filter(user_id=request.user.pk or 0).values_list("competition_id", "kind")
    )
    rows = [(c, CompetitionRole.Kind(roles[c.id]).label if c.id in roles else "") for c in competitions]
    context = {"competitions": rows, "may_create": may_create_competition(user=request.user)}
    return TemplateResponse(request, "console/index.html", context)


class ShapeForm(forms.Form):
    name = forms.CharField(max_length=160)
    slug = forms.SlugField(
        max_length=80,
        required=False,
        label="Address of its page",
        help_text="Made from the name (Spring Cup: /c/spring-cup/); change it here if you like.",
    )
    game_system = forms.ChoiceField(choices=Competition.GameSystem.choices)
    # One list per rulebook: the codes overlap but name other rules (A6 is aggressive pressing in
    # rulebook 3, the playing styles in rulebook 2.0); the page shows the chosen game system's.
    advanced_rules = forms.MultipleChoiceField(
        choices=advanced_rule_names(FUBA_3),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Advanced rules",
    )
    advanced_rules_fuba2 = forms.MultipleChoiceField(
        choices=advanced_rule_names(FUBA_2),
        widget=forms.CheckboxSelectMultiple,
        required=False,
        label="Advanced rules",
    )
    structure = forms.ChoiceField(choices=list(STRUCTURES.items()), widget=forms.RadioSelect)
    teams = forms.IntegerField(min_value=2, max_value=256, label="Number of teams")
    groups = forms.IntegerField(min_value=0, max_value=26, required=False, initial=2, label="Groups")
    advance_per_group = forms.TypedChoiceField(
        coerce=int, choices=[(1, "The winner"), (2, "The top two")], initial=2, label="Go through per group"
    )
    best_thirds = forms.IntegerField(
        min_value=0, max_value=26, required=False, initial=0, label="Plus best-placed teams of the next rank"
    )
    thirds_placing = forms.ChoiceField(
        choices=Stage.ThirdsPlacing.choices, label="Placing of the best thirds (6 groups, 4 thirds)"
    )
    group_legs = forms.TypedChoiceField(
        coerce=int, choices=[(1, "Once"), (2, "Twice (home and away)")], label="Group or league games"
    )
    knockout_legs = forms.TypedChoiceField(
        coerce=int, choices=[(1, "One match"), (2, "Two legs")], label="Knockout ties"
    )
    swiss_rounds = forms.IntegerField(min_value=0, max_value=64, required=False, initial=0)
    opponents = forms.IntegerField(
        min_value=2,
        max_value=20,
        required=False,
        initial=8,
        label="League phase: opponents per team",
        help_text="Two from each pot, one at home and one away (8: four pots)",
    )
    direct_places = forms.IntegerField(
        min_value=0,
        max_value=256,
        required=False,
        initial=0,
        label="Places straight into a knockout",
        help_text="0: no knockout; 8: places 1–8 (the round of 16 with a play-off of 16)",
    )
    playoff_places = forms.IntegerField(
        min_value=0,
        max_value=256,
        required=False,
        initial=0,
        label="Then places in a play-off",
        help_text="The places just below, paired first v last; the winners join the knockout (16: 9–24)",
    )
    third_place_match = forms.BooleanField(required=False, label="Third-place match")
    extra_time = forms.BooleanField(
        required=False, initial=True, label="Extra time in a level knockout match"
    )
    penalties = forms.BooleanField(required=False, initial=True, label="Then a penalty shoot-out")
    # A custom order is built on the Rules step, where each criterion is placed by name.
    tiebreak_preset = forms.ChoiceField(
        choices=[(k, v) for k, v in TiebreakPreset.choices if k != TiebreakPreset.CUSTOM],
        label="Tie-break rules",
        help_text="A custom order of tie-breaks: on the Rules step once the competition exists.",
    )
    team_list = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 8}),
        required=False,
        label="Teams (optional for groups: enter them later)",
        help_text="One a line: name, country, club, confederation, formation, skills (separated by ;)",
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        lists = {FUBA_3: "advanced_rules", FUBA_2: "advanced_rules_fuba2"}
        for code, field in lists.items():
            if data.get(field) and data.get("game_system") != code:
                game = game_system_rules(code)
                self.add_error(field, f"These are the advanced rules of {game.name} ({game.rulebook}).")
        return data

    def address(self) -> str:
        """The address typed under "More", else the one made from the name."""
        return self.cleaned_data.get("slug") or slugify(self.cleaned_data["name"])[:80] or "competition"

    def chosen_advanced_rules(self) -> list[str]:
        """The advanced rules ticked in the list of the game system chosen."""
        field = "advanced_rules_fuba2" if self.cleaned_data["game_system"] == FUBA_2 else "advanced_rules"
        return list(self.cleaned_data.get(field) or [])

    def shape(self) -> Shape:
        d = self.cleaned_data
        return Shape(
            structure=d["structure"],
            teams=d["teams"],
            groups=d.get("groups") or 0,
            advance_per_group=d["advance_per_group"],
            best_thirds=d.get("best_thirds") or 0,
            thirds_placing=d["thirds_placing"],
            group_legs=d["group_legs"],
            knockout_legs=d["knockout_legs"],
            swiss_rounds=d.get("swiss_rounds") or 0,
            opponents=d.get("opponents") or 8,
            direct_places=d.get("direct_places") or 0,
            playoff_places=d.get("playoff_places") or 0,
            third_place_match=d["third_place_match"],
            extra_time=d["extra_time"],
            penalties=d["penalties"],
            tiebreak_preset=d["tiebreak_preset"],
        )


def team_rows(text: str) -> list[dict[str, Any]]:
    """Pasted lines (or CSV) → the rows the bulk team service takes, as the API's CSV does."""
    rows = []
    keys = ("name", "country", "club", "confederation", "default_formation", "skills")
    for parts in csv.reader(io.StringIO(text)):
        parts = [p.strip() for p in parts]
        if not parts or not parts[0] or parts[0].lower() == "name":
            continue
        row: dict[str, Any] = {k: v for k, v in zip(keys, parts, strict=False) if v}
        if "skills" in row:
            row["skills"] = [s.strip() for s in row["skills"].split(";") if s.strip()]
        rows.append(row)
    return rows


SPECIAL_FIELDS = ("slug", "advanced_rules", "advanced_rules_fuba2", "team_list")


@signed_in_required
def new_competition(request: HttpRequest) -> HttpResponse:
    if not may_create_competition(user=request.user):
        raise PermissionDenied("On this service only its staff create competitions.")
    preset = SHAPE_PRESETS.get(request.GET.get("preset", ""))
    initial: dict[str, Any] = {
        "structure": "groups",
        "teams": 8,
        "game_system": Competition.GameSystem.FUBA_3,
    }
    if preset is not None:
        initial |= asdict(preset[1])
    form = ShapeForm(request.POST or None, initial=initial)
    preview = None
    if request.method == "POST" and form.is_valid():
        try:
            shape = form.shape()
            preview = shape_preview(shape)
            if "create" in request.POST:
                competition = competition_create_from_shape(
                    name=form.cleaned_data["name"],
                    slug=form.address(),
                    shape=shape,
                    teams=team_rows(form.cleaned_data["team_list"]),
                    game_system=form.cleaned_data["game_system"],
                    advanced_rules=form.chosen_advanced_rules(),
                    creator=request.user,
                )
                messages.success(request, f"{competition} is set up: enter its teams and clubs next.")
                return redirect("console:teams", slug=competition.slug)
        except ApplicationError as exc:
            _error(form, exc)
            preview = None
    context = {
        "form": form,
        "preview": preview,
        "game_system": form["game_system"].value() or FUBA_3,
        # The places after a table show for a structure with one table, or with the refusal of
        # places typed for another (new.js follows a change of structure).
        "table_structures": TABLE_STRUCTURES,
        "table_places": form["structure"].value() in TABLE_STRUCTURES
        or bool(form.errors.keys() & {"direct_places", "playoff_places"}),
        "rule_lists": [("advanced_rules", FUBA_3), ("advanced_rules_fuba2", FUBA_2)],
        "plain_fields": [f for f in form if f.name not in SPECIAL_FIELDS],
        "presets": [(k, label) for k, (label, _s) in SHAPE_PRESETS.items()],
    }
    return TemplateResponse(request, "console/new.html", context)


@competition_required("view")
def overview(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    context = {
        "competition": competition,
        "stages": competition.stages.order_by("order").prefetch_related("groups__teams"),
        "team_count": competition.teams.count(),
        "champion": competition_champion(competition=competition),
    }
    return TemplateResponse(request, "console/overview.html", context)

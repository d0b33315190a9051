"""The admin's forms of the competition models, each saved by the service the API calls.

Every form is a ServiceForm: its clean() tries the service call and undoes it, so the admin shows
the service's own refusal (frozen stage fields, points after results, a team in two groups) and
writes nothing the service would not.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.admin.widgets import FilteredSelectMultiple
from django.contrib.auth.models import User

from kernel.admin_actions import ServiceForm
from matches.discipline import DisciplineChange, competition_discipline_set
from tournaments.formats import FORMATS
from tournaments.game_systems import FUBA_3, game_system_rules
from tournaments.models import Competition, Fixture, Group, Skill, Stage, Team, TeamSkill
from tournaments.rule_names import advanced_rule_choices
from tournaments.services.clubs import TEAM_SETTINGS, team_create, team_update
from tournaments.services.competitions import (
    COMPETITION_SETTINGS,
    DISCIPLINE_SETTINGS,
    competition_create,
    competition_update,
)
from tournaments.services.scheduling import fixture_schedule
from tournaments.services.stages import STAGE_SETTINGS, group_create, group_update, stage_create, stage_update
from tournaments.skills import team_skills_set
from tournaments.standings.criteria import CRITERIA

TIEBREAK_SLOTS = 10


class CompetitionTeamChoice(forms.ModelMultipleChoiceField):
    """Team pickers name each team with its competition: bare names of two competitions looked alike."""

    def label_from_instance(self, obj: Any) -> str:
        return f"{obj.name} ({obj.competition.name})"


def limit_teams(field: forms.Field, competition_id: int | None) -> None:
    qs = Team.objects.select_related("competition").order_by("competition__name", "name")
    field.queryset = qs.filter(competition_id=competition_id) if competition_id else qs  # type: ignore[attr-defined]


def int_or_none(value: Any) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _saved(model: Any, instance: Any) -> Any:
    """The row as stored: ModelForm has already copied the new values onto `instance`."""
    return model.objects.get(pk=instance.pk) if instance.pk else None


class TeamForm(ServiceForm):
    skills = forms.ModelMultipleChoiceField(
        queryset=Skill.objects.order_by("name"),
        required=False,
        widget=FilteredSelectMultiple("skills", is_stacked=False),
        help_text="A11 roster: the skills chosen at entry (skills gained in matches are kept)",
    )

    class Meta:
        model = Team
        fields = [
            "competition",
            "name",
            "country",
            "confederation",
            "coach",
            "club",
            "seed",
            "default_formation",
            "player_roles",
            "playing_styles",
            "withdrawn",
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["competition"].disabled = True  # a team stays in its competition
            self.initial["skills"] = list(
                self.instance.roster_skills.filter(source=TeamSkill.Source.CHOSEN).values_list(
                    "skill", flat=True
                )
            )

    def service_save(self) -> Team:
        data = self.cleaned_data
        team = _saved(Team, self.instance)
        skills = list(data.get("skills") or [])
        if team is None:
            values: dict[str, Any] = {f: data[f] for f in TEAM_SETTINGS if f in data and f != "withdrawn"}
            team = team_create(competition=data["competition"], **values)
            if skills:
                team_skills_set(team=team, skills=skills)
            return team
        return team_update(
            team=team,
            skills=skills if "skills" in self.changed_data else None,
            **self.changes(TEAM_SETTINGS),
        )


class CompetitionForm(ServiceForm):
    """Advanced rules as checkboxes, the tie-break order as ordered choices; the services check both.

    The advanced rules offered are the game system's own (rulebook 3's A1-A13 for FUBA 3, rulebook
    2.0's A1-A6 for FUBA 2, none for the others): the game system posted, else the stored one, else
    the one the add page was opened with (``?game_system=fuba-2``)."""

    advanced_rules = forms.MultipleChoiceField(
        choices=advanced_rule_choices(FUBA_3),
        widget=forms.CheckboxSelectMultiple,
        required=False,
    )
    discipline_change: DisciplineChange | None = None

    class Meta:
        model = Competition
        fields = [
            f.name
            for f in Competition._meta.get_fields()
            if getattr(f, "editable", False)
            and f.concrete
            and f.name not in ("id", "tiebreak_order", "status")
        ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._offer_advanced_rules()
        current = list(self.instance.tiebreak_order or []) if self.instance.pk else []
        choices = [("", "—")] + [(key, c.label.capitalize()) for key, c in CRITERIA.items()]
        for i in range(TIEBREAK_SLOTS):
            self.fields[f"tiebreak_{i + 1}"] = forms.ChoiceField(
                choices=choices,
                required=False,
                initial=current[i] if i < len(current) else "",
                label=f"Tie-break {i + 1}",
                help_text="Custom order only: 1 must be Points; leave the rest empty when done"
                if i == 0
                else "",
            )
        if "yellow_wipe_after_stage" in self.fields:
            field = self.fields["yellow_wipe_after_stage"]
            field.queryset = (  # type: ignore[attr-defined]
                Stage.objects.filter(competition=self.instance) if self.instance.pk else Stage.objects.none()
            )
        if self.instance.pk and "slug" in self.fields:
            self.fields["slug"].disabled = True  # the competition's address stays

    def _offer_advanced_rules(self) -> None:
        posted = self.data.get("game_system") if self.is_bound else None
        code = posted or (self.instance.game_system if self.instance.pk else None)
        code = code or self.initial.get("game_system") or FUBA_3
        if code not in Competition.GameSystem.values:
            code = FUBA_3  # the game system field refuses it itself
        game = game_system_rules(code)
        field = self.fields["advanced_rules"]
        field.choices = advanced_rule_choices(code)  # type: ignore[attr-defined]
        field.help_text = (
            f"Advanced rules of the {game.rulebook} in force (change the game system and save to see "
            "another game's)"
            if game.advanced_rules
            else f"{game.name} has no advanced rules"
        )

    def tiebreak_order(self) -> list[str]:
        picked = [self.cleaned_data.get(f"tiebreak_{i + 1}") or "" for i in range(TIEBREAK_SLOTS)]
        while picked and not picked[-1]:
            picked.pop()
        return picked

    def clean(self) -> dict[str, Any]:
        if "" in self.tiebreak_order():
            self.add_error("tiebreak_1", "Fill the tie-break criteria without gaps.")
        return super().clean()

    def service_save(self) -> Competition:
        data = self.cleaned_data
        values = {f: data[f] for f in COMPETITION_SETTINGS if f in data}
        values["tiebreak_order"] = self.tiebreak_order()
        competition = _saved(Competition, self.instance)
        if competition is None:
            return competition_create(slug=data["slug"], **values)
        changes = {
            f: v for f, v in values.items() if f not in DISCIPLINE_SETTINGS and v != getattr(competition, f)
        }
        if changes:
            competition = competition_update(competition=competition, **changes)
        discipline = (*DISCIPLINE_SETTINGS, "yellow_wipe_after_stage")
        if any(f in self.changed_data for f in discipline):
            # The same call as the API's …/discipline: the settings and the bans rebuilt under them.
            self.discipline_change = competition_discipline_set(
                competition=competition,
                yellow_card_threshold=data["yellow_card_threshold"],
                red_card_ban_matches=data["red_card_ban_matches"],
                yellow_wipe_after_stage=data.get("yellow_wipe_after_stage"),
                cup_mode=data.get("cup_mode", False),
            )
        return competition


class StageForm(ServiceForm):
    # Who is saving (StageAdmin.get_form sets it), named on the competition's stage trail.
    acting_user: User | None = None
    teams = CompetitionTeamChoice(
        queryset=Team.objects.none(),
        required=False,
        widget=FilteredSelectMultiple("teams", is_stacked=False),
        help_text="Round robin, Swiss or a knockout with its own teams; only this competition's teams",
    )
    group_names = forms.CharField(
        required=False,
        help_text="A new group stage: its groups, e.g. 'A, B, C, D' (teams are added or drawn later)",
    )

    class Meta:
        model = Stage
        # the settings the stage services take, as one list (tournaments.services.stages)
        fields = ["competition", "order", "kind", *STAGE_SETTINGS, "teams"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        competition_id = self.instance.competition_id if self.instance.pk else None
        competition_id = competition_id or int_or_none(
            self.data.get("competition") or self.initial.get("competition")
        )
        limit_teams(self.fields["teams"], competition_id)
        if "feeder" in self.fields:
            feeders = (
                Stage.objects.filter(competition_id=competition_id)
                if competition_id
                else Stage.objects.none()
            )
            self.fields["feeder"].queryset = feeders.exclude(pk=self.instance.pk)  # type: ignore[attr-defined]
        if self.instance.pk:
            self.fields["group_names"].disabled = True
            # A stage stays in its competition and keeps its kind (create a new stage instead).
            for name in ("competition", "kind"):
                if name in self.fields:
                    self.fields[name].disabled = True

    def service_save(self) -> Stage:
        data = self.cleaned_data
        stage = _saved(Stage, self.instance)
        settings = [f for f in (*STAGE_SETTINGS, "order") if f in data]
        if stage is None:
            values: dict[str, Any] = {f: data[f] for f in settings}
            if data["kind"] == Stage.Kind.GROUPS:
                # Empty groups, filled on their own pages or by a draw, each through its service.
                names = [n.strip() for n in (data.get("group_names") or "").split(",") if n.strip()]
                values["groups"] = {name: [] for name in names}
            return stage_create(
                competition=data["competition"],
                kind=data["kind"],
                teams=list(data.get("teams") or []),
                user=self.acting_user,
                **values,
            )
        teams = list(data["teams"]) if "teams" in self.changed_data else None
        return stage_update(stage=stage, teams=teams, user=self.acting_user, **self.changes(settings))


class GroupForm(ServiceForm):
    teams = CompetitionTeamChoice(
        queryset=Team.objects.none(),
        required=False,
        widget=FilteredSelectMultiple("teams", is_stacked=False),
        help_text="Only the teams of the stage's competition",
    )

    class Meta:
        model = Group
        fields = ["stage", "name", "teams"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        stage_id = self.instance.stage_id if self.instance.pk else None
        stage_id = stage_id or int_or_none(self.data.get("stage") or self.initial.get("stage"))
        stage = Stage.objects.filter(pk=stage_id).first() if stage_id else None
        limit_teams(self.fields["teams"], stage.competition_id if stage else None)
        if "stage" in self.fields:
            self.fields["stage"].queryset = Stage.objects.filter(kind=Stage.Kind.GROUPS).select_related(  # type: ignore[attr-defined]
                "competition"
            )
            if self.instance.pk:
                self.fields["stage"].disabled = True

    def service_save(self) -> Group:
        data = self.cleaned_data
        group = _saved(Group, self.instance)
        teams = list(data.get("teams") or [])
        if group is None:
            return group_create(stage=data["stage"], name=data["name"], teams=teams)
        return group_update(
            group=group,
            name=data["name"],
            teams=teams if "teams" in self.changed_data else None,
        )


class FixtureForm(ServiceForm):
    """Only when a fixture is played and its result due: the rest comes from fixture generation."""

    class Meta:
        model = Fixture
        fields = ["kickoff", "deadline"]

    def service_save(self) -> Fixture:
        return fixture_schedule(
            fixture_id=self.instance.pk,
            kickoff=self.cleaned_data.get("kickoff"),
            deadline=self.cleaned_data.get("deadline"),
        )


class WizardForm(forms.Form):
    name = forms.CharField(max_length=160)
    slug = forms.SlugField(max_length=80, help_text="The competition's address: /c/<slug>/")
    format = forms.ChoiceField(choices=[(f.key, f.label) for f in FORMATS.values()], widget=forms.RadioSelect)
    teams = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 12, "cols": 60}),
        required=False,
        help_text="One team a line, strongest first: name, country, club (country and club optional). "
        "Group formats draw the groups from pots in this order; leave empty to enter teams later.",
    )
    seed = forms.IntegerField(
        min_value=0, max_value=2**63 - 1, required=False, help_text="Repeat a draw; random if empty"
    )

    def team_rows(self) -> list[dict[str, str]]:
        rows = []
        for line in (self.cleaned_data.get("teams") or "").splitlines():
            parts = [p.strip() for p in line.split(",")]
            if not parts[0]:
                continue
            row = {"name": parts[0]}
            if len(parts) > 1 and parts[1]:
                row["country"] = parts[1]
            if len(parts) > 2 and parts[2]:
                row["club"] = parts[2]
            rows.append(row)
        return rows

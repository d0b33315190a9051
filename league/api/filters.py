"""django-filter sets for the list endpoints."""

from __future__ import annotations

from typing import Any

import django_filters
from django import forms
from django.db.models import Q, QuerySet
from drf_spectacular.utils import extend_schema_field

from tournaments.models import Coach, Fixture, Skill, Stage, Suspension, Team

ID_MIN, ID_MAX = -(2**63), 2**63 - 1


class IdFilter(django_filters.NumberFilter):
    """A row id: a whole number a 64-bit key can hold.

    NumberFilter alone reads a Decimal, which would let `1.5` match id 1 and hand SQLite a number it
    cannot bind ("Python int too large"): whole numbers in the 64-bit range only, else a 400 that
    names the parameter.
    """

    field_class = forms.IntegerField

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("min_value", ID_MIN)
        kwargs.setdefault("max_value", ID_MAX)
        super().__init__(*args, **kwargs)
        # Documented with its bounds; an explicit schema drops the help text, so it goes in here.
        schema: dict[str, Any] = {"type": "integer", "format": "int64", "minimum": ID_MIN, "maximum": ID_MAX}
        if self.extra.get("help_text"):
            schema["description"] = self.extra["help_text"]
        extend_schema_field(schema)(self)

    def get_max_validator(self) -> None:
        return None


class FixtureFilter(django_filters.FilterSet):
    competition = django_filters.CharFilter(field_name="competition__slug", help_text="Competition slug")
    stage = IdFilter(field_name="stage_id")
    group = django_filters.CharFilter(field_name="group__name", help_text="Group name, e.g. A")
    round = IdFilter(help_text="Round number")  # a whole number: `1.5` matched round 1
    team = IdFilter(method="filter_team", help_text="Team id, home or away")
    status = django_filters.MultipleChoiceFilter(choices=Fixture.Status.choices)
    date = django_filters.DateFilter(field_name="kickoff", lookup_expr="date", help_text="Kick-off date")
    date_from = django_filters.DateFilter(field_name="kickoff", lookup_expr="date__gte")
    date_to = django_filters.DateFilter(field_name="kickoff", lookup_expr="date__lte")

    class Meta:
        model = Fixture
        fields = ["competition", "stage", "group", "round", "team", "status", "date", "date_from", "date_to"]

    def filter_team(self, queryset: QuerySet[Fixture], name: str, value: int) -> QuerySet[Fixture]:
        return queryset.filter(Q(home_team_id=value) | Q(away_team_id=value))


class TeamFilter(django_filters.FilterSet):
    competition = django_filters.CharFilter(field_name="competition__slug")
    coach = IdFilter(field_name="coach_id")
    club = IdFilter(field_name="club_id")
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Team
        fields = ["competition", "coach", "club", "name", "withdrawn"]


class StageFilter(django_filters.FilterSet):
    competition = django_filters.CharFilter(field_name="competition__slug")

    class Meta:
        model = Stage
        fields = ["competition", "kind", "status"]


class CoachFilter(django_filters.FilterSet):
    name = django_filters.CharFilter(lookup_expr="icontains")

    class Meta:
        model = Coach
        fields = ["name", "country", "club"]


class SkillFilter(django_filters.FilterSet):
    class Meta:
        model = Skill
        fields = ["position_group", "counts_as_two", "restriction"]


class SuspensionFilter(django_filters.FilterSet):
    competition = django_filters.CharFilter(field_name="competition__slug")
    team = IdFilter(field_name="team_id")
    served = django_filters.BooleanFilter(field_name="served_in", lookup_expr="isnull", exclude=True)

    class Meta:
        model = Suspension
        fields = ["competition", "team", "reason", "served"]

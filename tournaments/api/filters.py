"""django-filter sets for the list endpoints."""

from __future__ import annotations

import django_filters
from django.db.models import Q, QuerySet

from tournaments.models import Coach, Fixture, Skill, Stage, Suspension, Team


class FixtureFilter(django_filters.FilterSet):
    competition = django_filters.CharFilter(field_name="competition__slug", help_text="Competition slug")
    stage = django_filters.NumberFilter(field_name="stage_id")
    group = django_filters.CharFilter(field_name="group__name", help_text="Group name, e.g. A")
    round = django_filters.NumberFilter()
    team = django_filters.NumberFilter(method="filter_team", help_text="Team id, home or away")
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
    coach = django_filters.NumberFilter(field_name="coach_id")
    club = django_filters.NumberFilter(field_name="club_id")
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
    team = django_filters.NumberFilter(field_name="team_id")
    served = django_filters.BooleanFilter(field_name="served_in", lookup_expr="isnull", exclude=True)

    class Meta:
        model = Suspension
        fields = ["competition", "team", "reason", "served"]

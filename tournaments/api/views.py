"""Read endpoints for competitions data; staff write endpoints delegate to services."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from rest_framework import viewsets
from rest_framework.routers import BaseRouter

from tournaments.api import filters, serializers
from tournaments.api.permissions import ReadOnlyOrStaff
from tournaments.models import (
    Club,
    Coach,
    Competition,
    Fixture,
    Group,
    Skill,
    Stage,
    Suspension,
    Team,
    TeamSkill,
)


class CompetitionViewSet(viewsets.ReadOnlyModelViewSet):
    """Competitions with their stages; look up by slug."""

    serializer_class = serializers.CompetitionSerializer
    permission_classes = [ReadOnlyOrStaff]
    lookup_field = "slug"
    filterset_fields = ["status", "game_system", "is_world_cup"]

    def get_queryset(self) -> QuerySet[Competition]:
        return Competition.objects.prefetch_related(
            Prefetch("stages", queryset=Stage.objects.order_by("order"))
        ).order_by("-created_at", "id")


class StageViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.StageSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.StageFilter

    def get_queryset(self) -> QuerySet[Stage]:
        return (
            Stage.objects.select_related("competition")
            .prefetch_related(
                Prefetch("groups", queryset=Group.objects.prefetch_related("teams").order_by("name"))
            )
            .order_by("competition_id", "order")
        )


class GroupViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.GroupSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_fields = ["stage"]

    def get_queryset(self) -> QuerySet[Group]:
        return Group.objects.prefetch_related("teams").order_by("stage_id", "name")


class TeamViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.TeamSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.TeamFilter

    def get_queryset(self) -> QuerySet[Team]:
        return (
            Team.objects.select_related("competition", "coach__club", "club")
            .prefetch_related(Prefetch("roster_skills", queryset=TeamSkill.objects.select_related("skill")))
            .order_by("competition_id", "name")
        )


class CoachViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.CoachSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.CoachFilter

    def get_queryset(self) -> QuerySet[Coach]:
        return Coach.objects.select_related("club").order_by("name", "id")


class ClubViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.ClubSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_fields = ["country"]
    queryset = Club.objects.order_by("name")


class SkillViewSet(viewsets.ReadOnlyModelViewSet):
    """The A11 skill catalog."""

    serializer_class = serializers.SkillSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.SkillFilter
    queryset = Skill.objects.order_by("position_group", "name")


class SuspensionViewSet(viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.SuspensionSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.SuspensionFilter

    def get_queryset(self) -> QuerySet[Suspension]:
        return Suspension.objects.select_related("competition", "team", "served_in").order_by(
            "competition_id", "team_id", "created_at", "id"
        )


def fixture_queryset() -> QuerySet[Fixture]:
    return Fixture.objects.select_related(
        "competition", "group", "home_team", "away_team", "result"
    ).order_by("competition_id", "stage__order", "round", "match_number", "leg", "id")


def register(router: BaseRouter) -> None:
    router.register("competitions", CompetitionViewSet, basename="competition")
    router.register("stages", StageViewSet, basename="stage")
    router.register("groups", GroupViewSet, basename="group")
    router.register("teams", TeamViewSet, basename="team")
    router.register("coaches", CoachViewSet, basename="coach")
    router.register("clubs", ClubViewSet, basename="club")
    router.register("skills", SkillViewSet, basename="skill")
    router.register("suspensions", SuspensionViewSet, basename="suspension")

"""Read endpoints for competitions data; staff write endpoints delegate to services."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.core.validators import slug_re
from django.db.models import Prefetch, QuerySet
from django.http import HttpResponse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import BaseRouter

from kernel.auth import signed_in_user
from kernel.errors import NotFound
from league.api import filters, serializers, setup_serializers
from league.api.permissions import CompetitionAction, ReadOnlyOrStaff, StaffWithPerms
from league.api.role_views import RolesMixin
from league.api.setup_views import (
    ClubSetupMixin,
    CoachSetupMixin,
    CompetitionSetupMixin,
    GroupSetupMixin,
    StageSetupMixin,
    TeamSetupMixin,
)
from matches import progress
from matches.standings import cache, presentation
from matches.standings import services as standings_services
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
from tournaments.services.scheduling import fixture_generate


class CompetitionViewSet(RolesMixin, CompetitionSetupMixin, viewsets.ReadOnlyModelViewSet):
    """Competitions with their stages; look up by slug."""

    serializer_class = serializers.CompetitionSerializer
    permission_classes = [ReadOnlyOrStaff]
    lookup_field = "slug"
    filterset_fields = ["status", "game_system", "is_world_cup"]

    def get_queryset(self) -> QuerySet[Competition]:
        return Competition.objects.prefetch_related(
            Prefetch("stages", queryset=Stage.objects.order_by("order"))
        ).order_by("-created_at", "id")

    def get_object(self) -> Competition:
        _slug_or_404(self.kwargs.get(self.lookup_field) or "")
        return super().get_object()

    def get_permissions(self) -> Sequence[Any]:
        if self.action == "recompute_standings":
            # As the admin's standings page: recomputing changes the competition's tables.
            return [StaffWithPerms("tournaments.change_competition")]
        return super().get_permissions()

    @extend_schema(responses=serializers.StandingsTableSerializer(many=True))
    # A plain list of tables: no pagination and no list filters (the schema said both).
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def standings(self, request: Request, slug: str | None = None) -> HttpResponse:
        """Every league/group table of the competition, with the tie-break that decided each place.

        Served from the standings cache (recomputed only after a result changes): a warm request
        runs no query and one cache round trip.
        """
        slug = _slug_or_404(slug or "")
        body = cache.by_slug(slug, "api-json", lambda: self._tables_json(slug))
        # Cached already rendered: the renderer would redo identical work on every request.
        return HttpResponse(body, content_type="application/json")

    def _tables_json(self, slug: str) -> bytes:
        competition = Competition.objects.filter(slug=slug).first()
        if competition is None:
            raise NotFound(f"No competition '{slug}'.")
        tables = [t.as_dict() for t in presentation.compute_competition_tables(competition)]
        return JSONRenderer().render(tables)

    @extend_schema(request=None, responses={200: serializers.StandingsTableSerializer(many=True)})
    # Answers a plain list; no list filters either (they also narrowed the lookup: a stray ?kind= gave a 404).
    @action(
        detail=True,
        methods=["post"],
        url_path="recompute-standings",
        pagination_class=None,
        filter_backends=[],
    )
    def recompute_standings(self, request: Request, slug: str | None = None) -> Response:
        """Staff: recompute every table, drawing (and recording) lots where teams are still level."""
        competition = self.get_object()
        standings_services.standings_recompute(competition=competition, user=signed_in_user(request.user))
        return Response([t.as_dict() for t in presentation.competition_tables(competition)])


def _slug_or_404(slug: str) -> str:
    # Anything but a slug names no competition; PostgreSQL refuses a NUL in the query, and the
    # standings cache keeps no entry for such a name.
    if not slug_re.match(slug):
        raise NotFound(f"No competition '{slug}'.")
    return slug


class StageViewSet(StageSetupMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.StageSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.StageFilter

    def get_permissions(self) -> Sequence[Any]:
        if self.action in ("generate_fixtures", "next_swiss_round"):
            return [CompetitionAction("setup", "tournaments.change_stage", "tournaments.add_fixture")]
        return super().get_permissions()

    @extend_schema(
        request=setup_serializers.ScheduleSerializer,
        responses={
            201: serializers.FixtureSerializer(many=True),
            400: OpenApiResponse(description="Invalid schedule: {error: {code, message, details}}"),
            409: OpenApiResponse(description="Already generated"),
        },
    )
    # Answers a plain list; no list filters either (they also narrowed the lookup: a stray ?kind= gave a 404).
    @action(
        detail=True, methods=["post"], url_path="generate-fixtures", pagination_class=None, filter_backends=[]
    )
    def generate_fixtures(self, request: Request, pk: str | None = None) -> Response:
        """Staff: create the stage's fixtures (round robin, groups, knockout bracket, or Swiss round 1)."""
        stage = self.get_object()
        data = setup_serializers.ScheduleSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        created = fixture_generate(stage=stage, **data.validated_data)
        fixtures = fixture_queryset().filter(pk__in=[f.pk for f in created])
        return Response(
            serializers.FixtureSerializer(fixtures, many=True).data, status=status.HTTP_201_CREATED
        )

    @extend_schema(
        request=None,
        responses={
            201: serializers.FixtureSerializer(many=True),
            400: OpenApiResponse(description="Not a Swiss stage"),
            409: OpenApiResponse(description="All rounds paired, the current one unfinished, or no pairing"),
        },
    )
    # Answers a plain list; no list filters either (they also narrowed the lookup: a stray ?kind= gave a 404).
    @action(
        detail=True, methods=["post"], url_path="next-swiss-round", pagination_class=None, filter_backends=[]
    )
    def next_swiss_round(self, request: Request, pk: str | None = None) -> Response:
        """Staff: pair the next Swiss round once the previous one is complete."""
        stage = self.get_object()
        created = progress.swiss_round_generate(stage=stage)
        fixtures = fixture_queryset().filter(pk__in=[f.pk for f in created])
        return Response(
            serializers.FixtureSerializer(fixtures, many=True).data, status=status.HTTP_201_CREATED
        )

    def get_queryset(self) -> QuerySet[Stage]:
        return (
            Stage.objects.select_related("competition")
            .prefetch_related(
                Prefetch("groups", queryset=Group.objects.prefetch_related("teams").order_by("name")),
                "teams",
            )
            .order_by("competition_id", "order")
        )


class GroupViewSet(GroupSetupMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.GroupSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_fields = ["stage"]

    def get_queryset(self) -> QuerySet[Group]:
        return Group.objects.prefetch_related("teams").order_by("stage_id", "name")


class TeamViewSet(TeamSetupMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.TeamSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.TeamFilter

    def get_queryset(self) -> QuerySet[Team]:
        return (
            Team.objects.select_related("competition", "coach__club", "club")
            .prefetch_related(Prefetch("roster_skills", queryset=TeamSkill.objects.select_related("skill")))
            .order_by("competition_id", "name")
        )


class CoachViewSet(CoachSetupMixin, viewsets.ReadOnlyModelViewSet):
    serializer_class = serializers.CoachSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.CoachFilter

    def get_queryset(self) -> QuerySet[Coach]:
        return Coach.objects.select_related("club").order_by("name", "id")


class ClubViewSet(ClubSetupMixin, viewsets.ReadOnlyModelViewSet):
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

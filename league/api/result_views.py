"""Fixtures, results and turn logs: public reads, the clubs' results workflow, staff actions.

Each write action validates its input with a serializer and calls one service of matches.services
(or matches.forfeits); the services check who may act and raise ApplicationError, which
kernel.api_errors turns into the documented error body.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import BaseRouter
from rest_framework.settings import api_settings
from rest_framework.throttling import UserRateThrottle

from kernel.auth import signed_in_user
from kernel.errors import NotFound
from league.api import filters
from league.api import result_serializers as ms
from league.api.permissions import (
    CompetitionAction,
    FixtureParticipantOrStaff,
    ReadOnlyOrStaff,
    is_staff,
    staff_can,
)
from league.api.serializers import FixtureSerializer
from league.api.views import fixture_queryset
from matches import forfeits, selectors, services
from matches.models import MatchLog, PointAdjustment, ResultSubmission
from matches.standings.services import points_adjust
from matches.turn_logs import validate_turn_log
from tournaments.bracket import Score
from tournaments.models import Fixture, Team
from tournaments.services.venue import fixture_check_in

# The admin changes a fixture's result with this permission (resolve view, forfeit action).
CHANGE_FIXTURE = "tournaments.change_fixture"

ERRORS = {
    400: OpenApiResponse(description="Invalid input: {error: {code, message, details}}"),
    403: OpenApiResponse(description="Not allowed: {error: {code, message, details}}"),
    404: OpenApiResponse(description="No such fixture"),
    409: OpenApiResponse(description="The fixture's state does not allow this action"),
}


class FixtureViewSet(viewsets.ReadOnlyModelViewSet):
    """Fixtures, filterable by competition, stage, group, round, team, status and date.

    Write actions: the results workflow for the two clubs of a fixture (submit, confirm, dispute),
    and staff actions (resolve a dispute, override, declare a forfeit).
    """

    serializer_class = FixtureSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.FixtureFilter

    def get_queryset(self) -> QuerySet[Fixture]:
        return fixture_queryset()

    def get_permissions(self) -> Sequence[Any]:
        if self.action in ("submit_result", "confirm", "dispute", "forfeit"):
            return [FixtureParticipantOrStaff()]
        # The competition's roles decide, by the rule the console and the services apply.
        if self.action in ("resolve", "override"):
            return [CompetitionAction("results", CHANGE_FIXTURE)]
        if self.action in ("clear", "award", "void"):
            return [CompetitionAction("correct", CHANGE_FIXTURE)]
        return super().get_permissions()

    def _fixture(self) -> Fixture:
        # get_object() runs the object permission check (own fixtures only) before any service call.
        return self.get_object()

    def _done(self, fixture_id: int, http_status: int = status.HTTP_200_OK) -> Response:
        fixture = fixture_queryset().get(pk=fixture_id)
        return Response(FixtureSerializer(fixture).data, status=http_status)

    @extend_schema(
        request=ms.SubmitResultSerializer,
        responses={
            201: ms.SubmissionSerializer,
            202: OpenApiResponse(
                ms.SubmissionSerializer,
                description="Stored, but its turn log could not be queued for validation yet "
                "(task queue down): validation_status stays 'pending' until the sweep queues it.",
            ),
            **ERRORS,
        },
    )
    @action(detail=True, methods=["post"], url_path="submit-result")
    def submit_result(self, request: Request, pk: str | None = None) -> Response:
        """Submit the score (and cards, and optionally the turn log) of one of your club's fixtures."""
        fixture = self._fixture()
        data = ms.SubmitResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        submitted = services.result_submit(
            fixture_id=fixture.pk,
            user=signed_in_user(request.user),
            score=Score(
                v["home_goals"],
                v["away_goals"],
                extra_time=v["extra_time"],
                home_penalties=v.get("home_penalties"),
                away_penalties=v.get("away_penalties"),
            ),
            cards=v["cards"],
            turn_log=v.get("turn_log"),
            replace=v["replace"],
        )
        submission = submitted.submission
        submission.refresh_from_db()
        if submitted.resent:
            # The same report again (a retry after a timeout): the stored one, changed in nothing.
            return Response(ms.SubmissionSerializer(submission).data, status=status.HTTP_200_OK)
        if submitted.validation_queued is False:
            # Stored, but the task queue is down: the validation sweep queues it when it is back
            # (docs/reliability.md). 202: accepted, its validation still to come.
            return Response(ms.SubmissionSerializer(submission).data, status=status.HTTP_202_ACCEPTED)
        return Response(ms.SubmissionSerializer(submission).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: FixtureSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def confirm(self, request: Request, pk: str | None = None) -> Response:
        """The opponent confirms the submitted result; from then on it counts."""
        fixture = self._fixture()
        services.result_confirm(fixture_id=fixture.pk, user=signed_in_user(request.user))
        return self._done(fixture.pk)

    @extend_schema(request=ms.DisputeSerializer, responses={200: ms.SubmissionSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def dispute(self, request: Request, pk: str | None = None) -> Response:
        """The opponent disputes the submitted result; an administrator resolves it."""
        fixture = self._fixture()
        data = ms.DisputeSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        submission = services.result_dispute(
            fixture_id=fixture.pk,
            user=signed_in_user(request.user),
            reason=data.validated_data["reason"],
            cards=data.validated_data["cards"],
        )
        return Response(ms.SubmissionSerializer(submission).data)

    def _admin_result(self, request: Request, service: Any) -> Response:
        fixture = self._fixture()
        data = ms.AdminResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        service(
            fixture_id=fixture.pk,
            user=signed_in_user(request.user),
            score=Score(
                v["home_goals"],
                v["away_goals"],
                extra_time=v["extra_time"],
                home_penalties=v.get("home_penalties"),
                away_penalties=v.get("away_penalties"),
            ),
            cards=v["cards"],
            note=v["note"],
            **({"reopen": v["reopen"]} if service is services.result_override else {}),
        )
        return self._done(fixture.pk)

    @extend_schema(request=ms.AdminResultSerializer, responses={200: FixtureSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def resolve(self, request: Request, pk: str | None = None) -> Response:
        """Staff: settle a disputed result."""
        return self._admin_result(request, services.result_resolve)

    @extend_schema(request=ms.AdminResultSerializer, responses={200: FixtureSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def override(self, request: Request, pk: str | None = None) -> Response:
        """Staff: set or correct any result (a note saying why is required)."""
        return self._admin_result(request, services.result_override)

    @extend_schema(request=ms.ClearResultSerializer, responses={200: FixtureSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def clear(self, request: Request, pk: str | None = None) -> Response:
        """Staff: remove a result (the fixture is scheduled again); standings, slots and bans follow.

        If later fixtures were played with the old outcome it answers 409 with them in
        details.fixtures, unless `reopen` is true: then they are cleared as well.
        """
        return self._note_and_reopen(request, services.result_clear)

    @extend_schema(request=ms.ClearResultSerializer, responses={200: FixtureSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def void(self, request: Request, pk: str | None = None) -> Response:
        """Staff: void the match: not played, it counts for nothing, for either side.

        Its result and cards go; standings, suspensions and skills follow. A knockout match cannot
        be void (409: award or clear it instead). Later fixtures played with the old outcome: 409
        with them in details.fixtures, unless `reopen` is true. `clear` puts it back on the schedule.
        """
        return self._note_and_reopen(request, services.result_void)

    def _note_and_reopen(self, request: Request, service: Callable[..., Any]) -> Response:
        """Clear and void take the same body (a note; reopen the later fixtures or not)."""
        fixture = self._fixture()
        data = ms.ClearResultSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        service(
            fixture_id=fixture.pk,
            user=signed_in_user(request.user),
            note=data.validated_data["note"],
            reopen=data.validated_data["reopen"],
        )
        return self._done(fixture.pk)

    @extend_schema(request=ms.AwardSerializer, responses={200: FixtureSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def award(self, request: Request, pk: str | None = None) -> Response:
        """Staff: award the match to `team_id` (no-show) with the competition's award score."""
        fixture = self._fixture()
        data = ms.AwardSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        services.result_award(
            fixture_id=fixture.pk,
            user=signed_in_user(request.user),
            team_id=v["team_id"],
            note=v["note"],
            reopen=v["reopen"],
        )
        return self._done(fixture.pk)

    @extend_schema(request=ms.ForfeitSerializer, responses={200: FixtureSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def forfeit(self, request: Request, pk: str | None = None) -> Response:
        """Declare a forfeit: a club gives up its fixture, or staff have it simulated now.

        The competition's forfeit policy decides the result (simulated by the rules engine, or
        awarded); the work runs in a Celery task, so the fixture shows 'being simulated' first.
        """
        fixture = self._fixture()
        data = ms.ForfeitSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        if staff_can(request, CHANGE_FIXTURE):
            forfeits.forfeit_simulate_now(fixture_id=fixture.pk, user=signed_in_user(request.user))
        else:
            forfeits.forfeit_declare(
                fixture_id=fixture.pk,
                user=signed_in_user(request.user),
                team_id=data.validated_data.get("team_id"),
            )
        return self._done(fixture.pk)

    @extend_schema(request=ms.CheckInSerializer, responses={200: ms.CheckInOutSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="check-in", permission_classes=[IsAuthenticated])
    def check_in(self, request: Request, pk: str | None = None) -> Response:
        """A club checks its team in at the venue before the round (docs/venue.md); the service
        checks that the user is a member of the team's club (or runs the competition's results).
        Checking in twice keeps the first check-in."""
        data = ms.CheckInSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        done = fixture_check_in(
            fixture_id=int(pk) if pk and pk.isdigit() else 0,
            user=signed_in_user(request.user),
            team_id=data.validated_data.get("team_id"),
        )
        return Response(ms.CheckInOutSerializer(done).data)

    @extend_schema(responses={200: ms.AuditSerializer(many=True)})
    # One fixture's whole trail as a plain list: no pagination and no list filters (the schema said both).
    @action(
        detail=True, methods=["get"], permission_classes=[AllowAny], pagination_class=None, filter_backends=[]
    )
    def audit(self, request: Request, pk: str | None = None) -> Response:
        """The audit trail of the fixture's result.

        The two clubs and staff see all of it (who changed what, when, before and after); anyone
        else sees the results that counted and the overrides with their note, without names.
        """
        fixture = self.get_object()
        if selectors.audit_trail_is_full_for(fixture=fixture, user=request.user):
            return Response(ms.AuditSerializer(selectors.audit_trail(fixture=fixture), many=True).data)
        entries = selectors.audit_trail_public(fixture=fixture)
        return Response(ms.PublicAuditSerializer(entries, many=True).data)


class MatchViewSet(viewsets.ReadOnlyModelViewSet):
    """Matches: a fixture with its full result, cards and public turn logs."""

    serializer_class = ms.MatchSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_class = filters.FixtureFilter

    def get_queryset(self) -> QuerySet[Fixture]:
        return fixture_queryset().prefetch_related(
            "result__cards__team",
            Prefetch(
                "match_logs",
                queryset=selectors.match_logs_for(user=self.request.user).order_by("-created_at"),
                to_attr="public_logs",
            ),
        )


class MatchLogViewSet(viewsets.ReadOnlyModelViewSet):
    """Turn logs of matches that count: simulated and confirmed ones (docs/reliability.md).

    The two clubs of a fixture and staff also read the logs of a result still to be confirmed.
    """

    serializer_class = ms.MatchLogSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_fields = ["fixture", "is_simulated"]

    def get_queryset(self) -> QuerySet[MatchLog]:
        return selectors.match_logs_for(user=self.request.user).order_by("-created_at", "-id")


class SubmissionViewSet(viewsets.ReadOnlyModelViewSet):
    """Result submissions, with the rules engine's verdict on their turn logs (turn/stage/rule/reason).

    Staff see all; a club member sees the submissions of their clubs' fixtures.
    """

    serializer_class = ms.SubmissionSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = ["fixture", "status", "validation_status"]

    def get_queryset(self) -> QuerySet[ResultSubmission]:
        qs = ResultSubmission.objects.select_related("team", "submitted_by").prefetch_related("match_log")
        if getattr(self, "swagger_fake_view", False):
            return qs.none()
        if not is_staff(self.request):
            clubs = self.request.user.fuba_clubs.all()  # type: ignore[union-attr]
            qs = qs.filter(Q(fixture__home_team__club__in=clubs) | Q(fixture__away_team__club__in=clubs))
        return qs.order_by("-created_at", "-id")


class TurnLogValidationThrottle(UserRateThrottle):
    """Replaying a whole match costs CPU: each account gets a modest rate of its own.

    The rate can be set as REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["turn_log_validation"].
    """

    scope = "turn_log_validation"
    default_rate = "30/minute"

    def get_rate(self) -> str:
        rates = api_settings.DEFAULT_THROTTLE_RATES or {}
        return str(rates.get(self.scope) or self.default_rate)


class TurnLogValidationViewSet(mixins.CreateModelMixin, viewsets.GenericViewSet):
    """Check a turn log with the rules engine without submitting it (for clubs' own tools)."""

    permission_classes = [IsAuthenticated]
    serializer_class = ms.TurnLogSerializer

    def get_throttles(self) -> list[Any]:
        return [*super().get_throttles(), TurnLogValidationThrottle()]

    @extend_schema(
        request=ms.TurnLogSerializer,
        responses={
            200: inline_serializer(
                "TurnLogValid", {"valid": serializers.BooleanField(), "result": serializers.DictField()}
            ),
            422: OpenApiResponse(
                description="Invalid log: {error: {code: invalid_turn_log, "
                "details: {errors: [{turn, stage, rule, reason, path}]}}}"
            ),
        },
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        data = ms.TurnLogSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response({"valid": True, "result": validate_turn_log(data.validated_data["turn_log"])})


class PointAdjustmentViewSet(mixins.CreateModelMixin, viewsets.ReadOnlyModelViewSet):
    """Points deducted from or added to teams by the organisers, with the reason (public list)."""

    serializer_class = ms.PointAdjustmentSerializer
    permission_classes = [ReadOnlyOrStaff]
    filterset_fields = ["competition", "team"]

    def get_queryset(self) -> QuerySet[PointAdjustment]:
        return PointAdjustment.objects.select_related("team", "competition").order_by("created_at", "id")

    def get_permissions(self) -> Sequence[Any]:
        if self.action == "create":
            # Signed in; points_adjust applies the one rule of roles (organisers, or staff with
            # matches.add_pointadjustment) to the team's competition.
            return [IsAuthenticated()]
        return super().get_permissions()

    @extend_schema(
        request=ms.PointAdjustmentInputSerializer, responses={201: ms.PointAdjustmentSerializer, **ERRORS}
    )
    def create(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        """Staff: deduct (negative points) or add points to a team, with the reason."""
        data = ms.PointAdjustmentInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        team = Team.objects.filter(pk=data.validated_data["team_id"]).first()
        if team is None:
            raise NotFound(f"No team {data.validated_data['team_id']}.")
        adjustment = points_adjust(
            team=team,
            points=data.validated_data["points"],
            reason=data.validated_data["reason"],
            user=signed_in_user(request.user),
        )
        return Response(ms.PointAdjustmentSerializer(adjustment).data, status=status.HTTP_201_CREATED)


def register(router: BaseRouter) -> None:
    router.register("fixtures", FixtureViewSet, basename="fixture")
    router.register("matches", MatchViewSet, basename="match")
    router.register("match-logs", MatchLogViewSet, basename="matchlog")
    router.register("submissions", SubmissionViewSet, basename="submission")
    router.register("point-adjustments", PointAdjustmentViewSet, basename="pointadjustment")
    router.register("turn-logs/validate", TurnLogValidationViewSet, basename="turnlog-validate")

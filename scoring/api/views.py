"""/api/v1/scoring-sessions: score a fixture live (start, state, event, undo, finish, abandon).

Everyone reads a session while it is played (from full time until the fixture's result counts,
the two clubs and staff only: selectors.readable_by); only members of the two clubs (and staff)
write, which the services check. A refused write answers the documented error body; a post that
does not extend the stored head (409 stale_head) carries what the store holds since and the current
state in ``details`` so a client catches up without another request.
"""

from __future__ import annotations

from typing import Any, cast

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.authentication import BaseAuthentication, TokenAuthentication
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.routers import BaseRouter
from rest_framework.settings import api_settings

from kernel.auth import signed_in_user
from kernel.errors import ApplicationError, NotFound, PermissionDenied
from kernel.token_auth import TokenSQLAuthentication
from matches.selectors import audit_trail_is_full_for
from scoring import branches, selectors, services, taps
from scoring.api import serializers as ss
from scoring.models import ScoringSession

UNCONFIRMED = "The match is over; its result and log are public once the clubs have confirmed it."
ERRORS = {
    400: OpenApiResponse(description="Invalid input: {error: {code, message, details}}"),
    403: OpenApiResponse(description="Not a member of either club"),
    404: OpenApiResponse(description="No such session or fixture"),
    409: OpenApiResponse(
        description="The post does not extend the stored head (code stale_head: details head, seq, "
        "after_seq, stored_since, state) or the session's status forbids it"
    ),
}
ILLEGAL = {
    422: OpenApiResponse(
        description="The rules forbid the event here "
        "(code illegal_event; details: index, client_id, turn, stage, rule, reason) "
        "or it is not a fuba-log/1 event (malformed_event); nothing of the tap stored"
    )
}


def _state(session_id: int) -> dict[str, Any]:
    return selectors.session_state(selectors.session_get(session_id=session_id))


def _check_readable(session: ScoringSession, user: Any) -> None:
    """403 with the status and teams only, for a result private to the clubs and staff."""
    if not selectors.readable_by(session, user=user):
        raise PermissionDenied(
            UNCONFIRMED, code="result_unconfirmed", details=selectors.private_summary(session)
        )


def _refuse_old_client(data: Any) -> None:
    """A body without ``after`` comes from a page older than the tap protocol (issue 31)."""
    if not isinstance(data, dict) or "after" not in data:
        raise ApplicationError(
            "This page is older than the server: every post now names the stored event it builds "
            "on ('after'). Reload the page; taps saved on this phone are kept.",
            code="invalid",
            details={"after": ["Required: the client_id of the stored event this post extends."]},
        )


def _pk(pk: str | None) -> int:
    try:
        value = int(pk or "")
    except ValueError:
        value = 0
    if not 0 < value < 2**63:
        raise NotFound(f"No scoring session {pk}.")
    return value


class ScoringSessionViewSet(viewsets.ViewSet):
    """Live scoring sessions (docs/scorer-internals.md)."""

    # Only for the schema (the id's type); every action reads through scoring.selectors/services.
    queryset = ScoringSession.objects.none()
    # The API's ways in (settings.REST_FRAMEWORK), the token read by one prepared statement: a
    # phone posts a tap every few seconds a table (kernel/token_auth.py, issue 35).
    authentication_classes = [
        TokenSQLAuthentication if way is TokenAuthentication else way
        # (the stubs type the setting as its dotted names; DRF has imported them as classes)
        for way in cast("list[type[BaseAuthentication]]", api_settings.DEFAULT_AUTHENTICATION_CLASSES)
    ]

    def get_permissions(self) -> list[Any]:
        if self.action in ("retrieve", "log"):
            return [AllowAny()]
        return [IsAuthenticated()]

    def _with_state_on_conflict(self, session_id: int, call: Any) -> Any:
        try:
            return call()
        except selectors.StaleSequence as exc:
            exc.details = {**exc.details, "state": _state(session_id)}
            raise

    @extend_schema(request=ss.StartSerializer, responses={201: ss.SessionStateSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        """Start scoring a fixture (or resume the session already running for it)."""
        data = ss.StartSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = services.session_start(
            fixture_id=data.validated_data["fixture"],
            user=signed_in_user(request.user),
            app_dice=data.validated_data["app_dice"],
        )
        return Response(_state(session.id), status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: ss.SessionStateSerializer, 403: ERRORS[403], 404: ERRORS[404]})
    def retrieve(self, request: Request, pk: str | None = None) -> Response:
        """The session: state, the pending question with its options, recent events (public while
        the match is played; after full time the clubs and staff alone read it until the result
        counts)."""
        session = selectors.session_get(session_id=_pk(pk))
        _check_readable(session, request.user)
        return Response(selectors.session_state(session))

    @extend_schema(
        request=ss.TapSerializer,
        responses={201: ss.TapAnswerSerializer, 200: ss.TapAnswerSerializer, **ERRORS, **ILLEGAL},
    )
    @action(detail=True, methods=["post"])
    def events(self, request: Request, pk: str | None = None) -> Response:
        """Post one tap: its events in order, stored whole on top of the stored event ``after``, or
        not at all. A tap that repeats what is stored answers as stored (200, created false)."""
        session_id = _pk(pk)
        _refuse_old_client(request.data)
        data = ss.TapSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        answer = self._with_state_on_conflict(
            session_id,
            lambda: taps.tap_post(
                session_id=session_id,
                user=signed_in_user(request.user),
                tap_id=v["tap_id"],
                after=v["after"],
                after_seq=v["after_seq"],
                events=v["events"],
            ),
        )
        session = answer.session
        light = v["answer"] == "light"  # a phone whose own engine draws the match
        body = {
            "created": answer.created,
            "stored": answer.stored,
            "head": session.head,
            "seq": session.seq,
            "state": selectors.session_light(session) if light else selectors.session_state(session),
        }
        return Response(body, status=status.HTTP_201_CREATED if answer.created else status.HTTP_200_OK)

    @extend_schema(request=ss.UndoSerializer, responses={200: ss.SessionStateSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def undo(self, request: Request, pk: str | None = None) -> Response:
        """Take back the stored head (``after``: its client id, ``after_seq``: its seq). A resend
        of an undo already made answers the state as it is."""
        session_id = _pk(pk)
        _refuse_old_client(request.data)
        data = ss.UndoSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        session, _ = self._with_state_on_conflict(
            session_id,
            lambda: services.event_undo(
                session_id=session_id,
                user=signed_in_user(request.user),
                after=v["after"],
                after_seq=v["after_seq"],
                reason=v["reason"],
            ),
        )
        return Response(selectors.session_state(session))

    @extend_schema(request=ss.DiceSerializer, responses={200: ss.SessionStateSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def dice(self, request: Request, pk: str | None = None) -> Response:
        """Before the first event: app dice (the server rolls every roll) or dice typed in."""
        session_id = _pk(pk)
        data = ss.DiceSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = services.session_dice(
            session_id=session_id, user=signed_in_user(request.user), app_dice=data.validated_data["app_dice"]
        )
        return Response(selectors.session_state(session))

    @extend_schema(request=ss.FinishSerializer, responses={200: ss.SessionStateSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def finish(self, request: Request, pk: str | None = None) -> Response:
        """At full time, your club confirms the result (penalties only for a level knockout tie)."""
        session_id = _pk(pk)
        data = ss.FinishSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = services.session_confirm(
            session_id=session_id,
            user=signed_in_user(request.user),
            home_penalties=data.validated_data.get("home_penalties"),
            away_penalties=data.validated_data.get("away_penalties"),
        )
        return Response(selectors.session_state(session))

    @extend_schema(
        request=ss.SetupCheckSerializer, responses={200: ss.SetupCheckResultSerializer, **ERRORS, **ILLEGAL}
    )
    @action(detail=True, methods=["post"], url_path="setup-check")
    def setup_check(self, request: Request, pk: str | None = None) -> Response:
        """Check a set-up for the pending set-up decision (3.3.1) without storing anything: ok, and
        every problem in words (422 when no set-up is asked now)."""
        data = ss.SetupCheckSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        return Response(selectors.setup_check(session_id=_pk(pk), choice=data.validated_data["choice"]))

    @extend_schema(request=ss.AbandonSerializer, responses={200: ss.SessionStateSerializer, **ERRORS})
    @action(detail=True, methods=["post"])
    def abandon(self, request: Request, pk: str | None = None) -> Response:
        """Stop scoring this match (recorded with the reason)."""
        session_id = _pk(pk)
        data = ss.AbandonSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        session = services.session_abandon(
            session_id=session_id, user=signed_in_user(request.user), reason=data.validated_data["reason"]
        )
        return Response(selectors.session_state(session))

    @extend_schema(responses={200: ss.SessionLogSerializer, 404: ERRORS[404]})
    @action(detail=True, methods=["get"])
    def log(self, request: Request, pk: str | None = None) -> Response:
        """The header and every live event as stored, numbered, with client ids: what a phone's
        local engine replays before it scores (public while the match is played; after full time
        the clubs and staff alone read it until the result counts)."""
        session = selectors.session_get(session_id=_pk(pk))
        _check_readable(session, request.user)
        return Response(selectors.session_log(session))

    @extend_schema(
        methods=["GET"],
        request=None,
        responses={200: ss.SideBranchListSerializer, 403: ERRORS[403], 404: ERRORS[404]},
    )
    @extend_schema(
        methods=["POST"],
        request=ss.SideBranchSerializer,
        responses={
            201: ss.SideBranchAnswerSerializer,
            200: ss.SideBranchAnswerSerializer,
            **ERRORS,
            **ILLEGAL,
        },
    )
    @action(detail=True, methods=["get", "post"], url_path="side-branches")
    def side_branches(self, request: Request, pk: str | None = None) -> Response:
        """GET: the session's side branches (the two clubs and staff). POST: keep on record the
        taps a phone recorded offline on a stretch another device stored first (never applied;
        at most SCORER_SIDE_BRANCHES_PER_SESSION a session, counted toward the club's quota);
        answers what the phone tells its user and the state."""
        session_id = _pk(pk)
        if request.method == "GET":
            session = selectors.session_get(session_id=session_id)
            if not audit_trail_is_full_for(fixture=session.fixture, user=request.user):
                raise PermissionDenied("Only the two clubs and staff read a session's side branches.")
            return Response({"session": session.id, "side_branches": selectors.side_branches_of(session)})
        data = ss.SideBranchSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        state = _state(session_id)
        branch, created = branches.side_branch_record(
            session_id=session_id,
            user=signed_in_user(request.user),
            branch_id=v["branch_id"],
            from_seq=v["from_seq"],
            from_minute=v["from_minute"],
            events=v["events"],
            current_minute=str(state["state"]["minute"]),
        )
        body = {
            "side_branch": {
                "branch_id": branch.branch_id,
                "from_seq": branch.from_seq,
                "taps": len(branch.events),
                "message": branch.message,
                "created": created,
            },
            "state": state,
        }
        return Response(body, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


def register(router: BaseRouter) -> None:
    router.register("scoring-sessions", ScoringSessionViewSet, basename="scoring-session")

"""The set-up API: staff create, change and (while nothing is played) delete competitions and their parts.

Each viewset of league.api.views mixes one of these in. Writes go through the services, so the
API applies the same checks as the admin and the management commands; a write needs the staff flag
and the Django model permission for it (add/change/delete), not the staff flag alone.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.decorators import action
from rest_framework.exceptions import PermissionDenied as DRFPermissionDenied
from rest_framework.exceptions import ValidationError
from rest_framework.parsers import BaseParser
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.request import Request
from rest_framework.response import Response

from kernel.auth import signed_in_user
from kernel.errors import Conflict, NotFound
from league.api import serializers as read
from league.api import setup_serializers as write
from league.api.permissions import competition_of_object
from matches.discipline import competition_discipline_set
from matches.table_fill import table_places_fill
from tournaments.formats import competition_create_from_format
from tournaments.models import Club, Coach, Fixture, Team
from tournaments.selectors import competition_permits, is_instance_admin, may_create_competition
from tournaments.services.clubs import (
    club_create,
    club_delete,
    club_update,
    coach_create,
    coach_delete,
    coach_update,
    team_create,
    team_delete,
    team_update,
    teams_bulk_create,
)
from tournaments.services.competitions import (
    competition_create,
    competition_delete,
    competition_tiebreak_set,
    competition_update,
)
from tournaments.services.drawing import groups_draw, groups_enter, knockout_draw
from tournaments.services.league_phase import league_phase_draw
from tournaments.services.scheduling import round_shift
from tournaments.services.stages import (
    group_create,
    group_delete,
    group_update,
    stage_create,
    stage_delete,
    stage_update,
)
from tournaments.services.venue import (
    fixture_table_set,
    round_clock_clear,
    round_clock_set,
    round_tables_number,
)

ERRORS = {
    400: OpenApiResponse(
        description="Invalid: {error: {code, message, details}}; details names the field path "
        "(DRF: keyed by path; a service's refusal: details.field)"
    ),
    403: OpenApiResponse(
        description="No role in this competition allowing its set-up (nor staff with the model permission)"
    ),
    409: OpenApiResponse(description="Clashes with the current state (e.g. results already count)"),
}


class ModelPermission(BasePermission):
    """Anyone reads. A write: the instance's staff with the model permission named by the view's
    action, or (for a competition's own parts) a role in that competition allowing its set-up, by
    the rule the console and the services apply (tournaments.selectors.competition_permits).
    Anyone signed in may create a competition unless settings.COMPETITION_CREATORS says "staff"."""

    message = "Only the competition's organisers (or staff with the permission) may change this."

    def has_permission(self, request: Request, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        user = request.user
        if not (user and user.is_authenticated):
            return False
        needed = view.setup_permissions(view.action)
        if is_instance_admin(user, needed):
            return True
        if view.setup_model == "competition" and view.action in ("create", "from_format"):
            return may_create_competition(user=user)
        # Clubs and coaches belong to no one competition; the other writes are checked against the
        # competition of the object (below) or of the input (SetupMixin._input).
        return view.setup_model not in ("club", "coach")

    def has_object_permission(self, request: Request, view: Any, obj: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        needed = view.setup_permissions(view.action)
        competition = competition_of_object(obj)
        if competition is None:
            return is_instance_admin(request.user, needed)
        return competition_permits(
            user=request.user, competition=competition, action="setup", staff_perms=needed
        )


def _perm(verb: str, model: str) -> str:
    return f"tournaments.{verb}_{model}"


class SetupMixin:
    """create / partial_update / destroy through services, with model permissions."""

    setup_model = ""
    setup_actions: dict[str, list[str]] = {}

    def setup_permissions(self, action_name: str | None) -> list[str]:
        verbs = {"create": "add", "partial_update": "change", "destroy": "delete"}
        if action_name in verbs:
            return [_perm(verbs[action_name], self.setup_model)]
        return self.setup_actions.get(action_name or "", [_perm("change", self.setup_model)])

    def get_permissions(self) -> Sequence[Any]:
        action_name = getattr(self, "action", None)
        if action_name in ("create", "partial_update", "destroy") or action_name in self.setup_actions:
            return [ModelPermission()]
        return super().get_permissions()  # type: ignore[misc]

    def _input(self, serializer_class: type, request: Request, **kwargs: Any) -> dict[str, Any]:
        serializer = serializer_class(data=request.data, **kwargs)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        if getattr(self, "action", None) == "create":
            self._setup_check(request, data)
        return data

    def _setup_check(self, request: Request, data: dict[str, Any]) -> None:
        """A new part of a competition (a stage, a group, a team) needs the set-up of that competition."""
        parent = data.get("competition") or data.get("stage")
        competition = competition_of_object(parent) if parent is not None else None
        needed = self.setup_permissions("create")
        if competition is not None and not competition_permits(
            user=request.user, competition=competition, action="setup", staff_perms=needed
        ):
            raise DRFPermissionDenied(f"Only the organisers of {competition} may change its set-up.")

    def _read(self, obj: Any, code: int = status.HTTP_200_OK) -> Response:
        # Re-read through the viewset's queryset so the answer has the same shape as a GET.
        fresh = self.get_queryset().get(pk=obj.pk)  # type: ignore[attr-defined]
        return Response(self.get_serializer(fresh).data, status=code)  # type: ignore[attr-defined]


class CompetitionSetupMixin(SetupMixin):
    setup_model = "competition"
    setup_actions = {
        "tiebreak": [_perm("change", "competition")],
        "discipline": [_perm("change", "competition")],
        "bulk_teams": [_perm("add", "team")],
        "from_format": [_perm("add", "competition"), _perm("add", "stage"), _perm("add", "team")],
    }

    @extend_schema(request=write.FromFormatSerializer, responses={201: read.CompetitionSerializer, **ERRORS})
    @action(detail=False, methods=["post"], url_path="from-format", pagination_class=None, filter_backends=[])
    def from_format(self, request: Request) -> Response:
        """Staff: a whole competition in one step from a format (league, world_cup_32, euro_24,
        champions_league, swiss): its stages and groups, its teams, and (with teams) the group draw."""
        data = self._input(write.FromFormatSerializer, request)
        created = competition_create_from_format(user=request.user, **data)
        return self._read(created.competition, status.HTTP_201_CREATED)

    @extend_schema(
        request=write.CompetitionWriteSerializer, responses={201: read.CompetitionSerializer, **ERRORS}
    )
    def create(self, request: Request) -> Response:
        """Staff: create a competition (settings are checked by the services)."""
        data = self._input(write.CompetitionWriteSerializer, request)
        return self._read(competition_create(creator=request.user, **data), status.HTTP_201_CREATED)

    @extend_schema(
        request=write.CompetitionUpdateSerializer, responses={200: read.CompetitionSerializer, **ERRORS}
    )
    def partial_update(self, request: Request, slug: str | None = None) -> Response:
        """Staff: change a competition's settings (points and game system only before results count)."""
        competition = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.CompetitionUpdateSerializer, request, partial=True)
        return self._read(competition_update(competition=competition, **data))

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def destroy(self, request: Request, slug: str | None = None) -> Response:
        """Staff: delete a competition set up by mistake, while nothing has been played."""
        competition_delete(competition=self.get_object())  # type: ignore[attr-defined]
        return Response(status=status.HTTP_204_NO_CONTENT)

    @extend_schema(request=write.TiebreakSerializer, responses={200: read.CompetitionSerializer, **ERRORS})
    @action(detail=True, methods=["post"], pagination_class=None, filter_backends=[])
    def tiebreak(self, request: Request, slug: str | None = None) -> Response:
        """Staff: set the tie-break preset, or a custom order of known criteria starting with `points`."""
        competition = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.TiebreakSerializer, request)
        competition_tiebreak_set(
            competition=competition, preset=data["tiebreak_preset"], order=data["tiebreak_order"]
        )
        return self._read(competition)

    @extend_schema(request=write.DisciplineSerializer, responses={200: read.CompetitionSerializer, **ERRORS})
    @action(detail=True, methods=["post"], pagination_class=None, filter_backends=[])
    def discipline(self, request: Request, slug: str | None = None) -> Response:
        """Staff: yellow-card threshold, red-card ban, the stage after which yellows are wiped, cup mode."""
        competition = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.DisciplineSerializer, request)
        change = competition_discipline_set(competition=competition, **data)
        response = self._read(competition)
        # What the new rules did to the suspensions already earned, for the organiser to check.
        response.data["suspension_changes"] = {"added": change.added, "removed": change.removed}
        return response

    @extend_schema(
        request={"application/json": write.BulkTeamsSerializer, "text/csv": {"type": "string"}},
        responses={201: read.TeamSerializer(many=True), **ERRORS},
        examples=[
            OpenApiExample(
                "CSV",
                media_type="text/csv",
                value="name,country,club,coach,seed,default_formation,skills\n"
                "Lions,England,Lions FC,Ann Smith,1,4-4-2,Regista;Diver\n",
                request_only=True,
            )
        ],
    )
    @action(
        detail=True,
        methods=["post"],
        url_path="teams",
        pagination_class=None,
        filter_backends=[],
    )
    def bulk_teams(self, request: Request, slug: str | None = None) -> Response:
        """Staff: enter many teams at once from a JSON list or a CSV text (all or nothing).

        Clubs and coaches are given by name; unknown ones are created. Skills: names separated by `;`.
        """
        competition = self.get_object()  # type: ignore[attr-defined]
        if isinstance(request.data, str):
            rows = _csv_rows(request.data)
            data = self._input_rows(rows)
        else:
            data = self._input(write.BulkTeamsSerializer, request)["teams"]
        created = teams_bulk_create(competition=competition, rows=data)
        teams = Team.objects.filter(pk__in=[t.pk for t in created]).order_by("name")
        return Response(read.TeamSerializer(teams, many=True).data, status=status.HTTP_201_CREATED)

    def _input_rows(self, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        serializer = write.BulkTeamsSerializer(data={"teams": rows})
        serializer.is_valid(raise_exception=True)
        return list(serializer.validated_data["teams"])

    def get_parsers(self) -> list[Any]:
        parsers = super().get_parsers()  # type: ignore[misc]
        return [*parsers, CSVTextParser()]


class CSVTextParser(BaseParser):
    """A CSV body, read as text (the set-up API's bulk team entry)."""

    media_type = "text/csv"

    # The stubs want a mapping; DRF passes whatever parse() returns on as request.data.
    def parse(  # type: ignore[override]
        self, stream: Any, media_type: str | None = None, parser_context: Any = None
    ) -> str:
        raw = stream.read(2_000_000 + 1)
        if len(raw) > 2_000_000:
            raise ValidationError({"teams": ["The CSV is larger than 2 MB."]})
        try:
            return raw.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ValidationError({"teams": ["The CSV must be UTF-8 text."]}) from None


def _csv_rows(text: str) -> list[dict[str, Any]]:
    reader = csv.DictReader(io.StringIO(text))
    if not reader.fieldnames or "name" not in [f.strip() for f in reader.fieldnames]:
        raise ValidationError({"teams": ["The CSV needs a header row with at least a 'name' column."]})
    rows = []
    for raw in reader:
        row: dict[str, Any] = {}
        for key, value in raw.items():
            if key is None or value is None or not value.strip():
                continue
            key = key.strip()
            row[key] = value.strip()
        if "skills" in row:
            row["skills"] = [s.strip() for s in row["skills"].split(";") if s.strip()]
        rows.append(row)
    return rows


class StageSetupMixin(SetupMixin):
    setup_model = "stage"
    setup_actions = {
        "draw_groups": [_perm("change", "group"), _perm("add", "draw")],
        "enter_groups": [_perm("change", "group"), _perm("add", "draw")],
        "draw_knockout": [_perm("change", "stage"), _perm("add", "draw")],
        "draw_league_phase": [_perm("change", "stage"), _perm("add", "draw")],
        "fill_from_table": [_perm("change", "stage"), _perm("add", "fixture")],
        "shift_round": [_perm("change", "fixture")],
        "round_clock": [_perm("change", "fixture")],
        "tables": [_perm("change", "fixture")],
    }

    @extend_schema(
        request=write.RoundClockSerializer, responses={200: write.RoundClockOutSerializer, **ERRORS}
    )
    @action(detail=True, methods=["post"], url_path="round-clock", pagination_class=None, filter_backends=[])
    def round_clock(self, request: Request, pk: str | None = None) -> Response:
        """Organisers: a venue round's start time and length (the countdown), or `clear: true`."""
        stage = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.RoundClockSerializer, request)
        if data["clear"]:
            round_clock_clear(stage=stage, round=data["round"])
            return Response({"stage": stage.pk, "round": data["round"], "starts_at": None, "ends_at": None})
        clock = round_clock_set(
            stage=stage,
            round=data["round"],
            starts_at=data["starts_at"],
            minutes=data["minutes"],
            user=request.user,
        )
        return Response(write.RoundClockOutSerializer(clock).data)

    @extend_schema(
        request=write.TablesSerializer, responses={200: read.FixtureSerializer(many=True), **ERRORS}
    )
    @action(detail=True, methods=["post"], pagination_class=None, filter_backends=[])
    def tables(self, request: Request, pk: str | None = None) -> Response:
        """Organisers: number a round's tables from `first`, or put one `fixture` at a `table`."""
        stage = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.TablesSerializer, request)
        if "fixture" in data:
            fixture = Fixture.objects.filter(pk=data["fixture"], stage=stage, round=data["round"]).first()
            if fixture is None:
                raise NotFound(
                    f"{stage.name}, round {data['round']} has no fixture {data['fixture']}.",
                    details={"field": "fixture"},
                )
            fixture_table_set(fixture=fixture, table=data["table"])
        else:
            round_tables_number(stage=stage, round=data["round"], first=data["first"])
        fixtures = stage.fixtures.filter(round=data["round"]).select_related(
            "competition", "group", "home_team", "away_team", "result"
        )
        return Response(
            read.FixtureSerializer(fixtures.order_by("match_number", "leg", "id"), many=True).data
        )

    @extend_schema(request=write.GroupDrawSerializer, responses={201: write.DrawSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="draw-groups", pagination_class=None, filter_backends=[])
    def draw_groups(self, request: Request, pk: str | None = None) -> Response:
        """Staff: draw the groups from pots (seeded; give the seed back to repeat a draw)."""
        stage = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.GroupDrawSerializer, request)
        draw = groups_draw(stage=stage, user=request.user, **data)
        return Response(write.DrawSerializer(draw).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=write.EnteredGroupsSerializer, responses={201: write.DrawSerializer, **ERRORS})
    @action(detail=True, methods=["post"], url_path="enter-groups", pagination_class=None, filter_backends=[])
    def enter_groups(self, request: Request, pk: str | None = None) -> Response:
        """Organisers: enter a draw made elsewhere, each group's teams in pot order (recorded)."""
        stage = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.EnteredGroupsSerializer, request)
        draw = groups_enter(stage=stage, placement=data["groups"], user=request.user)
        return Response(write.DrawSerializer(draw).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=write.KnockoutDrawSerializer, responses={201: write.DrawSerializer, **ERRORS})
    @action(
        detail=True, methods=["post"], url_path="draw-knockout", pagination_class=None, filter_backends=[]
    )
    def draw_knockout(self, request: Request, pk: str | None = None) -> Response:
        """Staff: draw an unseeded bracket among the knockout stage's teams (seeded, recorded)."""
        stage = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.KnockoutDrawSerializer, request)
        draw = knockout_draw(stage=stage, user=request.user, **data)
        return Response(write.DrawSerializer(draw).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=write.LeaguePhaseDrawSerializer, responses={201: write.DrawSerializer, **ERRORS})
    @action(
        detail=True, methods=["post"], url_path="draw-league-phase", pagination_class=None, filter_backends=[]
    )
    def draw_league_phase(self, request: Request, pk: str | None = None) -> Response:
        """Organisers: draw a league phase's opponents from pots under country caps; makes its fixtures."""
        stage = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.LeaguePhaseDrawSerializer, request)
        draw = league_phase_draw(stage=stage, user=request.user, **data)
        return Response(write.DrawSerializer(draw).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={201: read.FixtureSerializer(many=True), **ERRORS})
    @action(
        detail=True, methods=["post"], url_path="fill-from-table", pagination_class=None, filter_backends=[]
    )
    def fill_from_table(self, request: Request, pk: str | None = None) -> Response:
        """Organisers: from this league, Swiss or league phase's final table, make the knockouts that
        take its places (the play-off, then the bracket); a second call makes nothing (200, [])."""
        stage = self.get_object()  # type: ignore[attr-defined]
        created = table_places_fill(feeder=stage, user=signed_in_user(request.user))
        fixtures = Fixture.objects.filter(pk__in=[f.pk for f in created]).select_related(
            "competition", "group", "home_team", "away_team", "result"
        )
        return Response(
            read.FixtureSerializer(fixtures.order_by("match_number", "leg"), many=True).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )

    @extend_schema(responses={200: write.DrawSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None, filter_backends=[])
    def draws(self, request: Request, pk: str | None = None) -> Response:
        """The stage's draws with their seeds, latest first."""
        stage = self.get_object()  # type: ignore[attr-defined]
        return Response(write.DrawSerializer(stage.draws.order_by("-drawn_at", "-id"), many=True).data)

    @extend_schema(
        request=write.ShiftRoundSerializer, responses={200: read.FixtureSerializer(many=True), **ERRORS}
    )
    @action(detail=True, methods=["post"], url_path="shift-round", pagination_class=None, filter_backends=[])
    def shift_round(self, request: Request, pk: str | None = None) -> Response:
        """Staff: move a whole round's kick-offs and deadlines by days/hours (played fixtures stay)."""
        stage = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.ShiftRoundSerializer, request)
        moved = round_shift(
            stage=stage, round=data["round"], by=timedelta(days=data["days"], hours=data["hours"])
        )
        fixtures = Fixture.objects.filter(pk__in=[f.pk for f in moved]).select_related(
            "competition", "group", "home_team", "away_team", "result"
        )
        return Response(read.FixtureSerializer(fixtures.order_by("match_number", "leg"), many=True).data)

    @extend_schema(request=write.StageWriteSerializer, responses={201: read.StageSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        """Staff: add a stage (round robin, groups, knockout or Swiss) to a competition."""
        data = self._input(write.StageWriteSerializer, request)
        return self._read(stage_create(**data, user=signed_in_user(request.user)), status.HTTP_201_CREATED)

    @extend_schema(request=write.StageUpdateSerializer, responses={200: read.StageSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Staff: change a stage; its teams, legs, rounds and feeder only before fixtures exist."""
        stage = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.StageUpdateSerializer, request, partial=True)
        return self._read(stage_update(stage=stage, **data, user=signed_in_user(request.user)))

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Staff: delete a stage (and its unplayed fixtures) while nothing in it has been played."""
        stage_delete(stage=self.get_object(), user=signed_in_user(request.user))  # type: ignore[attr-defined]
        return Response(status=status.HTTP_204_NO_CONTENT)


class GroupSetupMixin(SetupMixin):
    setup_model = "group"

    @extend_schema(request=write.GroupWriteSerializer, responses={201: read.GroupSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        """Staff: add a group to a group stage, with its teams (or none yet, to draw)."""
        data = self._input(write.GroupWriteSerializer, request)
        return self._read(group_create(**data), status.HTTP_201_CREATED)

    @extend_schema(request=write.GroupUpdateSerializer, responses={200: read.GroupSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Staff: rename a group or set its teams, before the stage's fixtures exist."""
        group = self.get_object()  # type: ignore[attr-defined]
        data = self._input(write.GroupUpdateSerializer, request, partial=True)
        return self._read(group_update(group=group, **data))

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Staff: delete a group, before the stage's fixtures exist."""
        group_delete(group=self.get_object())  # type: ignore[attr-defined]
        return Response(status=status.HTTP_204_NO_CONTENT)


class ClubSetupMixin(SetupMixin):
    setup_model = "club"

    @extend_schema(request=write.ClubWriteSerializer, responses={201: read.ClubSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        """Staff: add a club."""
        data = self._input(write.ClubWriteSerializer, request)
        if Club.objects.filter(name=data["name"]).exists():
            raise Conflict(f"A club named '{data['name']}' already exists.", details={"field": "name"})
        return self._read(club_create(**data), status.HTTP_201_CREATED)

    @extend_schema(request=write.ClubUpdateSerializer, responses={200: read.ClubSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Staff: rename a club or change its country."""
        data = self._input(write.ClubUpdateSerializer, request, partial=True)
        return self._read(club_update(club=self.get_object(), **data))  # type: ignore[attr-defined]

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Staff: delete a club that has no teams."""
        club_delete(club=self.get_object())  # type: ignore[attr-defined]
        return Response(status=status.HTTP_204_NO_CONTENT)


class CoachSetupMixin(SetupMixin):
    setup_model = "coach"

    @extend_schema(request=write.CoachWriteSerializer, responses={201: read.CoachSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        """Staff: add a coach (the person playing the board game)."""
        data = self._input(write.CoachWriteSerializer, request)
        if data.get("ranking_id") and Coach.objects.filter(ranking_id=data["ranking_id"]).exists():
            raise Conflict(
                f"Another coach has the ranking id '{data['ranking_id']}'.", details={"field": "ranking_id"}
            )
        return self._read(coach_create(**data), status.HTTP_201_CREATED)

    @extend_schema(request=write.CoachUpdateSerializer, responses={200: read.CoachSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Staff: change a coach."""
        data = self._input(write.CoachUpdateSerializer, request, partial=True)
        return self._read(coach_update(coach=self.get_object(), **data))  # type: ignore[attr-defined]

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Staff: delete a coach who coaches no team."""
        coach_delete(coach=self.get_object())  # type: ignore[attr-defined]
        return Response(status=status.HTTP_204_NO_CONTENT)


class TeamSetupMixin(SetupMixin):
    setup_model = "team"

    @extend_schema(request=write.TeamWriteSerializer, responses={201: read.TeamSerializer, **ERRORS})
    def create(self, request: Request) -> Response:
        """Staff: enter a team in a competition, with its formation, A2 roles and A11 skill roster."""
        data = self._input(write.TeamWriteSerializer, request)
        skills = data.pop("skills", None)
        team = team_create(**data)
        if skills:
            team_update(team=team, skills=skills)
        return self._read(team, status.HTTP_201_CREATED)

    @extend_schema(request=write.TeamUpdateSerializer, responses={200: read.TeamSerializer, **ERRORS})
    def partial_update(self, request: Request, pk: str | None = None) -> Response:
        """Staff: change a team (its competition stays); `skills` replaces the chosen roster."""
        data = self._input(write.TeamUpdateSerializer, request, partial=True)
        return self._read(team_update(team=self.get_object(), **data))  # type: ignore[attr-defined]

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def destroy(self, request: Request, pk: str | None = None) -> Response:
        """Staff: delete a team that is in no fixture yet (withdraw it otherwise)."""
        team_delete(team=self.get_object())  # type: ignore[attr-defined]
        return Response(status=status.HTTP_204_NO_CONTENT)

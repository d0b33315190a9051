"""/api/v1/…/chances: the latest figures, what-if jobs, and a job's status and figures."""

from __future__ import annotations

from typing import Any

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from chances import selectors, services
from chances.models import ChancesJob
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError, NotFound
from tournaments.models import Competition

WHAT_IF_MAX_RUNS = 20_000


class TeamChancesSerializer(serializers.Serializer):
    team_id = serializers.IntegerField()
    team = serializers.CharField()
    stage_id = serializers.IntegerField(allow_null=True)
    group = serializers.CharField(allow_null=True)
    positions = serializers.ListField(
        child=serializers.FloatField(), help_text="P(1st), P(2nd), … in the table"
    )
    best = serializers.IntegerField(allow_null=True, help_text="Best place seen in the runs")
    worst = serializers.IntegerField(allow_null=True, help_text="Worst place seen in the runs")
    qualify = serializers.FloatField(allow_null=True)
    rounds = serializers.DictField(
        child=serializers.FloatField(), help_text="Chance of playing in each knockout round"
    )
    win = serializers.FloatField()
    change_qualify = serializers.FloatField(allow_null=True)
    change_win = serializers.FloatField(allow_null=True)


class MatchModelSerializer(serializers.Serializer):
    game_system = serializers.CharField()
    name = serializers.CharField(help_text="What the match model is, in words (the page shows it)")
    fitted_on = serializers.IntegerField(help_text="Recorded results of the game system it was fitted on")
    parameters = serializers.DictField(
        child=serializers.FloatField(),
        help_text="log λ = a + eta·engine + gamma·(μ_home − μ_away)/2 + home·venue (docs/chances.md)",
    )


class ChancesSerializer(serializers.Serializer):
    job = serializers.IntegerField()
    model = MatchModelSerializer(allow_null=True)
    status = serializers.CharField()
    computed_at = serializers.DateTimeField(allow_null=True)
    runs = serializers.IntegerField()
    seconds = serializers.FloatField(allow_null=True)
    counted_results = serializers.IntegerField()
    what_if = serializers.DictField(child=serializers.ListField(child=serializers.IntegerField()))
    compared_with_job = serializers.IntegerField(allow_null=True)
    teams = TeamChancesSerializer(many=True)


class WhatIfSerializer(serializers.Serializer):
    fixed = serializers.DictField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=99), min_length=2, max_length=4
        ),
        help_text="Fixture id → [home goals, away goals] or [home, away, home pens, away pens], "
        'e.g. {"12": [2, 0]}',
        allow_empty=False,
    )
    runs = serializers.IntegerField(min_value=100, max_value=WHAT_IF_MAX_RUNS, default=5000)


class JobSerializer(serializers.Serializer):
    job = serializers.IntegerField()
    status = serializers.CharField()
    url = serializers.CharField()


def _competition(slug: str) -> Competition:
    competition = Competition.objects.filter(slug=slug).first()
    if competition is None:
        raise NotFound(f"No competition '{slug}'.")
    return competition


def model_data(job: ChancesJob) -> dict[str, Any] | None:
    model = job.scenario.get("model")
    if not model or "fitted" not in model:
        return None
    return {
        "game_system": job.scenario.get("game_system", "fuba-3"),
        "name": model["name"],
        "fitted_on": model["fitted_on"],
        "parameters": dict(zip(("a", "eta", "gamma", "home"), model["fitted"], strict=True)),
    }


def job_data(job: ChancesJob) -> dict[str, Any]:
    data: dict[str, Any] = {
        "job": job.id,
        "status": job.status,
        "computed_at": job.finished_at,
        "runs": (job.result or {}).get("runs", 0),
        "seconds": job.seconds,
        "counted_results": job.counted_results,
        "what_if": job.what_if,
        "model": model_data(job),
        "compared_with_job": None,
        "teams": [],
    }
    if job.status != ChancesJob.Status.DONE:
        return data
    figures = selectors.competition_chances(job=job, with_change=not job.what_if)
    data["compared_with_job"] = figures.previous.id if figures.previous else None
    placed: dict[int, tuple[int, str]] = {}
    for table in figures.tables:
        for row in table.rows:
            placed[row.team_id] = (table.stage_id, table.group)
    for row in figures.teams:
        stage_id, group = placed.get(row.team_id, (None, None))
        data["teams"].append(
            {
                "team_id": row.team_id,
                "team": row.name,
                "stage_id": stage_id,
                "group": group,
                "positions": row.positions,
                "best": row.best,
                "worst": row.worst,
                "qualify": row.qualified,
                "rounds": dict(zip(figures.rounds, row.rounds, strict=True)),
                "win": row.champion,
                "change_qualify": row.change_qualified,
                "change_win": row.change_champion,
            }
        )
    return data


def _job_response(job: ChancesJob) -> Response:
    return Response(
        {"job": job.id, "status": job.status, "url": f"/api/v1/chances/jobs/{job.id}"},
        status=status.HTTP_202_ACCEPTED,
    )


class ChancesView(APIView):
    """The competition's latest chances (recomputed on the workers after counted results)."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ChancesSerializer)
    def get(self, request: Request, slug: str) -> Response:
        competition = _competition(slug)
        job = selectors.latest_job(competition=competition)
        if job is None:
            raise NotFound(f"No chances computed for '{slug}' yet.", code="chances_not_computed")
        return Response(job_data(job))


class RecomputeView(APIView):
    """Staff with chances.add_chancesjob: compute the chances now (a job on the workers); while
    one is at work for the competition, that job is the answer (200 instead of 202)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={202: JobSerializer, 200: JobSerializer})
    def post(self, request: Request, slug: str) -> Response:
        job, new = services.chances_recompute(
            competition_id=_competition(slug).id, user=signed_in_user(request.user)
        )
        response = _job_response(job)
        if not new:
            response.status_code = status.HTTP_200_OK
        return response


class WhatIfView(APIView):
    """Signed-in users: the chances if some upcoming fixtures end as given (a job on the workers)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=WhatIfSerializer, responses={202: JobSerializer})
    def post(self, request: Request, slug: str) -> Response:
        competition = _competition(slug)
        body = WhatIfSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        fixed: dict[int, Any] = {}
        for key, value in body.validated_data["fixed"].items():
            if not str(key).isdigit():
                raise ApplicationError(f"fixed: '{key}' is not a fixture id.", code="what_if_invalid")
            if len(value) == 3:
                raise ApplicationError(f"fixed[{key}]: give 2 or 4 numbers.", code="what_if_invalid")
            fixed[int(key)] = list(value)
        job = services.chances_start(
            competition_id=competition.id, runs=body.validated_data["runs"], what_if=fixed
        )
        return _job_response(job)


class JobView(APIView):
    """A chances job: its status, and its figures once done."""

    permission_classes = [AllowAny]

    @extend_schema(responses=ChancesSerializer)
    def get(self, request: Request, job_id: int) -> Response:
        job = selectors.job_or_none(job_id=job_id)
        if job is None:
            raise NotFound(f"No chances job {job_id}.")
        return Response(job_data(job))


urlpatterns = [
    path("competitions/<slug:slug>/chances", ChancesView.as_view(), name="chances"),
    path("competitions/<slug:slug>/chances/recompute", RecomputeView.as_view(), name="chances-recompute"),
    path("competitions/<slug:slug>/chances/what-if", WhatIfView.as_view(), name="chances-what-if"),
    path("chances/jobs/<int:job_id>", JobView.as_view(), name="chances-job"),
]

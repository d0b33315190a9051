"""The chances page of a competition (its standings page links to it and shows a summary)."""

from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST

from chances import selectors, services
from chances.svg import champion_chart, positions_chart
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError, PermissionDenied
from tournaments.models import Competition, Stage


def _competition(slug: str) -> Competition:
    competition = Competition.objects.filter(slug=slug).first()
    if competition is None:
        raise Http404("No such competition.")
    return competition


def chances_context(competition: Competition) -> dict[str, object]:
    """What the chances page and the standings page's summary need."""
    job = selectors.latest_job(competition=competition)
    running = competition.chances_jobs.filter(status__in=["estimating", "running"], what_if={}).exists()
    if job is None:
        return {"chances": None, "chances_running": running}
    figures = selectors.competition_chances(job=job)
    return {
        "chances": figures,
        "forecast_quality": selectors.forecast_quality(),
        "chances_running": running,
        "position_charts": [(t, positions_chart(t)) for t in figures.tables],
        "champion_chart": champion_chart(figures.teams),
    }


def chances_page(request: HttpRequest, slug: str) -> HttpResponse:
    competition = _competition(slug)
    stages = competition.stages.all()
    context = {
        "competition": competition,
        "current": "chances",
        "has_tables": stages.filter(
            kind__in=[Stage.Kind.GROUPS, Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS]
        ).exists(),
        "has_bracket": stages.filter(kind=Stage.Kind.KNOCKOUT).exists(),
        **chances_context(competition),
        "can_recompute": request.user.has_perm(services.RECOMPUTE_PERMISSION) and request.user.is_staff,
    }
    return render(request, "chances/chances.html", context)


@require_POST
def chances_recompute(request: HttpRequest, slug: str) -> HttpResponse:
    competition = _competition(slug)
    if not request.user.is_authenticated:
        raise Http404("No such page.")
    # A refused permission answers 403 (kernel/page_errors.py); anything else is shown.
    try:
        job, new = services.chances_recompute(
            competition_id=competition.id, user=signed_in_user(request.user)
        )
    except PermissionDenied:
        raise
    except ApplicationError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(
            request,
            f"Chances are being computed ({job.runs} runs)."
            if new
            else "The chances are already being computed; this computation is the one shown when done.",
        )
    return HttpResponseRedirect(reverse("chances:chances", args=[slug]))

"""Public pages of the coach ratings: the ranking of each game system (and the combined one) and
each coach's ratings with their histories."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ratings import selectors
from ratings.models import CoachRating, RatingHistory
from ratings.skill import ORDINAL_SIGMAS, PROVISIONAL_GAMES
from ratings.svg import HistoryChart, history_chart
from tournaments.game_systems import FUBA_3
from tournaments.models import Coach


def _tabs(current: str) -> list[dict[str, Any]]:
    tabs = [
        {"code": code, "name": selectors.system_name(code), "current": code == current}
        for code in selectors.RATED_SYSTEMS
    ]
    return [*tabs, {"code": selectors.COMBINED, "name": "Combined", "current": current == selectors.COMBINED}]


def ranking(request: HttpRequest) -> HttpResponse:
    system = request.GET.get("system", FUBA_3)
    if system not in (*selectors.RATED_SYSTEMS, selectors.COMBINED):
        raise Http404(f"No rating of a game system {system!r}.")
    context: dict[str, Any] = {
        "system": system,
        "tabs": _tabs(system),
        "provisional_games": PROVISIONAL_GAMES,
        "sigmas": int(ORDINAL_SIGMAS),
    }
    if system == selectors.COMBINED:
        context["combined"] = selectors.combined_ranking()[:500]
    else:
        context["system_name"] = selectors.system_name(system)
        context["ratings"] = list(selectors.coach_ranking(game_system=system)[:500])
    return render(request, "ratings/ranking.html", context)


@dataclass(frozen=True)
class SystemSection:
    rating: CoachRating
    rank: int
    name: str
    history: list[RatingHistory]
    chart: HistoryChart | None


def coach_history(request: HttpRequest, coach_id: int) -> HttpResponse:
    coach = Coach.objects.filter(pk=coach_id).first() if coach_id <= selectors.ID_MAX else None
    if coach is None:
        raise Http404("No such coach.")
    ratings = selectors.coach_ratings(coach_id=coach_id)
    history = selectors.coach_history(coach_id=coach_id)
    sections = []
    for r in ratings:
        points = [h for h in history if h.game_system == r.game_system]
        sections.append(
            SystemSection(
                rating=r,
                rank=selectors.coach_rank(rating=r),
                name=selectors.system_name(r.game_system),
                history=points,
                chart=history_chart([(h.mu, h.sigma) for h in points]) if points else None,
            )
        )
    return render(
        request,
        "ratings/coach.html",
        {
            "coach": coach,
            "sections": sections,
            "combined": selectors.coach_combined(ratings=ratings) if ratings else None,
            "combined_rank": selectors.combined_rank(coach_id=coach_id) if ratings else None,
            "provisional_games": PROVISIONAL_GAMES,
        },
    )

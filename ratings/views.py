"""Public pages of the coach ratings: the ranking and each coach's rating history."""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render

from ratings import selectors
from ratings.skill import ORDINAL_SIGMAS, PROVISIONAL_GAMES
from ratings.svg import history_chart
from tournaments.models import Coach


def ranking(request: HttpRequest) -> HttpResponse:
    ratings = list(selectors.coach_ranking()[:500])
    return render(
        request,
        "ratings/ranking.html",
        {"ratings": ratings, "provisional_games": PROVISIONAL_GAMES, "sigmas": int(ORDINAL_SIGMAS)},
    )


def coach_history(request: HttpRequest, coach_id: int) -> HttpResponse:
    coach = Coach.objects.filter(pk=coach_id).first() if coach_id <= selectors.ID_MAX else None
    if coach is None:
        raise Http404("No such coach.")
    rating = selectors.coach_rating(coach_id=coach_id)
    history = selectors.coach_history(coach_id=coach_id)
    return render(
        request,
        "ratings/coach.html",
        {
            "coach": coach,
            "rating": rating,
            "rank": selectors.coach_rank(rating=rating) if rating else None,
            "history": history,
            "chart": history_chart([(h.mu, h.sigma) for h in history]) if history else None,
            "provisional_games": PROVISIONAL_GAMES,
        },
    )

"""/api/v1/ratings/…: the coaches ranking, one coach's rating history, a fixture's prediction."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.errors import NotFound
from ratings import selectors
from ratings.models import CoachRating
from ratings.skill import PROVISIONAL_GAMES

LIMIT_MAX = 500


class RatingSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    coach_id = serializers.IntegerField()
    coach = serializers.CharField()
    country = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField(help_text="mu - 3 sigma: the conservative value the ranking sorts by")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()
    provisional = serializers.BooleanField(help_text=f"Fewer than {PROVISIONAL_GAMES} rated matches")


class HistoryPointSerializer(serializers.Serializer):
    sequence = serializers.IntegerField()
    fixture_id = serializers.IntegerField()
    competition = serializers.CharField()
    match = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    ordinal = serializers.FloatField()
    games = serializers.IntegerField()


class CoachRatingSerializer(RatingSerializer):
    history = HistoryPointSerializer(many=True)


class PredictionSerializer(serializers.Serializer):
    fixture_id = serializers.IntegerField()
    home_coach_id = serializers.IntegerField()
    away_coach_id = serializers.IntegerField()
    home_win = serializers.FloatField()
    draw = serializers.FloatField()
    away_win = serializers.FloatField()
    home_provisional = serializers.BooleanField()
    away_provisional = serializers.BooleanField()


def rating_data(rating: CoachRating, rank: int) -> dict[str, object]:
    return {
        "rank": rank,
        "coach_id": rating.coach_id,
        "coach": rating.coach.name,
        "country": rating.coach.country,
        "mu": rating.mu,
        "sigma": rating.sigma,
        "ordinal": rating.ordinal,
        "games": rating.games,
        "wins": rating.wins,
        "draws": rating.draws,
        "losses": rating.losses,
        "provisional": rating.provisional,
    }


class RankingView(APIView):
    """Rated coaches, best conservative value (mu - 3 sigma) first; simulated/awarded results not rated."""

    permission_classes = [AllowAny]

    @extend_schema(responses=RatingSerializer(many=True))
    def get(self, request: Request) -> Response:
        ratings = list(selectors.coach_ranking()[:LIMIT_MAX])
        return Response([rating_data(r, i + 1) for i, r in enumerate(ratings)])


class CoachRatingView(APIView):
    """One coach's rating and its history, one point per rated match."""

    permission_classes = [AllowAny]

    @extend_schema(responses=CoachRatingSerializer)
    def get(self, request: Request, coach_id: int) -> Response:
        rating = selectors.coach_rating(coach_id=coach_id)
        if rating is None:
            raise NotFound(f"Coach {coach_id} has no rated match.")
        data = rating_data(rating, selectors.coach_rank(rating=rating))
        data["history"] = [
            {
                "sequence": h.sequence,
                "fixture_id": h.rated_match.fixture_id,
                "competition": h.rated_match.fixture.competition.slug,
                "match": str(h.rated_match.fixture),
                "mu": h.mu,
                "sigma": h.sigma,
                "ordinal": h.ordinal,
                "games": h.games,
            }
            for h in selectors.coach_history(coach_id=coach_id)
        ]
        return Response(data)


class PredictionView(APIView):
    """The ratings' forecast of a fixture: win/draw/loss chances of the home side's coach."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PredictionSerializer)
    def get(self, request: Request, fixture_id: int) -> Response:
        p = selectors.fixture_prediction(fixture_id=fixture_id)
        return Response(
            {
                "fixture_id": p.fixture.id,
                "home_coach_id": p.home_coach_id,
                "away_coach_id": p.away_coach_id,
                "home_win": p.chances.home,
                "draw": p.chances.draw,
                "away_win": p.chances.away,
                "home_provisional": p.home.provisional,
                "away_provisional": p.away.provisional,
            }
        )


urlpatterns = [
    path("ratings/coaches", RankingView.as_view(), name="ratings-ranking"),
    path("ratings/coaches/<int:coach_id>", CoachRatingView.as_view(), name="ratings-coach"),
    path("ratings/predict/<int:fixture_id>", PredictionView.as_view(), name="ratings-predict"),
]

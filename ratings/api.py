"""/api/v1/ratings/…: the coaches ranking (per game system, or combined), one coach's ratings with
their histories, a fixture's prediction."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from kernel.errors import NotFound
from ratings import selectors
from ratings.models import CoachRating, RatingHistory
from ratings.skill import PROVISIONAL_GAMES, Combined
from tournaments.game_systems import FUBA_3

LIMIT_MAX = 500


class RatingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Place in the game system's own ranking")
    game_system = serializers.CharField()
    game_system_name = serializers.CharField()
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


class SystemRatingSerializer(RatingSerializer):
    history = HistoryPointSerializer(many=True)


class CombinedSerializer(serializers.Serializer):
    how = serializers.CharField(help_text="How the per-system ratings are combined")
    rank = serializers.IntegerField(allow_null=True)
    ordinal = serializers.FloatField(help_text="Games-weighted mean of the per-system mu - 3 sigma")
    mu = serializers.FloatField(help_text="Games-weighted mean of the per-system mu")
    games = serializers.IntegerField()
    systems = serializers.IntegerField(help_text="Game systems the coach has rated matches in")


class CombinedRowSerializer(CombinedSerializer):
    coach_id = serializers.IntegerField()
    coach = serializers.CharField()
    country = serializers.CharField()
    ratings = RatingSerializer(many=True)


class CoachRatingSerializer(serializers.Serializer):
    coach_id = serializers.IntegerField()
    coach = serializers.CharField()
    country = serializers.CharField()
    combined = CombinedSerializer()
    ratings = SystemRatingSerializer(many=True, help_text="One per game system played, with its history")


COMBINED_HOW = (
    "the games-weighted mean of the coach's ratings (mu - 3 sigma) of each game system he played; "
    "no game's rating is pooled with another's"
)


class PredictionSerializer(serializers.Serializer):
    fixture_id = serializers.IntegerField()
    game_system = serializers.CharField(help_text="The game system whose ratings predict the fixture")
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
        "game_system": rating.game_system,
        "game_system_name": selectors.system_name(rating.game_system),
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


def _combined_data(combined: Combined, rank: int | None) -> dict[str, object]:
    return {
        "how": COMBINED_HOW,
        "rank": rank,
        "ordinal": combined.ordinal,
        "mu": combined.mu,
        "games": combined.games,
        "systems": combined.systems,
    }


def _history_data(h: RatingHistory) -> dict[str, object]:
    return {
        "sequence": h.sequence,
        "fixture_id": h.rated_match.fixture_id,
        "competition": h.rated_match.fixture.competition.slug,
        "match": str(h.rated_match.fixture),
        "mu": h.mu,
        "sigma": h.sigma,
        "ordinal": h.ordinal,
        "games": h.games,
    }


class RankingView(APIView):
    """Coaches rated in one game system (``game_system``, default fuba-3), best conservative value
    (mu - 3 sigma) first; ``game_system=combined``: every coach by the combined rating (the
    games-weighted mean of his per-system ratings). Simulated/awarded results are not rated."""

    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "game_system", str, enum=[*selectors.RATED_SYSTEMS, selectors.COMBINED], default=FUBA_3
            )
        ],
        responses=RatingSerializer(many=True),
    )
    def get(self, request: Request) -> Response:
        system = request.query_params.get("game_system", FUBA_3)
        if system == selectors.COMBINED:
            rows = selectors.combined_ranking()[:LIMIT_MAX]
            return Response(
                [
                    {
                        "coach_id": row.coach.pk,
                        "coach": row.coach.name,
                        "country": row.coach.country,
                        **_combined_data(row.combined, i + 1),
                        "ratings": [rating_data(r, selectors.coach_rank(rating=r)) for r in row.ratings],
                    }
                    for i, row in enumerate(rows)
                ]
            )
        ratings = list(selectors.coach_ranking(game_system=selectors.check_game_system(system))[:LIMIT_MAX])
        return Response([rating_data(r, i + 1) for i, r in enumerate(ratings)])


class CoachRatingView(APIView):
    """One coach's rating in each game system he played (with its history, one point per rated
    match) and the combined rating."""

    permission_classes = [AllowAny]

    @extend_schema(responses=CoachRatingSerializer)
    def get(self, request: Request, coach_id: int) -> Response:
        ratings = selectors.coach_ratings(coach_id=coach_id)
        if not ratings:
            raise NotFound(f"Coach {coach_id} has no rated match.")
        coach = ratings[0].coach
        history = selectors.coach_history(coach_id=coach_id)
        systems = []
        for r in ratings:
            data = rating_data(r, selectors.coach_rank(rating=r))
            data["history"] = [_history_data(h) for h in history if h.game_system == r.game_system]
            systems.append(data)
        combined = selectors.coach_combined(ratings=ratings)
        return Response(
            {
                "coach_id": coach.pk,
                "coach": coach.name,
                "country": coach.country,
                "combined": _combined_data(combined, selectors.combined_rank(coach_id=coach.pk)),
                "ratings": systems,
            }
        )


class PredictionView(APIView):
    """The ratings' forecast of a fixture: win/draw/loss chances of the home side's coach."""

    permission_classes = [AllowAny]

    @extend_schema(responses=PredictionSerializer)
    def get(self, request: Request, fixture_id: int) -> Response:
        p = selectors.fixture_prediction(fixture_id=fixture_id)
        return Response(
            {
                "fixture_id": p.fixture.id,
                "game_system": p.game_system,
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

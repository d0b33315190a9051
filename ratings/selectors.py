"""Reads of the coach ratings for pages and the API."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import QuerySet

from kernel.errors import ApplicationError, NotFound
from ratings.models import CoachRating, RatingHistory
from ratings.skill import Prediction, Skill, predict
from tournaments.game_systems import FUBA_3, rules_of
from tournaments.models import Coach, Fixture

ID_MAX = 2**63 - 1  # a larger path id cannot be a row (and PostgreSQL would refuse the query)


def coach_ranking() -> QuerySet[CoachRating]:
    """Every rated coach, best conservative value (mu - 3 sigma) first."""
    return CoachRating.objects.select_related("coach").order_by("-ordinal", "coach_id")


def coach_rating(*, coach_id: int) -> CoachRating | None:
    if coach_id > ID_MAX:
        return None
    return CoachRating.objects.select_related("coach").filter(coach_id=coach_id).first()


def coach_rank(*, rating: CoachRating) -> int:
    return (
        CoachRating.objects.filter(ordinal__gt=rating.ordinal).count()
        + CoachRating.objects.filter(ordinal=rating.ordinal, coach_id__lt=rating.coach_id).count()
        + 1
    )


def coach_history(*, coach_id: int) -> list[RatingHistory]:
    return list(
        RatingHistory.objects.filter(coach_id=coach_id)
        .select_related(
            "rated_match__fixture__home_team",
            "rated_match__fixture__away_team",
            "rated_match__fixture__competition",
        )
        .order_by("sequence")
    )


def skills_of(coach_ids: list[int]) -> dict[int, Skill]:
    """Current skills by coach id (unrated coaches get the starting rating)."""
    found = {
        r.coach_id: Skill(r.mu, r.sigma, r.games, r.wins, r.draws, r.losses)
        for r in CoachRating.objects.filter(coach_id__in=coach_ids)
    }
    return {c: found.get(c, Skill()) for c in coach_ids}


@dataclass(frozen=True)
class FixturePrediction:
    fixture: Fixture
    home_coach_id: int
    away_coach_id: int
    home: Skill
    away: Skill
    chances: Prediction


def fixture_prediction(*, fixture_id: int) -> FixturePrediction:
    """The ratings' forecast of an upcoming fixture whose two coaches are known."""
    fixture = (
        Fixture.objects.select_related("home_team__coach", "away_team__coach", "competition")
        .filter(id=fixture_id)
        .first()
        if fixture_id <= ID_MAX
        else None
    )
    if fixture is None:
        raise NotFound(f"No fixture {fixture_id}.")
    home, away = fixture.home_team, fixture.away_team
    if home is None or away is None:
        raise ApplicationError(f"{fixture}: both teams must be known for a prediction.", code="teams_unknown")
    if home.coach_id is None or away.coach_id is None:
        raise ApplicationError(f"{fixture}: both teams need a coach for a prediction.", code="coach_unknown")
    game = rules_of(fixture.competition)
    if game.rating_pool != FUBA_3:
        raise ApplicationError(
            f"{fixture}: the coach ratings are FUBA 3 ratings; they predict no {game.name} match.",
            code="not_rated",
        )
    skills = skills_of([home.coach_id, away.coach_id])
    return FixturePrediction(
        fixture=fixture,
        home_coach_id=home.coach_id,
        away_coach_id=away.coach_id,
        home=skills[home.coach_id],
        away=skills[away.coach_id],
        chances=predict(skills[home.coach_id], skills[away.coach_id]),
    )


def coaches_of(*, coach_ids: list[int]) -> dict[int, Coach]:
    return Coach.objects.in_bulk(coach_ids)

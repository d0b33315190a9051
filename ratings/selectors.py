"""Reads of the coach ratings for pages and the API: one rating per game system, and the
combined view (``ratings.skill.combine``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from kernel.errors import ApplicationError, NotFound
from ratings.models import CoachRating, RatingHistory
from ratings.skill import Combined, Prediction, Skill, combine, predict
from tournaments.game_systems import FUBA_2, FUBA_3, GAME_SYSTEMS, SOCCER_CITY, SUPER_TEAM, rules_of
from tournaments.models import Coach, Fixture

ID_MAX = 2**63 - 1  # a larger path id cannot be a row (and PostgreSQL would refuse the query)
# The game systems rated, in the order pages list them.
RATED_SYSTEMS: tuple[str, ...] = (FUBA_3, FUBA_2, SOCCER_CITY, SUPER_TEAM)
COMBINED = "combined"


def system_name(game_system: str) -> str:
    return GAME_SYSTEMS[game_system].name


def check_game_system(value: str, where: str = "game_system") -> str:
    """A rated game system's code, or a clear error naming the field and the choices."""
    if value not in RATED_SYSTEMS:
        raise ApplicationError(
            f"{where}: {value!r} is not a rated game system; one of {', '.join(RATED_SYSTEMS)}."
        )
    return value


def coach_ranking(*, game_system: str = FUBA_3) -> QuerySet[CoachRating]:
    """Every coach rated in ``game_system``, best conservative value (mu - 3 sigma) first."""
    return (
        CoachRating.objects.select_related("coach")
        .filter(game_system=game_system)
        .order_by("-ordinal", "coach_id")
    )


@dataclass(frozen=True)
class CombinedRow:
    coach: Coach
    combined: Combined
    ratings: list[CoachRating]  # the coach's rating in each game system he played, RATED_SYSTEMS order


def _skill(r: CoachRating) -> Skill:
    return Skill(r.mu, r.sigma, r.games, r.wins, r.draws, r.losses)


def _by_system(ratings: list[CoachRating]) -> list[CoachRating]:
    return sorted(ratings, key=lambda r: RATED_SYSTEMS.index(r.game_system))


def combined_ranking() -> list[CombinedRow]:
    """Every rated coach by the combined rating (the games-weighted mean of his per-system
    conservative ratings, ``ratings.skill.combine``), best first."""
    per_coach: dict[int, list[CoachRating]] = {}
    for r in CoachRating.objects.select_related("coach"):
        per_coach.setdefault(r.coach_id, []).append(r)
    rows = [
        CombinedRow(rs[0].coach, combine([_skill(r) for r in rs]), _by_system(rs))
        for rs in per_coach.values()
    ]
    rows.sort(key=lambda row: (-row.combined.ordinal, row.coach.pk))
    return rows


def coach_ratings(*, coach_id: int) -> list[CoachRating]:
    """The coach's rating in each game system he has rated matches in (RATED_SYSTEMS order)."""
    if coach_id > ID_MAX:
        return []
    return _by_system(list(CoachRating.objects.select_related("coach").filter(coach_id=coach_id)))


def coach_combined(*, ratings: list[CoachRating]) -> Combined:
    return combine([_skill(r) for r in ratings])


def combined_rank(*, coach_id: int) -> int | None:
    for i, row in enumerate(combined_ranking()):
        if row.coach.pk == coach_id:
            return i + 1
    return None


def coach_rating(*, coach_id: int, game_system: str = FUBA_3) -> CoachRating | None:
    if coach_id > ID_MAX:
        return None
    return (
        CoachRating.objects.select_related("coach").filter(coach_id=coach_id, game_system=game_system).first()
    )


def coach_rank(*, rating: CoachRating) -> int:
    """The rating's place in its own game system's ranking."""
    # The ratings ranked above it (coach_ranking's order), counted in one query: a team's page
    # shows its coach's rank, rendered again for every team after each rated result of its game.
    above = Q(ordinal__gt=rating.ordinal) | Q(ordinal=rating.ordinal, coach_id__lt=rating.coach_id)
    counted = CoachRating.objects.filter(above, game_system=rating.game_system).count()
    return counted + 1


def coach_history(*, coach_id: int, game_system: str | None = None) -> list[RatingHistory]:
    """The coach's history points, of one game system or of all (by game system, then order)."""
    points = RatingHistory.objects.filter(coach_id=coach_id)
    if game_system is not None:
        points = points.filter(game_system=game_system)
    return list(
        points.select_related(
            "rated_match__fixture__home_team",
            "rated_match__fixture__away_team",
            "rated_match__fixture__competition",
        ).order_by("game_system", "sequence")
    )


def skills_of(coach_ids: list[int], *, game_system: str = FUBA_3) -> dict[int, Skill]:
    """Current skills in ``game_system`` by coach id (unrated coaches get the starting rating)."""
    found = {
        r.coach_id: _skill(r)
        for r in CoachRating.objects.filter(coach_id__in=coach_ids, game_system=game_system)
    }
    return {c: found.get(c, Skill()) for c in coach_ids}


@dataclass(frozen=True)
class FixturePrediction:
    fixture: Fixture
    game_system: str
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
    # The coaches' ratings of the fixture's own game system (a match is rated only in its own).
    skills = skills_of([home.coach_id, away.coach_id], game_system=rules_of(fixture.competition).rating_pool)
    return prediction_of(fixture, skills)


def prediction_of(fixture: Fixture, skills: Mapping[int, Skill]) -> FixturePrediction:
    """The forecast of a fixture whose two teams have coaches, from their skills in its rating
    pool (``skills_of``: a coach missing from them is unrated)."""
    home, away = fixture.home_team, fixture.away_team
    assert home is not None and away is not None and home.coach_id is not None and away.coach_id is not None
    home_skill, away_skill = skills.get(home.coach_id, Skill()), skills.get(away.coach_id, Skill())
    return FixturePrediction(
        fixture=fixture,
        game_system=rules_of(fixture.competition).rating_pool,
        home_coach_id=home.coach_id,
        away_coach_id=away.coach_id,
        home=home_skill,
        away=away_skill,
        chances=predict(home_skill, away_skill),
    )


def coaches_of(*, coach_ids: list[int]) -> dict[int, Coach]:
    return Coach.objects.in_bulk(coach_ids)

"""The small rating bits of the team and match pages: ``{% load ratings_tags %}``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import template
from django.db.models import OuterRef, Subquery

from ratings import selectors
from ratings.bulk import CompetitionRatings
from ratings.models import RatedMatch, RatingHistory
from tournaments.game_systems import FUBA_3, GAME_SYSTEMS, GameSystemRules, rules_of
from tournaments.models import Coach, Fixture

register = template.Library()


@register.inclusion_tag("ratings/partials/coach_rating.html")
def coach_rating(
    coach: Coach | None, game_system: str = FUBA_3, data: CompetitionRatings | None = None
) -> dict[str, Any]:
    """The coach's rating of one game system (a team's page: its competition's game); ``data``:
    the competition's ratings read in bulk, if they were (the refresh task's)."""
    if coach is None:
        rating = None
    elif data is not None:
        rating = data.rating(coach.pk, game_system)
    else:
        rating = selectors.coach_rating(coach_id=coach.pk, game_system=game_system)
    rank = None
    if rating is not None:
        rank = data.rank(rating) if data is not None else selectors.coach_rank(rating=rating)
    return {"coach": coach, "rating": rating, "system_name": GAME_SYSTEMS[game_system].name, "rank": rank}


@register.inclusion_tag("ratings/partials/match_rating.html")
def match_rating(
    fixture: Fixture, model: tuple[float, float, float] | None = None, data: CompetitionRatings | None = None
) -> dict[str, Any]:
    """A played match: how it moved the coaches' ratings; an upcoming one: the predictions.

    ``model`` is the chances' match model of the fixture (home, draw, away), shown beside the
    ratings' prediction: the page (above both apps) reads it, so ratings import nothing of chances.
    ``data``: the competition's ratings read in bulk, if they were (the refresh task's)."""
    context: dict[str, Any] = {"fixture": fixture, "changes": [], "prediction": None, "model": None}
    if data is not None:
        return _match_rating_of(context, fixture, model, data)
    if fixture.status in Fixture.COUNTED_STATUSES:
        entry = RatedMatch.objects.filter(fixture=fixture).exclude(outcome=RatedMatch.Outcome.VOID).first()
        context["rated"] = entry is not None
        if entry is not None:
            # Each coach's μ before the match (any game's history, as the sequence runs across
            # them), read with the points in one query: the bits of a game's played matches are
            # rendered again after each of its rated results (fubaleague/web/refresh.py).
            before = RatingHistory.objects.filter(
                coach_id=OuterRef("coach_id"), sequence__lt=OuterRef("sequence")
            ).order_by("-sequence")
            points = (
                RatingHistory.objects.filter(rated_match=entry)
                .select_related("coach")
                .annotate(mu_before=Subquery(before.values("mu")[:1]))
            )
            context["changes"] = [(point, point.mu_before) for point in points]
        return context
    return _upcoming(
        context, fixture, model, lambda game: selectors.fixture_prediction(fixture_id=fixture.pk)
    )


def _match_rating_of(
    context: dict[str, Any],
    fixture: Fixture,
    model: tuple[float, float, float] | None,
    data: CompetitionRatings,
) -> dict[str, Any]:
    """match_rating()'s context from the competition's ratings read in bulk."""
    if fixture.status in Fixture.COUNTED_STATUSES:
        changes = data.rated.get(fixture.pk)
        context["rated"] = changes is not None
        context["changes"] = changes or []
        return context
    return _upcoming(
        context, fixture, model, lambda game: selectors.prediction_of(fixture, data.skills(game.rating_pool))
    )


def _upcoming(
    context: dict[str, Any],
    fixture: Fixture,
    model: tuple[float, float, float] | None,
    predict: Callable[[GameSystemRules], Any],
) -> dict[str, Any]:
    """An upcoming match's predictions once both coaches are known; ``predict(game)`` gives the
    ratings' one (read for the fixture alone, or from the competition's ratings read in bulk)."""
    home, away = fixture.home_team, fixture.away_team
    if home is None or away is None or home.coach_id is None or away.coach_id is None:
        return context
    game = rules_of(fixture.competition)
    context["system_name"], context["engine"] = game.name, game.engine_backed
    context["prediction"] = predict(game)
    context["model"] = model
    return context

"""The coach ratings' bits of the team and match pages, rendered apart from the page around them.

A rating changes with every rated result of the game, anywhere (the ratings' scope, bumped by a
task after the result's commit): kept inside a team's or a match's page, it made every such page
be rendered whole again after any result. Kept as fragments of their own (fragments.slot), only
these few lines are.

The refresh task renders them for every team and match page of a competition after each rated
result: it reads the competition's rating data once (``bulk``) and the bits rendered inside it
take theirs from it; a reader's miss (one page) reads its own, no more than before.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass

from django.template.loader import render_to_string

from chances.models import ChancesJob
from chances.selectors import fixture_model_prediction, latest_job, model_prediction
from ratings.bulk import CompetitionRatings, competition_ratings
from ratings.templatetags.ratings_tags import coach_rating, match_rating
from tournaments.models import Coach, Competition, Fixture, Team


@dataclass(frozen=True)
class _Bulk:
    competition_id: int
    ratings: CompetitionRatings
    job: ChancesJob | None  # the chances' latest (their match model)


_bulk: ContextVar[_Bulk | None] = ContextVar("rating_bits_bulk", default=None)


@contextmanager
def bulk(competition: Competition) -> Iterator[None]:
    """The bits of ``competition``'s pages rendered within take their data from one bulk read."""
    token = _bulk.set(
        _Bulk(competition.pk, competition_ratings(competition), latest_job(competition=competition))
    )
    try:
        yield
    finally:
        _bulk.reset(token)


def coach_rating_html(coach: Coach | None, game_system: str) -> str:
    """What ``{% coach_rating coach game_system %}`` prints."""
    return render_to_string("ratings/partials/coach_rating.html", coach_rating(coach, game_system))


def team_coach_rating_html(team_id: int) -> str:
    held = _bulk.get()
    team = held.ratings.teams.get(team_id) if held is not None else None
    if team is None:
        held = None  # (not the bulk's competition: read alone)
        team = Team.objects.select_related("coach", "competition").get(pk=team_id)
    if team.coach is None:
        return ""
    data = held.ratings if held is not None else None
    context = coach_rating(team.coach, team.competition.game_system, data)
    return render_to_string("ratings/partials/coach_rating.html", context)


def match_rating_html(fixture: Fixture) -> str:
    """What ``{% match_rating fixture model %}`` prints, with the chances' match model of a match
    still to count."""
    model = None if fixture.status in Fixture.COUNTED_STATUSES else fixture_model_prediction(fixture=fixture)
    return render_to_string("ratings/partials/match_rating.html", match_rating(fixture, model))


def fixture_rating_html(fixture_id: int) -> str:
    held = _bulk.get()
    fixture = held.ratings.fixtures.get(fixture_id) if held is not None else None
    if held is None or fixture is None:
        related = ("competition", "stage", "home_team", "away_team")
        return match_rating_html(Fixture.objects.select_related(*related).get(pk=fixture_id))
    counted = fixture.status in Fixture.COUNTED_STATUSES
    model = None if counted else model_prediction(fixture=fixture, job=held.job)
    context = match_rating(fixture, model, held.ratings)
    return render_to_string("ratings/partials/match_rating.html", context)

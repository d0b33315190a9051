"""The coach ratings' bits of the team and match pages, rendered apart from the page around them.

A rating changes with every rated result of the game, anywhere (the ratings' scope, bumped by a
task after the result's commit): kept inside a team's or a match's page, it made every such page
be rendered whole again after any result. Kept as fragments of their own (fragments.slot), only
these few lines are.
"""

from __future__ import annotations

from django.template.loader import render_to_string

from chances.selectors import fixture_model_prediction
from ratings.templatetags.ratings_tags import coach_rating, match_rating
from tournaments.models import Coach, Fixture, Team


def coach_rating_html(coach: Coach | None, game_system: str) -> str:
    """What ``{% coach_rating coach game_system %}`` prints."""
    return render_to_string("ratings/partials/coach_rating.html", coach_rating(coach, game_system))


def team_coach_rating_html(team_id: int) -> str:
    team = Team.objects.select_related("coach", "competition").get(pk=team_id)
    return coach_rating_html(team.coach, team.competition.game_system) if team.coach is not None else ""


def match_rating_html(fixture: Fixture) -> str:
    """What ``{% match_rating fixture model %}`` prints, with the chances' match model of a match
    still to count."""
    model = None if fixture.status in Fixture.COUNTED_STATUSES else fixture_model_prediction(fixture=fixture)
    return render_to_string("ratings/partials/match_rating.html", match_rating(fixture, model))


def fixture_rating_html(fixture_id: int) -> str:
    related = ("competition", "stage", "home_team", "away_team")
    return match_rating_html(Fixture.objects.select_related(*related).get(pk=fixture_id))

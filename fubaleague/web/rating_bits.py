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


# A match's bit cut in two, kept apart (fubaleague/web/match_views.py): what a counted match shows
# (how it moved its coaches' ratings: a rating elsewhere leaves it as it is) and what a match still
# to count shows (the prediction from its coaches' ratings now). Each is empty where the other is
# not, so the two side by side are fixture_rating_html's.


def fixture_rated_html(fixture_id: int) -> str:
    """The bit of a counted match ("" for a match still to count)."""
    return fixture_rating_html(fixture_id) if _counted(fixture_id) else ""


def fixture_prediction_html(fixture_id: int) -> str:
    """The bit of a match still to count ("" for a counted match)."""
    return "" if _counted(fixture_id) else fixture_rating_html(fixture_id)


def _counted(fixture_id: int) -> bool:
    status = Fixture.objects.filter(pk=fixture_id).values_list("status", flat=True).get()
    return status in Fixture.COUNTED_STATUSES

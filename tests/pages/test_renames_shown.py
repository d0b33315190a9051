"""A club or coach renamed through the services shows at once on the kept public pages that name
them (the teams list, a team's page, the ratings), not after the pieces' expiry."""

from __future__ import annotations

from typing import Any

import pytest

from league import demo
from matches import services
from tests.pages.kept import forget_all, served
from tournaments.bracket import Score
from tournaments.models import Fixture, Team
from tournaments.services.clubs import club_update, coach_update


def _team(cup: demo.Demo) -> Team:
    team = Team.objects.filter(competition=cup.competition).exclude(coach=None).exclude(club=None).first()
    assert team is not None and team.coach is not None and team.club is not None
    return team


def _urls(cup: demo.Demo, team: Team) -> dict[str, str]:
    slug = cup.competition.slug
    return {
        "teams": f"/c/{slug}/teams/",
        "team": f"/c/{slug}/teams/{team.pk}/",
        "ranking": "/ratings/",
        "history": f"/ratings/coaches/{team.coach_id}/",
    }


def _rated(cup: demo.Demo, team: Team, capture: Any) -> None:
    """One counted result of the team, so that its coach has a rating on the ranking."""
    fixture = (
        Fixture.objects.filter(stage=cup.groups_stage, status=Fixture.Status.SCHEDULED, home_team=team)
        .exclude(away_team=None)
        .first()
    )
    assert fixture is not None and fixture.away_team is not None
    with capture(execute=True):
        services.result_submit(fixture_id=fixture.pk, user=cup.users[team.name], score=Score(2, 1))
        services.result_confirm(fixture_id=fixture.pk, user=cup.users[fixture.away_team.name])


@pytest.mark.django_db
def test_a_club_and_a_coach_renamed_show_on_every_kept_page(
    cup: demo.Demo, django_capture_on_commit_callbacks: Any
) -> None:
    team = _team(cup)
    _rated(cup, team, django_capture_on_commit_callbacks)
    urls = _urls(cup, team)
    before = served(urls)
    assert team.coach is not None and team.club is not None
    assert team.coach.name in before["ranking"], "the coach is on the ranking before the rename"

    with django_capture_on_commit_callbacks(execute=True):
        club_update(club=team.club, name="Renamed Club of the Test")
        coach_update(coach=team.coach, name="Renamed Coach of the Test", country="Narnia")
    kept = served(urls)
    forget_all()
    fresh = served(urls)

    assert kept == fresh
    assert "Renamed Club of the Test" in kept["teams"] and "Renamed Club of the Test" in kept["team"]
    for name in ("teams", "team", "ranking", "history"):
        assert "Renamed Coach of the Test" in kept[name], name


@pytest.mark.django_db
def test_a_save_that_changes_no_shown_name_keeps_the_pages(
    cup: demo.Demo, django_capture_on_commit_callbacks: Any
) -> None:
    team = _team(cup)
    urls = _urls(cup, team)
    served(urls)
    assert team.coach is not None
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        coach_update(coach=team.coach, ranking_id="FUBA-12345")
    assert callbacks == [], "nothing shown changed: no page made stale"

"""A played match's rating bit (how the match moved its coaches' ratings) is kept under what it
shows: a new rating elsewhere leaves it kept, a correction re-renders the played matches whose
changes it moved, and the kept page is always the page rendered from nothing (issue 35)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db.models import Q
from django.test import Client

from fubaleague.web import match_views
from league import demo
from matches import services
from ratings import services as ratings
from tests.pages.kept import forget_all
from tournaments.bracket import Score
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def _page(url: str) -> str:
    response = Client().get(url)
    assert response.status_code == 200, url
    return response.content.decode()


def _count(fixture: Fixture, score: Score, users: dict[str, Any], capture: Any) -> None:
    """The result counted through the clubs, then rated (the ratings' task, its commit run)."""
    services.result_submit(fixture_id=fixture.pk, user=users[fixture.home_team.name], score=score)
    services.result_confirm(fixture_id=fixture.pk, user=users[fixture.away_team.name])
    with capture(execute=True):
        ratings.fixture_rating_apply(fixture_id=fixture.pk)


def _rendered(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The fixtures whose played-match rating bit is rendered from now on."""
    calls: list[int] = []
    render = match_views.fixture_rated_html
    monkeypatch.setattr(match_views, "fixture_rated_html", lambda f: calls.append(f) or render(f))
    return calls


def _scheduled_pair(cup: demo.Demo) -> tuple[Fixture, Fixture]:
    """Two group matches still to play, in different rounds, with a team in common."""
    waiting = Fixture.objects.filter(
        stage=cup.groups_stage, status=Fixture.Status.SCHEDULED, home_team__isnull=False
    ).order_by("round", "id")
    for first in waiting:
        teams = Q(home_team=first.home_team) | Q(away_team=first.home_team)
        later = waiting.filter(teams, round__gt=first.round).first()
        if later is not None:
            return first, later
    raise AssertionError("no team with two matches to play")


def test_a_new_rating_elsewhere_leaves_a_played_matchs_bit_kept(
    cup: demo.Demo, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (the later match's coaches include one of the played match's: their ratings move, what the
    # played match moved does not)
    played, later = _scheduled_pair(cup)
    _count(played, Score(2, 0), cup.users, django_capture_on_commit_callbacks)
    url = f"/c/{cup.competition.slug}/matches/{played.pk}/"
    before = _page(url)
    assert 'data-testid="match-rating"' in before
    _count(later, Score(1, 1), cup.users, django_capture_on_commit_callbacks)
    rendered = _rendered(monkeypatch)
    kept = _page(url)
    assert played.pk not in rendered
    forget_all()
    assert kept == _page(url) == before


def test_a_corrected_rating_re_renders_the_later_match_whose_changes_it_moved(
    cup: demo.Demo, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, later = _scheduled_pair(cup)
    slug = cup.competition.slug
    _count(first, Score(2, 0), cup.users, django_capture_on_commit_callbacks)
    _count(later, Score(1, 1), cup.users, django_capture_on_commit_callbacks)
    url = f"/c/{slug}/matches/{later.pk}/"
    before = _page(url)
    rendered = _rendered(monkeypatch)
    # The first match corrected: the shared team's rating before the later match moves.
    services.result_override(fixture_id=first.pk, user=cup.admin, score=Score(0, 3), note="typo")
    with django_capture_on_commit_callbacks(execute=True):
        assert ratings.fixture_rating_apply(fixture_id=first.pk) == "rebuilt"
    kept = _page(url)
    assert later.pk in rendered and kept != before
    forget_all()
    assert kept == _page(url)

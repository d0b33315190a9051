"""A committed result renders the public pages it made stale on the write side
(fubaleague/web/refresh.py): the next anonymous reader is served each page as kept (nothing
assembled, no fragment rendered), and what it is served is the page rendered from nothing, with
the new result on it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from fubaleague.web import fragments, refresh
from league import demo
from matches import services
from ratings.models import system_part
from tests.pages.kept import forget_all, served
from tournaments.bracket import Score
from tournaments.game_systems import rules_of
from tournaments.models import Competition, Fixture, Team


def _urls(cup: demo.Demo, fixture: Fixture, other: Fixture) -> dict[str, str]:
    slug = cup.competition.slug
    return {
        "home": f"/c/{slug}/",
        "standings": f"/c/{slug}/standings/",
        "fixtures": f"/c/{slug}/fixtures/",
        "bracket": f"/c/{slug}/bracket/",
        "live centre": f"/c/{slug}/live/",
        "home team": f"/c/{slug}/teams/{fixture.home_team_id}/",
        "match": f"/c/{slug}/matches/{fixture.pk}/",
        # Another team's and match's pages: their coach ratings' bits moved with the result.
        "other team": f"/c/{slug}/teams/{other.home_team_id}/",
        "other match": f"/c/{slug}/matches/{other.pk}/",
        "coach ratings": "/ratings/",
    }


def _scheduled(cup: demo.Demo, skip: int = 0) -> Fixture:
    fixtures = Fixture.objects.filter(
        stage=cup.groups_stage, status=Fixture.Status.SCHEDULED, home_team__isnull=False
    ).exclude(away_team__isnull=True)
    found = fixtures.order_by("round", "id")[skip]
    assert found is not None
    return found


@pytest.mark.django_db
def test_a_result_renders_its_stale_fragments_before_any_reader(
    cup: demo.Demo, settings: Any, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PAGES_REFRESH = True
    fixture = _scheduled(cup)
    other = _scheduled(cup, skip=1)
    urls = _urls(cup, fixture, other)
    before = served(urls)
    # (its rating follows in a task queued on the commit: eager here, as the bench's)
    with django_capture_on_commit_callbacks(execute=True):
        services.result_override(fixture_id=fixture.pk, user=cup.admin, score=Score(3, 1), note="typed in")

    rendered: list[str] = []
    set_many = fragments.cache.set_many
    assembled: list[str] = []
    fetch = fragments.fetch

    def spy(values: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        rendered.extend(values)
        return set_many(values, *args, **kwargs)

    def fetched(slug: str, pieces: Any, **kwargs: Any) -> Any:
        assembled.extend(piece.name for piece in pieces)
        return fetch(slug, pieces, **kwargs)

    monkeypatch.setattr(fragments.cache, "set_many", spy)
    monkeypatch.setattr(fragments, "fetch", fetched)
    kept = served(urls)
    monkeypatch.undo()
    assert rendered == []
    # The pages themselves were kept by the task: not even assembled from their pieces.
    assert assembled == []
    forget_all()
    assert kept == served(urls)
    assert re.search(r'data-testid="score">3 – 1<', kept["match"])
    for name in ("home", "fixtures", "home team", "match", "coach ratings"):
        assert kept[name] != before[name], name


@pytest.mark.django_db
def test_without_the_setting_the_first_reader_renders(
    cup: demo.Demo, settings: Any, django_capture_on_commit_callbacks: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.PAGES_REFRESH = False
    fixture = _scheduled(cup)
    url = f"/c/{cup.competition.slug}/fixtures/"
    assert Client().get(url).status_code == 200
    queued: list[Any] = []
    monkeypatch.setattr(refresh, "publish", lambda *args, **kwargs: queued.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        services.result_override(fixture_id=fixture.pk, user=cup.admin, score=Score(2, 2), note="typed in")
    assert queued == []
    response = Client().get(url)
    assert response.status_code == 200 and "2–2" in response.content.decode()


@pytest.mark.django_db
def test_a_rating_change_renders_a_bounded_number_of_team_and_match_pages(
    cup: demo.Demo, monkeypatch: pytest.MonkeyPatch
) -> None:
    Competition.objects.filter(pk=cup.competition.pk).update(status=Competition.Status.ACTIVE)
    rendered: list[str] = []
    monkeypatch.setattr(refresh, "_render", lambda path, query=None: rendered.append(path))
    pages = Team.objects.filter(competition=cup.competition).count()
    pages += Fixture.objects.filter(competition=cup.competition).count()
    part = system_part(rules_of(cup.competition).rating_pool)

    monkeypatch.setattr(refresh, "RATING_PAGES_MAX", pages)
    refresh.rating_pages([part])
    assert sum("/teams/" in p or "/matches/" in p for p in rendered) == pages

    # Past the budget, the competition's readers render its pages: the task does not grow with it.
    rendered.clear()
    monkeypatch.setattr(refresh, "RATING_PAGES_MAX", pages - 1)
    refresh.rating_pages([part])
    assert set(rendered) == {"/ratings/"}

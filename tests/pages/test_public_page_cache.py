"""The public pages served to anonymous visitors from the cache (fubaleague/web/page_cache.py).

Kept pages must follow a counted result within 2 s, across processes; signed-in visitors are
always answered by the view and never get, nor leave, an anonymous visitor's page.
"""

from __future__ import annotations

import copy
import os
import re
import time
from collections.abc import Iterator

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches import services
from tests.factories import CompetitionFactory, team_with_member
from tests.processes import WebProcess, database_url_of_tests
from tests.web_fixtures import write_rows
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

# The score as the fixture lists ("4–1") and the match page's scoreboard ("4 – 1") show it.
FOUR_ONE = re.compile(r"4\s*–\s*1")


def _pages(slug: str, fixture: Fixture) -> list[str]:
    return [
        f"/c/{slug}/",
        f"/c/{slug}/fixtures/",
        f"/c/{slug}/fixtures/?team={fixture.home_team_id}",
        f"/c/{slug}/fixtures.ics",
        f"/c/{slug}/fixtures.csv",
        f"/c/{slug}/bracket/",
        f"/c/{slug}/teams/",
        f"/c/{slug}/teams/{fixture.home_team_id}/",
        f"/c/{slug}/matches/{fixture.pk}/",
        f"/c/{slug}/live/",
        f"/c/{slug}/live/round/{fixture.round}/",
        "/ratings/",
        "/ratings/?system=combined",
        f"/ratings/coaches/{fixture.home_team.coach_id}/",
    ]


@pytest.fixture
def cup(db, _light_cup_rows):  # type: ignore[no-untyped-def]
    # A cup of each test's own: the last test commits (another process reads the pages), which
    # the shared cup's transaction, open for the whole module, would hide (tests/web_fixtures.py).
    built, rows = _light_cup_rows
    write_rows(rows)
    return copy.deepcopy(built)


@pytest.mark.django_db
def test_anonymous_pages_are_rendered_once_then_kept(client: Client, cup) -> None:  # type: ignore[no-untyped-def]
    slug = cup.competition.slug
    fixture = Fixture.objects.filter(competition=cup.competition, status=Fixture.Status.CONFIRMED).first()
    for url in _pages(slug, fixture):
        first = client.get(url)
        assert first.status_code == 200 and first["X-Page-Cache"] == "miss", url
        with CaptureQueriesContext(connection) as queries:
            again = client.get(url)
        assert again["X-Page-Cache"] == "hit" and again.content == first.content, url
        # No query but, once a second at most, the small one of the matches scored live.
        sqls = [q["sql"] for q in queries.captured_queries]
        assert len(sqls) <= 1 and all('FROM "scoring_scoringsession"' in q for q in sqls), (url, sqls)


@pytest.mark.django_db
def test_a_signed_in_page_is_never_served_from_nor_kept_in_the_anonymous_cache(client: Client, cup) -> None:  # type: ignore[no-untyped-def]
    slug = cup.competition.slug
    fixture = Fixture.objects.filter(competition=cup.competition, status=Fixture.Status.SCHEDULED).first()
    member = cup.users[fixture.home_team.name]
    for url in _pages(slug, fixture):
        anonymous = client.get(url)
        assert client.get(url)["X-Page-Cache"] == "hit", url
        signed_in = Client()
        signed_in.force_login(member)
        for _ in range(2):
            own = signed_in.get(url)
            assert own.status_code == 200, url
            assert "X-Page-Cache" not in own and "private" in own["Cache-Control"], url
            if url.endswith("/"):
                assert b"Sign out" in own.content and b"Sign out" not in anonymous.content, url
        again = client.get(url)
        assert again["X-Page-Cache"] == "hit" and again.content == anonymous.content, url
    # The club's own match page offers its forms; the anonymous one does not.
    own_match = signed_in.get(f"/c/{slug}/matches/{fixture.pk}/").content
    assert b'data-testid="result-form"' in own_match
    assert b'data-testid="result-form"' not in client.get(f"/c/{slug}/matches/{fixture.pk}/").content


@pytest.fixture
def web() -> Iterator[WebProcess]:
    cache = settings.CACHES["default"]
    env = {
        **os.environ,
        "DATABASE_URL": database_url_of_tests(),
        "REDIS_URL": cache["LOCATION"],
        "CACHE_KEY_PREFIX": cache["KEY_PREFIX"],
        "CELERY_TASK_ALWAYS_EAGER": "1",
    }
    process = WebProcess(env)
    try:
        yield process
    finally:
        process.stop()


@pytest.mark.django_db(transaction=True)
def test_a_counted_result_shows_on_the_kept_pages_of_another_process_within_2_s(web: WebProcess) -> None:
    competition = CompetitionFactory(slug="cache-cup")
    (home, home_user), (away, away_user) = (
        team_with_member(competition, "Home"),
        team_with_member(competition, "Away"),
    )
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    pages = [
        f"/c/{competition.slug}/",
        f"/c/{competition.slug}/fixtures/",
        f"/c/{competition.slug}/matches/{fixture.pk}/",
    ]
    for page in pages:
        for _ in range(2):  # rendered, then kept by the server process
            status, body = web.request("GET", page)
            assert status == 200 and not FOUR_ONE.search(body), page

    submitter, confirmer = (home_user, away_user) if fixture.home_team == home else (away_user, home_user)
    services.result_submit(fixture_id=fixture.pk, user=submitter, score=Score(4, 1))
    services.result_confirm(fixture_id=fixture.pk, user=confirmer)
    counted = time.monotonic()

    waiting = set(pages)
    while waiting and time.monotonic() - counted < 5:
        waiting = {page for page in waiting if not FOUR_ONE.search(web.request("GET", page)[1])}
    elapsed = time.monotonic() - counted
    assert not waiting, f"still without the result after {elapsed:.1f} s: {sorted(waiting)}"
    assert elapsed < 2.0, f"the result took {elapsed:.2f} s to show"


@pytest.mark.django_db(transaction=True)
def test_a_counted_result_moves_the_kept_ratings_pages_of_another_process_within_2_s(web: WebProcess) -> None:
    competition = CompetitionFactory(slug="rated-cup")
    (home, home_user), (away, away_user) = (
        team_with_member(competition, "Rated Home"),
        team_with_member(competition, "Rated Away"),
    )
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    # What shows once the match is rated: the coach in the ranking, his rated matches on his page.
    rated = {"/ratings/": home.coach.name, f"/ratings/coaches/{home.coach_id}/": "rated matches ("}
    pages = list(rated)
    for page in pages:
        for _ in range(2):  # rendered, then kept by the server process
            status, body = web.request("GET", page)
            assert status == 200 and rated[page] not in body, page

    submitter, confirmer = (home_user, away_user) if fixture.home_team == home else (away_user, home_user)
    services.result_submit(fixture_id=fixture.pk, user=submitter, score=Score(4, 1))
    # The ratings task runs eagerly here, on the result's commit (ratings.signals).
    services.result_confirm(fixture_id=fixture.pk, user=confirmer)
    counted = time.monotonic()

    waiting = set(pages)
    while waiting and time.monotonic() - counted < 5:
        waiting = {page for page in waiting if rated[page] not in web.request("GET", page)[1]}
    elapsed = time.monotonic() - counted
    assert not waiting, f"still without the rating after {elapsed:.1f} s: {sorted(waiting)}"
    assert elapsed < 2.0, f"the rating took {elapsed:.2f} s to show"

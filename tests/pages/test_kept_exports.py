"""The fixtures' exports (.ics, .csv) kept like the fixtures page (fubaleague/web/exports.py): a
counted result is in them at once and kept before any reader asks, a kept export is served with
no query, the calendar's links are the reader's host's, and nothing awaiting confirmation (nor
any signed-in visitor's answer) is in what is kept.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league import demo
from matches import services
from matches.services import result_submit
from tests.factories import CompetitionFactory, team_with_member
from tests.pages.kept import forget_all, served
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.selectors import team_fixtures_in_order
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create


def _exports(slug: str) -> dict[str, str]:
    return {"ics": f"/c/{slug}/fixtures.ics", "csv": f"/c/{slug}/fixtures.csv"}


def _unstamped(pages: dict[str, str]) -> dict[str, str]:
    # (the calendar's DTSTAMP is the moment it was assembled)
    return {name: re.sub(r"DTSTAMP:\d{8}T\d{6}Z", "DTSTAMP:-", text) for name, text in pages.items()}


def _scheduled(cup: demo.Demo) -> Fixture:
    fixtures = Fixture.objects.filter(
        stage=cup.groups_stage, status=Fixture.Status.SCHEDULED, home_team__isnull=False
    ).exclude(away_team__isnull=True)
    return fixtures.order_by("round", "id")[0]


@pytest.mark.django_db
def test_a_counted_result_is_in_the_exports_kept_before_any_reader(
    cup: demo.Demo, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PAGES_REFRESH = True
    slug = cup.competition.slug
    fixture = _scheduled(cup)
    urls = _exports(slug)
    before = served(urls)
    with django_capture_on_commit_callbacks(execute=True):
        services.result_override(fixture_id=fixture.pk, user=cup.admin, score=Score(3, 1), note="typed in")
    with CaptureQueriesContext(connection) as queries:
        kept = served(urls)
    # The refresh task kept the stage's lines: the first reader after the result reads no row.
    assert len(queries) == 0, [q["sql"] for q in queries]
    assert f"{fixture.home_team.name} 3-1 {fixture.away_team.name}" in kept["ics"]
    (row,) = [line for line in kept["csv"].splitlines() if line.startswith(f"{fixture.pk},")]
    assert ",3,1," in row
    assert kept != before
    # What is kept is what a render from nothing gives.
    forget_all()
    assert _unstamped(kept) == _unstamped(served(urls))


@pytest.mark.django_db
def test_a_kept_calendar_is_served_from_the_cache_with_the_readers_host(cup: demo.Demo) -> None:
    url = _exports(cup.competition.slug)["ics"]
    first = Client().get(url)
    assert first["X-Page-Cache"] == "miss"
    with CaptureQueriesContext(connection) as queries:
        again = Client().get(url)
    assert again["X-Page-Cache"] == "hit" and len(queries) == 0
    assert again.content == first.content
    # Another host's reader gets its own links, not the first reader's host.
    other = Client().get(url, HTTP_HOST="localhost").content.decode()
    assert "http://testserver/" in first.content.decode()
    assert "http://testserver/" not in other and "@testserver" not in other
    assert "URL:http://localhost/c/" in other.replace("\r\n ", "")


@pytest.mark.django_db
def test_the_kept_exports_hold_no_score_awaiting_confirmation(
    django_capture_on_commit_callbacks: Any,
) -> None:
    competition = CompetitionFactory(status="active")
    teams = [team_with_member(competition, n) for n in ("Blues", "Yellows", "Reds")]
    stage = stage_create(
        competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[t for t, _ in teams]
    )
    fixture_generate(stage=stage)
    fixture = team_fixtures_in_order(team=teams[0][0])[0]
    member = {t.id: u for t, u in teams}[fixture.home_team_id]
    with django_capture_on_commit_callbacks(execute=True):
        result_submit(fixture_id=fixture.id, user=member, score=Score(7, 5))
    urls = _exports(competition.slug)
    signed_in = Client()
    signed_in.force_login(member)
    for url in urls.values():
        response = signed_in.get(url)
        assert "private" in response["Cache-Control"] and "X-Page-Cache" not in response
    served(urls)
    slug = competition.slug
    pages = [f"standings:s:{slug}:page:{url}?team=" for url in urls.values()]
    pages[0] += ":host:http://testserver"
    names = [f"frag:{slug}:{kind}::s{stage.pk}" for kind in ("ics", "csv")]
    kept = cache.get_many([*pages, *names])
    # The stages' lines are kept (for the pages and the refresh task), and with them nothing of
    # the score awaiting confirmation, though a club member of the fixture asked first.
    assert sorted(kept) == sorted([*pages, *names])
    text = repr(kept)
    assert fixture.home_team.name in text
    assert "7-5" not in text and ",7,5," not in text

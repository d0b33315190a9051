"""The big screen (issue 33, item 5): a display-only page per competition fed by two shared
documents; the screen's (standings, next fixtures, bracket) is one cached JSON with an ETag, kept
until the competition's data changes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from league.demo import club_username
from matches.services import result_confirm, result_submit
from tournaments.bracket import Score
from tournaments.models import Fixture, Team

pytestmark = pytest.mark.django_db


def club_user(team: Team):
    return get_user_model().objects.get(username=club_username(team.name))


def test_the_big_screen_page_needs_no_login_and_names_both_documents(client: Client, cup) -> None:
    slug = cup.competition.slug
    html = client.get(f"/c/{slug}/screen/").content.decode()
    assert f'data-doc-url="/c/{slug}/live.json"' in html
    assert f'data-screen-url="/c/{slug}/screen.json"' in html
    # display only: no menu, no sign-in link, no form
    assert "Sign in" not in html and "<form" not in html and "<nav" not in html
    assert 'data-seconds="12"' in html
    assert 'data-seconds="3"' in client.get(f"/c/{slug}/screen/?seconds=1").content.decode()


def test_the_screen_document_has_standings_next_fixtures_and_bracket(client: Client, cup) -> None:
    doc = client.get(f"/c/{cup.competition.slug}/screen.json").json()
    titles = [t["title"] for t in doc["standings"]]
    assert "Group stage · Group A" in titles and len(titles) == 8
    assert all(len(t["rows"]) == 4 for t in doc["standings"])
    assert set(doc["standings"][0]["rows"][0]) == {
        "position", "team", "played", "won", "drawn", "lost", "goal_difference", "points"
    }  # fmt: skip
    assert doc["upcoming"] and all(f["home"] and f["away"] for f in doc["upcoming"])
    (bracket,) = doc["brackets"]
    assert bracket["svg"].startswith("<svg") and "data-match" in bracket["svg"]


def test_the_screen_document_is_a_304_from_the_cache_until_a_result_counts(client: Client, cup) -> None:
    url = f"/c/{cup.competition.slug}/screen.json"
    first = client.get(url)
    assert first["Cache-Control"] == "public, max-age=1"
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    assert len(queries) == 1  # the competition by its slug; the document from the cache
    fixture = (
        Fixture.objects.filter(
            competition=cup.competition, status=Fixture.Status.SCHEDULED, stage__kind="groups"
        )
        .select_related("home_team", "away_team")
        .first()
    )
    result_submit(fixture_id=fixture.id, user=club_user(fixture.home_team), score=Score(3, 0))
    result_confirm(fixture_id=fixture.id, user=club_user(fixture.away_team))
    moved = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert moved.status_code == 200 and moved["ETag"] != first["ETag"]
    assert fixture.id not in [f["fixture"] for f in moved.json()["upcoming"]]

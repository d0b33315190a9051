"""Public pages render with real data, mark simulated results and stay within a query budget."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def get(client: Client, url: str, status: int = 200) -> str:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return response.content.decode()


def test_home_lists_competitions(client: Client, cup) -> None:
    html = get(client, "/")
    assert cup.competition.name in html
    assert f"/c/{cup.competition.slug}/" in html


def _listed(html: str, heading_id: str) -> list[int]:
    """The fixtures listed in the section with this heading, in page order."""
    section = html.split(f'id="{heading_id}"', 1)[1].split("</section>", 1)[0]
    return [int(pk) for pk in re.findall(r'<li class="fixture" data-fixture="(\d+)"', section)]


def test_competition_home(client: Client, cup) -> None:
    html = get(client, f"/c/{cup.competition.slug}/")
    counted = Fixture.objects.filter(competition=cup.competition, status__in=Fixture.COUNTED_STATUSES)
    latest = list(counted.order_by("-result__updated_at", "-id").values_list("id", flat=True)[:8])
    assert latest and _listed(html, "recent-h") == latest
    open_fixtures = Fixture.objects.filter(competition=cup.competition).exclude(
        status__in=Fixture.DONE_STATUSES
    )
    following = list(
        open_fixtures.order_by("kickoff", "stage__order", "round", "match_number", "id").values_list(
            "id", flat=True
        )[:8]
    )
    assert following and _listed(html, "next-h") == following
    # A result shows its score and the teams link to their pages.
    shown = Fixture.objects.select_related("result", "home_team").get(pk=latest[0])
    item = html.split(f'data-fixture="{shown.pk}"', 1)[1].split("</li>", 1)[0]
    assert f"{shown.result.home_goals}–{shown.result.away_goals}" in item
    assert f"/c/{cup.competition.slug}/teams/{shown.home_team_id}/" in item
    # The group tables of the front page: one per group of the demo's group stage.
    assert re.findall(r"<caption[^>]*>\s*Group ([A-H])", html) == list("ABCDEFGH")


def test_standings_page_groups_and_chart(client: Client, cup) -> None:
    html = get(client, f"/c/{cup.competition.slug}/standings/")
    for group in "ABCDEFGH":
        assert f"Group {group}" in html
    assert "Tie-break order: points" in html
    assert "League positions by round" in html and "<polyline" in html
    assert 'class="qualified"' in html


def test_standings_page_is_cached_for_anonymous_visitors(client: Client, cup) -> None:
    url = f"/c/{cup.competition.slug}/standings/"
    get(client, url)
    with CaptureQueriesContext(connection) as queries:
        get(client, url)
    assert len(queries) == 0


def test_standings_cache_follows_a_new_result(client: Client, cup) -> None:
    from matches import services

    url = f"/c/{cup.competition.slug}/standings/"
    before = get(client, url)
    fixture = (
        Fixture.objects.filter(group__name="C", round=1).select_related("home_team", "away_team").first()
    )
    services.result_submit(
        fixture_id=fixture.pk, user=cup.users[fixture.home_team.name], home_goals=3, away_goals=0
    )
    services.result_confirm(fixture_id=fixture.pk, user=cup.users[fixture.away_team.name])
    after = get(client, url)
    assert before != after


def test_unknown_competitions_leave_nothing_in_the_cache(client: Client, cup) -> None:
    # Anonymous requests for made-up slugs must not grow the cache (a version key per slug).
    from django.core.cache import cache

    from tournaments.standings.cache import _slug_version_key

    for slug in ("no-such-cup", "another-made-up-one"):
        get(client, f"/c/{slug}/standings/", status=404)
        assert client.get(f"/api/v1/competitions/{slug}/standings").status_code == 404
        assert cache.get(_slug_version_key(slug)) is None
    get(client, f"/c/{cup.competition.slug}/standings/")
    assert cache.get(_slug_version_key(cup.competition.slug)) is not None


def test_bracket_is_svg_with_round_titles(client: Client, cup) -> None:
    html = get(client, f"/c/{cup.competition.slug}/bracket/")
    assert "<svg" in html and 'class="bracket"' in html
    for title in ("Round of 16", "Quarter-finals", "Semi-finals", "Final", "Third place"):
        assert title in html
    assert "Winner match" in html  # unresolved slots are shown as placeholders


def test_fixtures_by_round_marks_simulated_results(client: Client, cup) -> None:
    html = get(client, f"/c/{cup.competition.slug}/fixtures/")
    assert "Matchday 1" in html and "Round of 16" in html
    assert "badge--sim" in html and "Simulated" in html
    assert "Disputed" in html and "Awaiting confirmation" in html


def test_fixtures_query_count_is_bounded(client: Client, cup) -> None:
    url = f"/c/{cup.competition.slug}/fixtures/"
    get(client, url)
    with CaptureQueriesContext(connection) as queries:
        get(client, url)
    assert len(queries) <= 12, [q["sql"][:120] for q in queries.captured_queries]


def test_ical_feed(client: Client, cup) -> None:
    response = client.get(f"/c/{cup.competition.slug}/fixtures.ics")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/calendar")
    body = response.content.decode()
    assert body.startswith("BEGIN:VCALENDAR\r\n") and body.rstrip().endswith("END:VCALENDAR")
    assert body.count("BEGIN:VEVENT") == Fixture.objects.filter(competition=cup.competition).count()
    assert all(len(line.encode()) <= 75 for line in body.split("\r\n"))


def test_csv_export(client: Client, cup) -> None:
    import csv
    import io

    response = client.get(f"/c/{cup.competition.slug}/fixtures.csv")
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == Fixture.objects.filter(competition=cup.competition).count()
    simulated = [r for r in rows if r["simulated"] == "yes"]
    assert simulated and all(r["status"] == "simulated" for r in simulated)


def test_team_filter_on_fixtures_and_exports(client: Client, cup) -> None:
    team = cup.teams["Brazil"]
    html = get(client, f"/c/{cup.competition.slug}/fixtures/?team={team.pk}")
    assert html.count('class="fixture"') >= 3
    get(client, f"/c/{cup.competition.slug}/fixtures/?team=abc", status=400)
    get(client, f"/c/{cup.competition.slug}/fixtures.csv?team=abc", status=400)


def test_team_page(client: Client, cup) -> None:
    team = cup.teams["Brazil"]
    html = get(client, f"/c/{cup.competition.slug}/teams/{team.pk}/")
    assert "Brazil" in html and "Results and fixtures" in html and "Suspensions" in html and "Skills" in html
    assert html.count('class="chip"') == 3  # the three skills of the demo roster
    get(client, f"/c/{cup.competition.slug}/teams/999999/", status=404)


def test_teams_and_coach_pages(client: Client, cup) -> None:
    html = get(client, f"/c/{cup.competition.slug}/teams/")
    coach = cup.teams["Japan"].coach
    assert coach.name in html
    html = get(client, f"/coaches/{coach.pk}/")
    assert "Japan" in html and cup.competition.name in html


def test_match_page_of_simulated_match_has_replay(client: Client, cup) -> None:
    fixture_id = cup.simulated[0]
    html = get(client, f"/c/{cup.competition.slug}/matches/{fixture_id}/")
    assert "Simulated result" in html
    # the areas are drawn (by code, for the script) and named as people say them
    assert 'id="replay-pitch"' in html and 'data-area="A-PEN"' in html and 'data-area="H-PEN"' in html
    fixture = Fixture.objects.select_related("home_team").get(pk=fixture_id)
    assert f"<title>{fixture.home_team.name} box</title>" in html
    response = client.get(f"/c/{cup.competition.slug}/matches/{fixture_id}/replay.json")
    data = response.json()
    assert response.status_code == 200 and data["error"] is None and len(data["frames"]) > 50
    fixture = Fixture.objects.select_related("result").get(pk=fixture_id)
    assert data["frames"][-1]["score"] == [fixture.result.home_goals, fixture.result.away_goals]


def test_match_without_log_has_no_replay(client: Client, cup) -> None:
    fixture = Fixture.objects.filter(status="confirmed").first()
    html = get(client, f"/c/{cup.competition.slug}/matches/{fixture.pk}/")
    assert 'id="replay-pitch"' not in html
    get(client, f"/c/{cup.competition.slug}/matches/{fixture.pk}/replay.json", status=404)


def test_unknown_competition_is_404(client: Client, db) -> None:
    for url in ("/c/nope/", "/c/nope/standings/", "/c/nope/bracket/", "/c/nope/fixtures.ics"):
        get(client, url, status=404)

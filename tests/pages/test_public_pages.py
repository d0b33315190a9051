"""Public pages render with real data, mark simulated results and stay within a query budget."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.db.models import Q
from django.test import Client
from django.test.utils import CaptureQueriesContext

from matches.standings.selectors import standings_table
from tests.page_tree import Node, parse
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage, Team

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
    slug = cup.competition.slug
    page = parse(get(client, f"/c/{slug}/standings/"))
    stage = cup.competition.stages.get(kind=Stage.Kind.GROUPS)
    assert not stage.best_thirds  # so exactly the first advance_per_group of a group qualify
    tables = page.select("table.standings")
    groups = list(stage.groups.order_by("name"))
    assert [t.attrs["data-group"] for t in tables] == [g.name for g in groups] == list("ABCDEFGH")
    for table, group in zip(tables, groups, strict=True):
        assert table.one("caption").text == f"Group {group.name}"
        expected = standings_table(stage=stage, group=group)
        rows = table.select("tbody tr")
        assert [
            (r.one("td.pos").text, r.one("th.team a").attrs["href"], r.one("td.pts").text) for r in rows
        ] == [
            ("=" if e.level_with_previous else str(e.position), f"/c/{slug}/teams/{e.team}/", str(e.points))
            for e in expected
        ]
        assert ["qualified" in r.classes for r in rows] == [
            e.position <= stage.advance_per_group for e in expected
        ]
    assert page.one("p.legend").text.startswith("Tie-break order: points → goal difference → goals scored")
    # One chart a group that has played two rounds or more; a team's line ends at its place in
    # the table (group A has played its three rounds).
    charts = page.select("figure svg.chart")
    counted = Fixture.objects.filter(stage=stage, status__in=Fixture.COUNTED_STATUSES)
    rounds = {g.name: set(counted.filter(group=g).values_list("round", flat=True)) for g in groups}
    assert rounds["A"] == {1, 2, 3}
    assert [c.attrs["aria-label"] for c in charts] == [
        f"Positions by round, Group stage – Group {name}"
        for name, played in rounds.items()
        if len(played) >= 2
    ]
    lines = charts[0].select("g")
    final_places = {g.select("title")[0].text: g.select("circle title")[-1].text for g in lines}
    group_a = standings_table(stage=stage, group=groups[0])
    names = dict(Team.objects.filter(pk__in=[r.team for r in group_a]).values_list("pk", "name"))
    assert final_places == {
        names[r.team]: f"{names[r.team]}: position {r.position} after round 3" for r in group_a
    }
    assert all(len(g.select("polyline")) == 1 for g in lines)


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
    services.result_submit(fixture_id=fixture.pk, user=cup.users[fixture.home_team.name], score=Score(3, 0))
    services.result_confirm(fixture_id=fixture.pk, user=cup.users[fixture.away_team.name])
    after = get(client, url)
    assert before != after


def test_unknown_competitions_leave_nothing_in_the_cache(client: Client, cup) -> None:
    # Anonymous requests for made-up slugs must not grow the cache (a version key per slug).
    from django.core.cache import cache

    from matches.standings.cache import _slug_version_key

    for slug in ("no-such-cup", "another-made-up-one"):
        get(client, f"/c/{slug}/standings/", status=404)
        assert client.get(f"/api/v1/competitions/{slug}/standings").status_code == 404
        assert cache.get(_slug_version_key(slug)) is None
    get(client, f"/c/{cup.competition.slug}/standings/")
    assert cache.get(_slug_version_key(cup.competition.slug)) is not None


def test_bracket_is_svg_with_round_titles(client: Client, cup) -> None:
    slug = cup.competition.slug
    svg = parse(get(client, f"/c/{slug}/bracket/")).one("svg.bracket")
    titles = [t.text for t in svg.select("text.round-title")]
    assert titles == ["Round of 16", "Quarter-finals", "Semi-finals", "Final", "Third place"]
    knockout = Fixture.objects.filter(
        competition=cup.competition, stage__kind=Stage.Kind.KNOCKOUT
    ).select_related("home_team", "away_team")
    ties = {int(a.attrs["data-match"]): a for a in svg.select("a.tie")}
    assert sorted(ties) == sorted(f.match_number for f in knockout)
    for fixture in knockout:
        tie = ties[fixture.match_number]
        assert tie.attrs["href"] == f"/c/{slug}/matches/{fixture.pk}/"
        home, away = (t for t in tie.select("text") if not t.classes & {"score", "bracket-note"})
        # A known team is named; an unresolved slot shows its placeholder, marked as one.
        for text, team, placeholder in (
            (home, fixture.home_team, fixture.home_placeholder),
            (away, fixture.away_team, fixture.away_placeholder),
        ):
            assert (text.text, "ph" in text.classes) == ((team.name, False) if team else (placeholder, True))
    assert any(not f.home_team for f in knockout)  # the demo's bracket is not complete


def _fixture_items(page: Node) -> dict[int, Node]:
    return {int(li.attrs["data-fixture"]): li for li in page.select("li.fixture")}


def test_fixtures_by_round_marks_simulated_results(client: Client, cup) -> None:
    page = parse(get(client, f"/c/{cup.competition.slug}/fixtures/"))
    headings = [section.one("h2").text for section in page.select("section.round")]
    assert headings[0] == "Matchday 1 · Group stage" and "Round of 16 · Knockout stage" in headings
    items = _fixture_items(page)
    fixtures = Fixture.objects.filter(competition=cup.competition).select_related("result")
    assert sorted(items) == sorted(f.pk for f in fixtures)  # every fixture, once
    badges = {
        Fixture.Status.SIMULATED: "Simulated",
        Fixture.Status.DISPUTED: "Disputed",
        Fixture.Status.SUBMITTED: "Awaiting confirmation",
    }
    for fixture in fixtures:
        shown = [b.text for b in items[fixture.pk].select(".fixture__status .badge") if b.text != "Overdue"]
        assert shown == ([badges[fixture.status]] if fixture.status in badges else []), fixture
    assert {f.status for f in fixtures} >= set(badges)  # the demo has one of each


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
    page = parse(get(client, f"/c/{cup.competition.slug}/fixtures/?team={team.pk}"))
    theirs = Fixture.objects.filter(Q(home_team=team) | Q(away_team=team))
    assert len(theirs) >= 3 and sorted(_fixture_items(page)) == sorted(f.pk for f in theirs)
    get(client, f"/c/{cup.competition.slug}/fixtures/?team=abc", status=400)
    get(client, f"/c/{cup.competition.slug}/fixtures.csv?team=abc", status=400)


def test_team_page(client: Client, cup) -> None:
    slug = cup.competition.slug
    team = cup.teams["Brazil"]
    page = parse(get(client, f"/c/{slug}/teams/{team.pk}/"))
    assert page.one("h1").text == "Brazil"
    # Results and fixtures: one row a fixture of the team, in date order, with the match link.
    theirs = Fixture.objects.filter(Q(home_team=team) | Q(away_team=team)).order_by("kickoff", "id")
    rows = page.select("table tbody tr")
    opponents = [f.away_team if f.home_team_id == team.pk else f.home_team for f in theirs]
    assert [r.one("td.team").text for r in rows] == [o.name for o in opponents]
    assert [r.select("a")[0].attrs["href"] for r in rows] == [f"/c/{slug}/matches/{f.pk}/" for f in theirs]
    assert [s.one("h2").text for s in page.select("section.card")] == ["Suspensions", "Skills"]
    chips = [chip.text for chip in page.select("ul.chips li.chip")]
    roster = sorted(ts.skill.name for ts in team.roster_skills.select_related("skill"))
    assert sorted(chips) == roster and len(roster) == 3  # the three skills of the demo roster
    get(client, f"/c/{slug}/teams/999999/", status=404)


def test_teams_and_coach_pages(client: Client, cup) -> None:
    slug = cup.competition.slug
    page = parse(get(client, f"/c/{slug}/teams/"))
    teams = cup.competition.teams.select_related("coach").order_by("name")
    rows = page.select("table tbody tr")
    assert [r.one("th.team a").attrs["href"] for r in rows] == [f"/c/{slug}/teams/{t.pk}/" for t in teams]
    assert [r.one("td a").attrs["href"] for r in rows] == [f"/coaches/{t.coach_id}/" for t in teams]
    japan = cup.teams["Japan"]
    page = parse(get(client, f"/coaches/{japan.coach_id}/"))
    assert page.one("h1").text == japan.coach.name
    (row,) = page.select("table tbody tr")
    assert (
        row.select("a")[0].attrs["href"] == f"/c/{slug}/" and row.select("a")[0].text == cup.competition.name
    )
    assert row.one("th.team a").attrs["href"] == f"/c/{slug}/teams/{japan.pk}/"


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

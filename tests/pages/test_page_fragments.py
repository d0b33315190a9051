"""Public pages assembled from kept fragments (fubaleague/web/fragments.py) show every change.

Each change is made through the services, the pages were kept before it; after it, each page as
assembled from what is kept must be the page rendered from nothing (every cache cleared): nothing
stale, nothing missing. And the change itself must show where the page shows it.
"""

from __future__ import annotations

import re
import time
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from league import demo
from matches import services
from matches.services.shared import CardInput
from matches.standings import cache as standings_cache
from matches.standings.selectors import standings_table
from tests.pages.kept import forget_all
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_schedule, round_shift


def _urls(cup: demo.Demo, team_id: int) -> list[str]:
    slug = cup.competition.slug
    return [
        f"/c/{slug}/",
        f"/c/{slug}/standings/",
        f"/c/{slug}/fixtures/",
        f"/c/{slug}/fixtures/?team={team_id}",
        f"/c/{slug}/bracket/",
    ]


def _kept_then_fresh(urls: list[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Each page as kept fragments assemble it, then as rendered from nothing."""
    client = Client()
    kept = {url: client.get(url).content.decode() for url in urls}
    forget_all()
    fresh = {url: client.get(url).content.decode() for url in urls}
    return kept, fresh


def _warm(urls: list[str]) -> None:
    client = Client()
    for url in urls:
        assert client.get(url).status_code == 200, url


def _scheduled(cup: demo.Demo, stage: Stage) -> Fixture:
    fixture = (
        Fixture.objects.filter(stage=stage, status=Fixture.Status.SCHEDULED, home_team__isnull=False)
        .exclude(away_team__isnull=True)
        .order_by("round", "id")
        .first()
    )
    assert fixture is not None
    return fixture


def _row(html: str, fixture: Fixture) -> str:
    found = re.search(rf'<li class="fixture" data-fixture="{fixture.pk}">.*?</li>', html, re.S)
    assert found, fixture
    return found.group(0)


@pytest.mark.django_db
def test_a_counted_then_corrected_result_shows_on_every_page_nothing_stale(cup: demo.Demo) -> None:
    fixture = _scheduled(cup, cup.groups_stage)
    urls = _urls(cup, fixture.home_team_id)
    _warm(urls)
    home, away = fixture.home_team, fixture.away_team
    services.result_submit(fixture_id=fixture.pk, user=cup.users[home.name], score=Score(5, 4))
    services.result_confirm(fixture_id=fixture.pk, user=cup.users[away.name])
    kept, fresh = _kept_then_fresh(urls)
    for url in urls:
        assert kept[url] == fresh[url], url
    assert "5–4" in _row(kept[urls[2]], fixture) and "5–4" in _row(kept[urls[3]], fixture)
    assert f'data-fixture="{fixture.pk}"' in kept[urls[0]].split('id="next-h"')[0]  # latest results

    # Corrected by the organisers, with a red card: the old score is gone everywhere.
    _warm(urls)
    services.result_override(
        fixture_id=fixture.pk,
        user=cup.admin,
        score=Score(0, 3),
        cards=[CardInput(side="home", kind="red", shirt_number=4)],
        note="wrong score reported",
    )
    kept, fresh = _kept_then_fresh(urls)
    for url in urls:
        assert kept[url] == fresh[url], url
    row = _row(kept[urls[2]], fixture)
    assert "0–3" in row and "5–4" not in row


@pytest.mark.django_db
def test_a_moved_fixture_and_a_moved_round_show_on_every_page(cup: demo.Demo) -> None:
    fixture = _scheduled(cup, cup.groups_stage)
    urls = _urls(cup, fixture.home_team_id)
    _warm(urls)
    kickoff = fixture.kickoff + timedelta(days=3, hours=5)
    fixture_schedule(fixture_id=fixture.pk, kickoff=kickoff, deadline=None)
    kept, fresh = _kept_then_fresh(urls)
    for url in urls:
        assert kept[url] == fresh[url], url
    assert "fixture__deadline" not in _row(kept[urls[2]], fixture)

    # A whole round moved with bulk_update (no model signals): seen through the announcement.
    _warm(urls)
    before = _row(Client().get(urls[2]).content.decode(), fixture)
    round_shift(stage=cup.groups_stage, round=fixture.round, by=timedelta(days=2))
    kept, fresh = _kept_then_fresh(urls)
    for url in urls:
        assert kept[url] == fresh[url], url
    assert _row(kept[urls[2]], fixture) != before


@pytest.mark.django_db
def test_a_knockout_result_shows_on_the_bracket(cup: demo.Demo) -> None:
    fixture = (
        Fixture.objects.filter(stage=cup.knockout, home_team__isnull=False, away_team__isnull=False)
        .order_by("round", "id")
        .first()
    )
    assert fixture is not None, "the light cup has a knockout tie with both teams"
    urls = _urls(cup, fixture.home_team_id)
    _warm(urls)
    services.result_override(
        fixture_id=fixture.pk, user=cup.admin, score=Score(7, 6), note="bench", reopen=True
    )
    kept, fresh = _kept_then_fresh(urls)
    for url in urls:
        assert kept[url] == fresh[url], url
    bracket = kept[urls[4]]
    assert re.search(rf'data-match="{fixture.match_number}">.*?>7</text>.*?>6</text>', bracket, re.S)


@pytest.mark.django_db
def test_a_renamed_team_shows_on_every_page(cup: demo.Demo) -> None:
    fixture = _scheduled(cup, cup.groups_stage)
    urls = _urls(cup, fixture.home_team_id)
    _warm(urls)
    team = fixture.home_team
    team.name = "Renamed Rovers"
    team.save(update_fields=["name"])
    kept, fresh = _kept_then_fresh(urls)
    for url in urls:
        assert kept[url] == fresh[url], url
        # (the bracket names the group stage's teams once the groups are over)
        assert "Renamed Rovers" in kept[url] or url.endswith("/bracket/"), url


@pytest.mark.django_db
def test_signed_in_pages_are_rendered_for_the_visitor_and_keep_nothing_of_theirs(cup: demo.Demo) -> None:
    fixture = _scheduled(cup, cup.groups_stage)
    urls = _urls(cup, fixture.home_team_id)
    member = Client()
    member.force_login(cup.users[fixture.home_team.name])
    for url in urls:
        own = member.get(url).content.decode()
        assert "Sign out" in own and "Sign in" not in own.split("</header>")[0], url
        anonymous = Client().get(url).content.decode()
        assert "Sign out" not in anonymous and "Sign in" in anonymous, url


@pytest.mark.django_db
def test_a_kept_fixture_list_turns_overdue_when_its_deadline_passes(cup: demo.Demo) -> None:
    fixture = _scheduled(cup, cup.groups_stage)
    urls = _urls(cup, fixture.home_team_id)
    now = timezone.now()
    deadline = now + timedelta(seconds=4)  # (the first rendering of the cup's pages takes a while)
    fixture_schedule(fixture_id=fixture.pk, kickoff=now - timedelta(hours=2), deadline=deadline)
    client = Client()
    lists = urls[2:4]  # the fixtures page, all and the team's
    for url in lists:
        assert 'data-testid="overdue"' not in _row(client.get(url).content.decode(), fixture), url
    assert timezone.now() < deadline
    time.sleep((deadline - timezone.now()).total_seconds() + 0.1)
    # Nothing changed but the clock: the page's version moves (as any change elsewhere does), the
    # stage's does not; the kept list of its fixtures is stale all the same.
    standings_cache.invalidate_scope(cup.competition.slug)
    for url in lists:
        assert 'data-testid="overdue"' in _row(client.get(url).content.decode(), fixture), url


@pytest.mark.django_db
def test_a_third_placed_team_placed_in_the_knockouts_shows_as_qualified(cup: demo.Demo) -> None:
    """A group table marks the best third-placed teams placed in a knockout slot: a later stage's
    fixture shows in it (fragments.Outline.places_thirds)."""
    stage = cup.groups_stage
    stage.best_thirds = 1
    stage.save(update_fields=["best_thirds"])
    group = stage.groups.order_by("name").first()
    third = standings_table(stage=stage, group=group)[2].team
    url = f"/c/{cup.competition.slug}/standings/"
    before = Client().get(url).content.decode()
    slot = Fixture.objects.filter(stage=cup.knockout, status=Fixture.Status.SCHEDULED).order_by("id").first()
    assert slot is not None
    slot.home_source = {"type": "best_third", "stage": stage.pk}
    slot.home_team_id = third
    slot.save(update_fields=["home_source", "home_team"])
    kept, fresh = _kept_then_fresh([url])
    assert kept[url] == fresh[url] != before


@pytest.mark.django_db
def test_pieces_rendered_for_a_signed_in_visitor_show_anonymous_readers_nothing_of_theirs(
    cup: demo.Demo,
) -> None:
    # Signed-in visitors get a frame of their own but share the kept pieces of data: a piece a
    # member or the administrator made first must be the one an anonymous reader would have made.
    played = Fixture.objects.filter(stage=cup.groups_stage, status=Fixture.Status.CONFIRMED).first()
    fixture = played or _scheduled(cup, cup.groups_stage)
    slug = cup.competition.slug
    urls = [
        *_urls(cup, fixture.home_team_id),
        f"/c/{slug}/teams/",
        f"/c/{slug}/teams/{fixture.home_team_id}/",
        f"/c/{slug}/matches/{fixture.pk}/",
        f"/c/{slug}/live/",
    ]
    anonymous = Client()
    forget_all()
    fresh = {url: anonymous.get(url).content.decode() for url in urls}
    for user in (cup.users[fixture.home_team.name], demo.ensure_admin()):
        forget_all()
        visitor = Client()
        visitor.force_login(user)
        for url in urls:
            assert visitor.get(url).status_code == 200, url
        for url in urls:
            assert anonymous.get(url).content.decode() == fresh[url], (user.username, url)

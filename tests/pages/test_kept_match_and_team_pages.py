"""The team, match, replay, live centre and coach ratings pages kept for anonymous visitors under
the versions of what they show (fubaleague/web/fragments.py) show every change, nothing stale.

Each change is made through the services after the pages were kept; each page then as served
must be the page rendered from nothing (every cache cleared), and the change must show on it.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db.models import Q
from django.test import Client

from league import demo
from matches import services
from matches.services.shared import CardInput
from matches.standings import cache as standings_cache
from ratings import services as ratings
from ratings.models import PAGES_SCOPE
from tests.pages.kept import forget_all, served
from tournaments.bracket import Score
from tournaments.game_systems import FUBA_2, FUBA_3
from tournaments.models import Fixture, Stage


def _urls(cup: demo.Demo, fixture: Fixture) -> dict[str, str]:
    slug = cup.competition.slug
    return {
        "home team": f"/c/{slug}/teams/{fixture.home_team_id}/",
        "away team": f"/c/{slug}/teams/{fixture.away_team_id}/",
        "match": f"/c/{slug}/matches/{fixture.pk}/",
        "live centre": f"/c/{slug}/live/",
        "live round": f"/c/{slug}/live/round/{fixture.round}/",
    }


def _kept_then_fresh(urls: dict[str, str]) -> tuple[dict[str, str], dict[str, str]]:
    kept = served(urls)
    forget_all()
    return kept, served(urls)


def _scheduled(stage: Stage) -> Fixture:
    fixture = (
        Fixture.objects.filter(stage=stage, status=Fixture.Status.SCHEDULED, home_team__isnull=False)
        .exclude(away_team__isnull=True)
        .order_by("round", "id")
        .first()
    )
    assert fixture is not None
    return fixture


def _score(page: str) -> str:
    found = re.search(r'data-testid="score">([^<]*)<', page)
    assert found
    return found.group(1)


def _team_row(page: str, fixture: Fixture) -> str:
    found = re.search(rf'<tr>(?:(?!</tr>).)*?/matches/{fixture.pk}/".*?</tr>', page, re.S)
    assert found, fixture
    return found.group(0)


@pytest.mark.django_db
def test_a_counted_then_corrected_result_with_a_card_shows_on_the_kept_pages(cup: demo.Demo) -> None:
    fixture = _scheduled(cup.groups_stage)
    urls = _urls(cup, fixture)
    before = served(urls)
    assert _score(before["match"]) == "v"
    home, away = fixture.home_team, fixture.away_team
    services.result_submit(fixture_id=fixture.pk, user=cup.users[home.name], score=Score(5, 4))
    services.result_confirm(fixture_id=fixture.pk, user=cup.users[away.name])
    kept, fresh = _kept_then_fresh(urls)
    assert kept == fresh
    assert _score(kept["match"]) == "5 – 4"
    assert "5–4" in _team_row(kept["home team"], fixture) and "4–5" in _team_row(kept["away team"], fixture)

    # Corrected by the organisers, with a red card: the old score is gone everywhere.
    served(urls)
    services.result_override(
        fixture_id=fixture.pk,
        user=cup.admin,
        score=Score(0, 3),
        cards=[CardInput(side="home", kind="red", shirt_number=4)],
        note="wrong score reported",
    )
    kept, fresh = _kept_then_fresh(urls)
    assert kept == fresh
    assert _score(kept["match"]) == "0 – 3"
    row = _team_row(kept["home team"], fixture)
    assert "0–3" in row and "5–4" not in row and "badge--red" in row
    assert "<h2>Cards</h2>" in kept["match"]


@pytest.mark.django_db
def test_a_new_rating_shows_on_the_kept_team_and_match_pages(
    cup: demo.Demo, django_capture_on_commit_callbacks: Any
) -> None:
    fixture = _scheduled(cup.groups_stage)
    urls = _urls(cup, fixture)
    home, away = fixture.home_team, fixture.away_team
    # The result counts (and bumps the competition); its rating comes later, from a task.
    services.result_submit(fixture_id=fixture.pk, user=cup.users[home.name], score=Score(2, 0))
    services.result_confirm(fixture_id=fixture.pk, user=cup.users[away.name])
    before = served(urls)
    with django_capture_on_commit_callbacks(execute=True):
        assert ratings.fixture_rating_apply(fixture_id=fixture.pk) in ("applied", "rebuilt")
    kept, fresh = _kept_then_fresh(urls)
    assert kept == fresh
    for name in ("home team", "away team", "match"):
        assert kept[name] != before[name], name


@pytest.mark.django_db
def test_the_kept_replay_follows_its_fixture(cup: demo.Demo) -> None:
    slug = cup.competition.slug
    fixture = Fixture.objects.get(pk=cup.simulated[0])
    replay = f"/c/{slug}/matches/{fixture.pk}/replay.json"
    kept = Client().get(replay)
    assert kept.status_code == 200 and kept["Content-Type"] == "application/json"
    standings_cache.invalidate_scope(slug)  # another change in the competition
    again = Client().get(replay)
    assert again.content == kept.content
    forget_all()
    assert Client().get(replay).content == kept.content

    # Voided: its log no longer counts, so the kept replay is gone with it.
    services.result_void(fixture_id=fixture.pk, user=cup.admin, note="never played")
    assert Client().get(replay).status_code == 404


@pytest.mark.django_db
def test_the_process_sends_its_copy_of_the_replay_while_its_versions_hold(
    cup: demo.Demo, monkeypatch: pytest.MonkeyPatch
) -> None:
    slug = cup.competition.slug
    fixture = Fixture.objects.get(pk=cup.simulated[0])
    replay = f"/c/{slug}/matches/{fixture.pk}/replay.json"
    first = Client().get(replay).content
    read: list[str] = []
    get_many = cache.get_many

    def reading(keys: list[str], *args: Any, **kwargs: Any) -> Any:
        read.extend(keys)
        return get_many(keys, *args, **kwargs)

    monkeypatch.setattr(cache, "get_many", reading)
    assert Client().get(replay).content == first
    # the versions alone: the ~0.4 MB entry is not read again
    assert read and not any(":replay:" in key for key in read)
    # its fixture changed: the copy is stale, the entry is read (and rendered) anew
    standings_cache.invalidate(fixture.competition_id, slug, parts=(f"f{fixture.pk}",))
    read.clear()
    assert Client().get(replay).status_code == 200
    assert any(":replay:" in key for key in read)


@pytest.mark.django_db
def test_no_such_match_or_team_is_404_and_keeps_nothing(cup: demo.Demo) -> None:
    slug = cup.competition.slug
    client = Client()
    for url in (
        f"/c/{slug}/matches/987654/",
        f"/c/{slug}/matches/987654/replay.json",
        f"/c/{slug}/teams/987654/",
        "/c/no-such-cup/matches/1/",
        "/c/no-such-cup/teams/1/",
        "/c/no-such-cup/live/",
        f"/c/{slug}/live/round/999/",
    ):
        assert client.get(url).status_code == 404, url
    redis = cache._cache.get_client(None)  # type: ignore[attr-defined]
    keys = [k.decode() for k in redis.scan_iter("*")]
    assert not [k for k in keys if "987654" in k or "no-such-cup" in k or ("live" in k and "999" in k)]


@pytest.mark.django_db
def test_signed_in_match_and_team_pages_are_their_own_and_keep_nothing(cup: demo.Demo) -> None:
    fixture = _scheduled(cup.groups_stage)
    urls = _urls(cup, fixture)
    member = Client()
    member.force_login(cup.users[fixture.home_team.name])
    for url in urls.values():
        own = member.get(url)
        assert "Sign out" in own.content.decode(), url
        assert "private" in own["Cache-Control"], url
    assert 'data-testid="result-form"' in member.get(urls["match"]).content.decode()
    for url in urls.values():
        anonymous = Client().get(url).content.decode()
        assert "Sign out" not in anonymous and "Sign in" in anonymous, url
        assert 'data-testid="result-form"' not in anonymous and 'data-testid="follow"' not in anonymous, url
    # Kept for the anonymous visitors now: a member still gets their own page.
    assert 'data-testid="result-form"' in member.get(urls["match"]).content.decode()


@pytest.mark.django_db
def test_a_new_rating_shows_on_the_kept_ranking_and_leaves_other_games_kept(
    cup: demo.Demo, django_capture_on_commit_callbacks: Any
) -> None:
    fixture = _scheduled(cup.groups_stage)
    assert cup.competition.game_system == FUBA_3
    services.result_submit(fixture_id=fixture.pk, user=cup.users[fixture.home_team.name], score=Score(1, 0))
    services.result_confirm(fixture_id=fixture.pk, user=cup.users[fixture.away_team.name])
    urls = {
        FUBA_3: "/ratings/",
        FUBA_2: f"/ratings/?system={FUBA_2}",
        "combined": "/ratings/?system=combined",
    }
    before = served(urls)
    other = cache.get(f"frag:{PAGES_SCOPE}:ranking:{FUBA_2}")
    assert other is not None
    with django_capture_on_commit_callbacks(execute=True):
        assert ratings.fixture_rating_apply(fixture_id=fixture.pk) in ("applied", "rebuilt")
    kept = served(urls)
    assert cache.get(f"frag:{PAGES_SCOPE}:ranking:{FUBA_2}") == other  # not rendered again
    forget_all()
    assert kept == served(urls)
    assert kept[FUBA_3] != before[FUBA_3] and kept["combined"] != before["combined"]
    assert fixture.home_team.coach.name in kept[FUBA_3]


@pytest.mark.django_db
def test_a_knockout_slot_filled_anew_leaves_the_kept_page_of_the_team_it_left(cup: demo.Demo) -> None:
    # The last decided tie whose winner's next match is still to play. (A team's page is kept
    # under its own part only: the team a slot leaves must be bumped, here by its tie's result;
    # a slot fed by a table's place is bumped by placeholders_resolve.)
    ties = Fixture.objects.filter(stage=cup.knockout, home_team__isnull=False, away_team__isnull=False)
    found = None
    for tie in ties.order_by("-round", "id"):
        winner = [t for t in (tie.home_team_id, tie.away_team_id) if t is not None]
        nxt = (
            Fixture.objects.filter(stage=cup.knockout, round__gt=tie.round, status=Fixture.Status.SCHEDULED)
            .filter(Q(home_team_id__in=winner) | Q(away_team_id__in=winner))
            .first()
        )
        if nxt is not None:
            found = tie, nxt
            break
    assert found is not None, "the light cup has a knockout tie whose winner plays on"
    tie, nxt = found
    services.result_override(fixture_id=tie.pk, user=cup.admin, score=Score(2, 0), note="a", reopen=True)
    urls = _urls(cup, tie)
    before = served(urls)
    assert f"/matches/{nxt.pk}/" in before["home team"]
    assert f"/matches/{nxt.pk}/" not in before["away team"]

    services.result_override(fixture_id=tie.pk, user=cup.admin, score=Score(0, 2), note="b", reopen=True)
    kept, fresh = _kept_then_fresh(urls)
    assert kept == fresh
    assert f"/matches/{nxt.pk}/" not in kept["home team"]
    assert f"/matches/{nxt.pk}/" in kept["away team"]


@pytest.mark.django_db
def test_a_fixture_moved_to_a_new_round_shows_on_the_kept_live_centre(cup: demo.Demo) -> None:
    slug = cup.competition.slug
    urls = {"live centre": f"/c/{slug}/live/"}
    before = served(urls)["live centre"]
    assert Client().get(f"/c/{slug}/live/round/77/").status_code == 404
    fixture = _scheduled(cup.groups_stage)
    fixture.round = 77  # (as the admin moves it: the model's signals, no announcement)
    fixture.save(update_fields=["round"])
    kept, fresh = _kept_then_fresh(urls)
    assert kept == fresh
    assert "Round 77" in kept["live centre"] and "Round 77" not in before
    assert Client().get(f"/c/{slug}/live/round/77/").status_code == 200


def test_the_kept_team_page_never_keeps_a_visitors_query_string(cup: demo.Demo) -> None:
    # The first anonymous visitor's query string (a campaign tag, anything) was printed into the
    # "Sign in to follow" link of the kept page, and every later visitor was sent there.
    slug, team_id = cup.competition.slug, _scheduled(cup.groups_stage).home_team_id
    client = Client()
    first = client.get(f"/c/{slug}/teams/{team_id}/?utm_source=spam&x=%22")
    later = client.get(f"/c/{slug}/teams/{team_id}/")
    for response in (first, later):
        assert response.status_code == 200
        page = response.content.decode()
        links = re.findall(r'href="([^"]*)">Sign in to follow<', page)
        assert links == [f"/login/?next=/c/{slug}/teams/{team_id}/"], links
        assert "utm_source" not in page


@pytest.mark.django_db
def test_a_result_elsewhere_leaves_the_kept_team_and_match_pages_kept(cup: demo.Demo) -> None:
    # The pages are kept under the parts they show, not the competition's version: a result in
    # another stage (no rating task here: its scope does not move) serves them as kept. (A match's
    # page shows its round's clock: any result of its own stage moves it.)
    fixture = _scheduled(cup.groups_stage)
    teams = (fixture.home_team_id, fixture.away_team_id)
    elsewhere = (
        Fixture.objects.filter(stage=cup.knockout, home_team__isnull=False, away_team__isnull=False)
        .exclude(home_team_id__in=teams)
        .exclude(away_team_id__in=teams)
        .order_by("-round", "id")
        .first()
    )
    assert elsewhere is not None
    urls = {k: v for k, v in _urls(cup, fixture).items() if k in ("home team", "away team", "match")}
    served(urls)
    services.result_override(
        fixture_id=elsewhere.pk, user=cup.admin, score=Score(4, 0), note="typed in", reopen=True
    )
    client = Client()
    for name, url in urls.items():
        assert client.get(url)["X-Page-Cache"] == "hit", name
    kept, fresh = _kept_then_fresh(urls)
    assert kept == fresh

    # A result of its own: the page is rendered anew and shows it.
    services.result_override(fixture_id=fixture.pk, user=cup.admin, score=Score(1, 3), note="typed in")
    for name, url in urls.items():
        assert client.get(url)["X-Page-Cache"] == "miss", name
    kept, fresh = _kept_then_fresh(urls)
    assert kept == fresh and _score(kept["match"]) == "1 – 3"

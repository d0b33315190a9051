"""The chances page, its API and what-if jobs; the ratings pages."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth.models import Permission
from django.test import Client, TestCase
from django.utils import timezone

from chances import services
from chances.models import ChancesJob
from league import demo
from tests.factories import AdminFactory, UserFactory
from tests.web_fixtures import rolled_back_at_the_end
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def _small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANCES_ENGINE_SIMS", "1")
    monkeypatch.setenv("CHANCES_CHUNK_RUNS", "100")


@pytest.fixture(autouse=True)
def _small_chances(monkeypatch: pytest.MonkeyPatch) -> None:
    _small(monkeypatch)


@pytest.fixture(scope="module")
def _module_cup(django_db_setup: None, django_db_blocker: Any) -> Iterator[demo.Demo]:
    # Built once for the module (tests.web_fixtures.rolled_back_at_the_end); what its commit
    # would start (on_commit work) runs as it is built, as small as in the tests.
    with rolled_back_at_the_end(django_db_blocker):
        with pytest.MonkeyPatch.context() as monkeypatch, TestCase.captureOnCommitCallbacks(execute=True):
            _small(monkeypatch)
            built = demo.build_world_cup(
                slug="page-cup", complete_groups="AB", simulate_in="B", knockout_ties=0
            )
        yield built


@pytest.fixture
def cup(_module_cup: demo.Demo, db: None) -> demo.Demo:
    return copy.deepcopy(_module_cup)  # the objects as the database holds them, for each test


def _compute(cup: demo.Demo, capture, **kwargs) -> ChancesJob:
    with capture(execute=True):
        job = services.chances_start(competition_id=cup.competition.id, runs=200, seed=3, **kwargs)
    job.refresh_from_db()
    assert job.status == ChancesJob.Status.DONE
    return job


def test_chances_page_and_api(cup: demo.Demo, client: Client, django_capture_on_commit_callbacks) -> None:
    url = f"/c/{cup.competition.slug}/chances/"
    assert "No chances computed yet" in client.get(url).content.decode()
    assert client.get(f"/api/v1/competitions/{cup.competition.slug}/chances").status_code == 404
    job = _compute(cup, django_capture_on_commit_callbacks)
    html = client.get(url).content.decode()
    assert "from <strong>200</strong> runs" in html and "Group A" in html and "<svg" in html
    assert "<script" not in html.split("</footer>")[0].split("<main")[1]
    data = client.get(f"/api/v1/competitions/{cup.competition.slug}/chances").json()
    assert data["job"] == job.id and data["runs"] == 200 and len(data["teams"]) == 32
    assert sum(t["win"] for t in data["teams"]) == pytest.approx(1.0)
    brazil = next(t for t in data["teams"] if t["team"] == "Brazil")
    assert brazil["qualify"] in (0.0, 1.0) and sum(brazil["positions"]) == pytest.approx(1.0)
    assert brazil["best"] == brazil["worst"]
    assert set(brazil["rounds"]) == {"Round of 16", "Quarter-finals", "Semi-finals", "Final"}
    assert client.get("/api/v1/competitions/nope/chances").status_code == 404


def test_change_since_the_last_matchday(
    cup: demo.Demo, client: Client, django_capture_on_commit_callbacks
) -> None:
    first = _compute(cup, django_capture_on_commit_callbacks)
    from tests.factories import play

    f = Fixture.objects.filter(group__name="C").order_by("round", "id").first()
    play(f.id, 3, 0)
    second = _compute(cup, django_capture_on_commit_callbacks)
    data = client.get(f"/api/v1/competitions/{cup.competition.slug}/chances").json()
    assert data["job"] == second.id and data["compared_with_job"] == first.id
    winner = next(t for t in data["teams"] if t["team_id"] == f.home_team_id)
    assert winner["change_qualify"] is not None


def test_what_if_api(cup: demo.Demo, client: Client, django_capture_on_commit_callbacks) -> None:
    _compute(cup, django_capture_on_commit_callbacks)
    slug = cup.competition.slug
    group = cup.groups_stage.groups.get(name="C")
    fixtures = list(group.fixtures.all())
    teams = sorted(group.teams.values_list("id", flat=True))
    top = set(teams[:2])
    fixed = {}
    for f in fixtures:
        fixed[str(f.id)] = (
            [30, 0] if f.home_team_id in top else ([0, 30] if f.away_team_id in top else [1, 1])
        )
    body = {"fixed": fixed, "runs": 200}
    assert client.post(
        f"/api/v1/competitions/{slug}/chances/what-if", body, content_type="application/json"
    ).status_code in (401, 403)
    client.force_login(UserFactory())
    bad = client.post(
        f"/api/v1/competitions/{slug}/chances/what-if",
        {"fixed": {"999999": [1, 0]}},
        content_type="application/json",
    )
    assert bad.status_code == 404 and "999999" in bad.json()["error"]["message"]
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/api/v1/competitions/{slug}/chances/what-if", body, content_type="application/json"
        )
    assert response.status_code == 202, response.json()
    data = client.get(response.json()["url"]).json()
    assert data["status"] == "done" and data["what_if"]
    for t in data["teams"]:
        if t["team_id"] in teams:
            assert t["qualify"] == (1.0 if t["team_id"] in top else 0.0)
    # The what-if is not the competition's published figures.
    assert client.get(f"/api/v1/competitions/{slug}/chances").json()["what_if"] == {}


def test_staff_recompute(cup: demo.Demo, client: Client, django_capture_on_commit_callbacks) -> None:
    slug = cup.competition.slug
    assert client.post(f"/api/v1/competitions/{slug}/chances/recompute").status_code in (401, 403)
    # Staff status alone is refused, on the page and in the API (each call queued 10,000 runs).
    client.force_login(AdminFactory())
    assert b"Recompute now" not in client.get(f"/c/{slug}/chances/").content
    assert client.post(f"/c/{slug}/chances/recompute").status_code == 403
    assert client.post(f"/api/v1/competitions/{slug}/chances/recompute").status_code == 403
    assert not ChancesJob.objects.filter(competition=cup.competition).exists()
    staff = AdminFactory()
    staff.user_permissions.add(Permission.objects.get(codename="add_chancesjob"))
    client.force_login(staff)
    assert b"Recompute now" in client.get(f"/c/{slug}/chances/").content
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/c/{slug}/chances/recompute")
    assert response.status_code == 302
    assert ChancesJob.objects.filter(competition=cup.competition, status="done").exists()


def test_a_recompute_while_one_runs_returns_the_running_job(
    cup: demo.Demo, client: Client, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    slug = cup.competition.slug
    staff = AdminFactory()
    staff.user_permissions.add(Permission.objects.get(codename="add_chancesjob"))
    client.force_login(staff)
    url = f"/api/v1/competitions/{slug}/chances/recompute"
    # The workers have not picked the job up yet: its tasks wait in the queue.
    with django_capture_on_commit_callbacks(execute=False):
        first = client.post(url)
        again = client.post(url)
    assert first.status_code == 202 and again.status_code == 200
    assert first.json()["job"] == again.json()["job"]
    assert ChancesJob.objects.filter(competition=cup.competition).count() == 1
    # A what-if is not the competition's recomputation, and a stale job blocks nothing.
    monkeypatch.setenv("CHANCES_JOB_STALE", "1")
    ChancesJob.objects.update(created_at=timezone.now() - timedelta(seconds=5))
    with django_capture_on_commit_callbacks(execute=False):
        later = client.post(url)
    assert later.status_code == 202 and later.json()["job"] != first.json()["job"]


def test_ratings_pages(cup: demo.Demo, client: Client) -> None:
    html = client.get("/ratings/").content.decode()
    assert "Coach ratings" in html and "simulated and awarded results do not change ratings" in html
    assert "provisional" in html and "Ana Souza" in html
    coach = cup.teams["Brazil"].coach
    page = client.get(f"/ratings/coaches/{coach.id}/").content.decode()
    assert 'id="rating-history-fuba-3"' in page and "<polyline" in page
    assert 'data-testid="coach-combined"' in page and "games-weighted mean" in page
    combined = client.get("/ratings/?system=combined").content.decode()
    assert 'data-testid="combined-how"' in combined and "Ana Souza" in combined
    assert client.get("/ratings/?system=chess").status_code == 404
    assert client.get("/ratings/coaches/999999/").status_code == 404


def test_rating_and_chances_bits_on_the_team_match_and_standings_pages(
    cup: demo.Demo, client: Client, django_capture_on_commit_callbacks
) -> None:
    slug = cup.competition.slug
    brazil = cup.teams["Brazil"]
    team_page = client.get(f"/c/{slug}/teams/{brazil.id}/").content.decode()
    assert 'data-testid="coach-rating"' in team_page and "rated)" in team_page
    played = Fixture.objects.filter(group__name="A", status="confirmed").first()
    page = client.get(f"/c/{slug}/matches/{played.id}/").content.decode()
    assert 'data-testid="match-rating"' in page and "μ 25.0 →" in page
    simulated = Fixture.objects.filter(status="simulated").first()
    page = client.get(f"/c/{slug}/matches/{simulated.id}/").content.decode()
    assert "do not change the coaches' ratings" in page
    upcoming = Fixture.objects.filter(group__name="C").first()
    page = client.get(f"/c/{slug}/matches/{upcoming.id}/").content.decode()
    assert 'data-testid="match-prediction"' in page and "Match model" not in page
    standings = client.get(f"/c/{slug}/standings/").content.decode()
    assert 'data-testid="chances-summary"' in standings and "Not computed yet" in standings
    _compute(cup, django_capture_on_commit_callbacks)
    page = client.get(f"/c/{slug}/matches/{upcoming.id}/").content.decode()
    assert "Match model" in page
    standings = client.get(f"/c/{slug}/standings/").content.decode()
    assert "from <strong>200</strong> runs" in standings and 'class="chances-summary"' in standings

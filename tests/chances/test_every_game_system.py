"""Chances and ratings of every game system: FUBA 2 from its own engine, Soccer City and Super
Team from the score model fitted on their results; pages, API, what-if and recompute alike."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission
from django.test import Client

from chances import services
from chances.models import ChancesJob, SetupPairEstimate
from tests.factories import AdminFactory, CompetitionFactory, UserFactory, play, team_with_member
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANCES_ENGINE_SIMS", "2")
    monkeypatch.setenv("CHANCES_CHUNK_RUNS", "100")


def _league(game_system: str, slug: str, n: int = 4, **fields: object) -> tuple[Stage, list[Fixture]]:
    competition = CompetitionFactory(status="active", game_system=game_system, slug=slug, **fields)
    teams = [team_with_member(competition, f"{slug}-{i}")[0] for i in range(n)]
    stage = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    fixtures = sorted(fixture_generate(stage=stage), key=lambda f: (f.round, f.id))
    return stage, fixtures


def _compute(stage: Stage, capture) -> ChancesJob:
    with capture(execute=True):
        job = services.chances_start(competition_id=stage.competition_id, runs=300, seed=7)
    job.refresh_from_db()
    assert job.status == ChancesJob.Status.DONE, job.error
    return job


def test_a_fuba_2_league_gets_chances_from_the_fuba_2_engine_and_fuba_2_ratings(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    stage, fixtures = _league("fuba-2", "old-rules", advanced_rules=["A6"])
    stage.teams.filter(name="old-rules-0").update(
        playing_styles={"defence": "easy", "midfield": "aggressive", "forward": "normal"}
    )
    with django_capture_on_commit_callbacks(execute=True):
        play(fixtures[0].id, 2, 0)
    job = _compute(stage, django_capture_on_commit_callbacks)
    estimates = SetupPairEstimate.objects.all()
    assert estimates and {e.ruleset for e in estimates} == {"fuba-2"} and all(e.sims == 2 for e in estimates)
    assert any(e.home_setup.get("styles", {}).get("midfield") == "aggressive" for e in estimates)
    slug = stage.competition.slug
    data = client.get(f"/api/v1/competitions/{slug}/chances").json()
    assert data["job"] == job.id and sum(t["win"] for t in data["teams"]) == pytest.approx(1.0)
    assert data["model"]["game_system"] == "fuba-2" and data["model"]["fitted_on"] == 1
    assert "FUBA 2 rules engine" in data["model"]["name"]
    page = client.get(f"/c/{slug}/chances/").content.decode()
    assert 'data-testid="match-model"' in page and "FUBA 2 rules engine" in page
    # "How good are these numbers": the backtest's figures of the chosen model (bench_forecast)
    assert 'data-testid="forecast-quality"' in page and "Base rates" in page
    ranking = client.get("/api/v1/ratings/coaches?game_system=fuba-2").json()
    assert len(ranking) == 2 and {r["game_system"] for r in ranking} == {"fuba-2"}
    assert "Coach of old-rules-0" in client.get("/ratings/?system=fuba-2").content.decode()
    upcoming = Fixture.objects.filter(stage=stage).exclude(id=fixtures[0].id).first()
    match_page = client.get(f"/c/{slug}/matches/{upcoming.id}/").content.decode()
    assert "FUBA 2 coach ratings:" in match_page and "Match model" in match_page


def test_a_soccer_city_league_gets_chances_from_its_fitted_score_model(
    client: Client, django_capture_on_commit_callbacks
) -> None:
    stage, fixtures = _league("soccer-city", "city-league")
    strong = fixtures[0].home_team
    # The strong coach wins each of its matches: the fitted model favours it in what is left.
    with django_capture_on_commit_callbacks(execute=True):
        for f in fixtures[:4]:
            if strong.id in (f.home_team_id, f.away_team_id):
                play(f.id, *((3, 0) if f.home_team_id == strong.id else (0, 3)))
            else:
                play(f.id, 1, 1)
    job = _compute(stage, django_capture_on_commit_callbacks)
    assert not SetupPairEstimate.objects.exists()  # no engine plays Soccer City
    model = job.scenario["model"]
    assert model["fitted_on"] == 4 and model["fitted"][1] == 0.0  # no engine term to weigh
    assert "Poisson goals by the coaches' Soccer City rating difference" in model["name"]
    slug = stage.competition.slug
    data = client.get(f"/api/v1/competitions/{slug}/chances").json()
    wins = {t["team_id"]: t["win"] for t in data["teams"]}
    assert wins[strong.id] == max(wins.values()) and sum(wins.values()) == pytest.approx(1.0)
    assert data["model"]["parameters"]["gamma"] > 0
    page = client.get(f"/c/{slug}/chances/").content.decode()
    assert "Poisson goals by the coaches&#x27; Soccer City rating difference" in page
    team_page = client.get(f"/c/{slug}/teams/{strong.id}/").content.decode()
    assert "Coach rating (Soccer City)" in team_page and "rated)" in team_page
    detail = client.get(f"/api/v1/ratings/coaches/{strong.coach_id}").json()
    assert [r["game_system"] for r in detail["ratings"]] == ["soccer-city"]
    assert detail["ratings"][0]["rank"] == 1


@pytest.mark.parametrize("game_system", ["fuba-2", "soccer-city", "super-team"])
def test_what_if_and_recompute_work_for_every_game_with_the_same_permissions(
    game_system: str, client: Client, django_capture_on_commit_callbacks
) -> None:
    stage, fixtures = _league(game_system, f"perm-{game_system}")
    slug = stage.competition.slug
    what_if = f"/api/v1/competitions/{slug}/chances/what-if"
    recompute = f"/api/v1/competitions/{slug}/chances/recompute"
    body = {"fixed": {str(fixtures[0].id): [2, 0]}, "runs": 100}
    assert client.post(what_if, body, content_type="application/json").status_code in (401, 403)
    assert client.post(recompute).status_code in (401, 403)
    client.force_login(UserFactory())
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(what_if, body, content_type="application/json")
    assert answer.status_code == 202, answer.json()
    assert client.get(answer.json()["url"]).json()["status"] == "done"
    client.force_login(AdminFactory())
    assert client.post(recompute).status_code == 403  # staff status alone is refused
    staff = AdminFactory()
    staff.user_permissions.add(Permission.objects.get(codename="add_chancesjob"))
    client.force_login(staff)
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(recompute).status_code == 202
    assert client.get(f"/api/v1/competitions/{slug}/chances").json()["status"] == "done"

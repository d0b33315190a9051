"""Chances jobs end to end in-process: engine estimates, fan-out, merge; rules-driven certainties."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from typing import Any

import pytest

from chances import services
from chances.core import simulate_chunk
from chances.models import ChancesJob, SetupPairEstimate
from kernel.errors import ApplicationError
from league import demo
from matches.standings import cache as standings_cache
from tests.chances.helpers import scenario_with_model
from tests.factories import CompetitionFactory, play, team_with_member
from tests.web_fixtures import rolled_back_at_the_end
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHANCES_ENGINE_SIMS", "2")
    monkeypatch.setenv("CHANCES_CHUNK_RUNS", "50")


def _league(n: int = 4) -> tuple[Stage, list[Fixture]]:
    competition = CompetitionFactory(status="active")
    teams = [team_with_member(competition, f"T{i}")[0] for i in range(n)]
    stage = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    fixtures = sorted(fixture_generate(stage=stage), key=lambda f: (f.round, f.id))
    return stage, fixtures


def test_a_job_estimates_with_the_engine_then_runs_and_merges(django_capture_on_commit_callbacks) -> None:
    stage, _fixtures = _league(4)
    with django_capture_on_commit_callbacks(execute=True):
        job = services.chances_start(competition_id=stage.competition_id, runs=200, seed=5)
    job.refresh_from_db()
    assert job.status == ChancesJob.Status.DONE, job.error
    assert job.chunks == 4 and job.chunks_done == 4 and job.result["runs"] == 200
    # One reference pairing, one per set-up against it, one per upcoming pairing (all 4-4-2 here:
    # equal set-ups share their estimates).
    assert SetupPairEstimate.objects.filter(sims=2).count() >= 1
    assert job.scenario["model"]["base"] > 0
    table = job.result["positions"][str(stage.id)]
    assert all(sum(h) == 200 for h in table.values())
    assert sum(job.result["champion"].values()) == 200
    assert services.job_result_in_process(job=job) == job.result
    # The cached estimates make a second job skip the engine.
    with django_capture_on_commit_callbacks(execute=True):
        again = services.chances_start(competition_id=stage.competition_id, runs=50, seed=6)
    assert ChancesJob.objects.get(id=again.id).status == ChancesJob.Status.DONE


def test_a_redelivered_chunk_adds_nothing(django_capture_on_commit_callbacks) -> None:
    stage, _fixtures = _league(3)
    with django_capture_on_commit_callbacks(execute=True):
        job = services.chances_start(competition_id=stage.competition_id, runs=100, seed=5)
    job.refresh_from_db()
    before = job.result
    assert services.chunk_run(job_id=job.id, index=0) == "skipped"
    job.refresh_from_db()
    assert job.result == before


def test_a_finished_league_gives_certainties(django_capture_on_commit_callbacks) -> None:
    stage, fixtures = _league(3)
    for f in Fixture.objects.filter(id__in=[f.id for f in fixtures]).select_related("home_team", "away_team"):
        # The team named first alphabetically wins each of its matches: a clear table.
        play(f.id, *((2, 0) if f.home_team.name < f.away_team.name else (0, 2)))
    with django_capture_on_commit_callbacks(execute=True):
        job = services.chances_start(competition_id=stage.competition_id, runs=100, seed=1)
    job.refresh_from_db()
    table = job.result["positions"][str(stage.id)]
    assert sorted(tuple(h) for h in table.values()) == [(0, 0, 100), (0, 100, 0), (100, 0, 0)]
    assert sorted(job.result["champion"].values()) == [100]


@pytest.fixture(scope="module")
def _module_cup(django_db_setup: None, django_db_blocker: Any) -> Iterator[demo.Demo]:
    # Groups A and B complete, group H two matchdays in, the rest not started; built once for the
    # module (tests.web_fixtures.rolled_back_at_the_end).
    with rolled_back_at_the_end(django_db_blocker):
        yield demo.build_world_cup(slug="jobs-cup", complete_groups="AB", simulate_in="", knockout_ties=0)


@pytest.fixture
def cup(_module_cup: demo.Demo, db: None) -> demo.Demo:
    return copy.deepcopy(_module_cup)  # the objects as the database holds them, for each test


def test_qualified_teams_show_100_and_eliminated_0(cup: demo.Demo) -> None:
    scenario = scenario_with_model(cup.competition)
    counts = simulate_chunk(scenario, seed=4, chunk=0, runs=200)
    for name in "AB":
        group = cup.groups_stage.groups.get(name=name)
        for team in group.teams.all():
            q = counts["qualified"].get(str(team.id), 0)
            assert q in (0, 200), (team, q)
        assert (
            sum(counts["qualified"].get(str(t), 0) for t in group.teams.values_list("id", flat=True)) == 400
        )
    # Teams of groups still to play are neither certain nor hopeless.
    group_c = cup.groups_stage.groups.get(name="C")
    assert all(
        0 < counts["qualified"].get(str(t), 0) < 200 for t in group_c.teams.values_list("id", flat=True)
    )


def test_a_what_if_that_decides_a_group_gives_0_and_100(cup: demo.Demo) -> None:
    group = cup.groups_stage.groups.get(name="H")
    remaining = list(group.fixtures.exclude(status__in=Fixture.COUNTED_STATUSES))
    assert remaining
    teams = sorted(group.teams.all(), key=lambda t: t.id)
    # The last matchday with enormous wins for the first two teams by id decides the group.
    favourites = {teams[0].id, teams[1].id}
    fixed = {}
    for f in remaining:
        if f.home_team_id in favourites:
            fixed[f.id] = [40, 0]
        elif f.away_team_id in favourites:
            fixed[f.id] = [0, 40]
        else:
            fixed[f.id] = [0, 0]
    scenario = scenario_with_model(cup.competition, what_if=fixed)
    counts = simulate_chunk(scenario, seed=4, chunk=0, runs=100)
    for team in teams:
        q = counts["qualified"].get(str(team.id), 0)
        assert q == (100 if team.id in favourites else 0), (team, q)


def test_a_what_if_job_through_the_service(
    cup: demo.Demo, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    group = cup.groups_stage.groups.get(name="H")
    f = group.fixtures.exclude(status__in=Fixture.COUNTED_STATUSES).first()

    with pytest.raises(ApplicationError, match="whole numbers"):
        services.chances_start(competition_id=cup.competition.id, runs=10, what_if={f.id: [1, -1]})
    played = group.fixtures.filter(status__in=Fixture.COUNTED_STATUSES).first()
    with pytest.raises(ApplicationError, match="already has a result"):
        services.chances_start(competition_id=cup.competition.id, runs=10, what_if={played.id: [1, 0]})


def test_finished_chances_make_the_cached_standings_page_stale(django_capture_on_commit_callbacks) -> None:
    """The standings page shows the chances: their job's end bumps the page's cache version,
    through the standings signals (matches.standings.signals.register_feed); a what-if does not."""
    stage, fixtures = _league(4)
    before = standings_cache.version(stage.competition_id)
    with django_capture_on_commit_callbacks(execute=True):
        job = services.chances_start(competition_id=stage.competition_id, runs=100, seed=3)
    job.refresh_from_db()
    assert job.status == ChancesJob.Status.DONE, job.error
    after = standings_cache.version(stage.competition_id)
    assert after > before
    with django_capture_on_commit_callbacks(execute=True):
        services.chances_start(
            competition_id=stage.competition_id, runs=100, seed=4, what_if={fixtures[0].id: [1, 0]}
        )
    assert standings_cache.version(stage.competition_id) == after

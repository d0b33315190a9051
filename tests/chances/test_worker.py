"""Chances on real Celery workers through Redis: the same figures as in-process for the same seed."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from django.db import transaction

from chances import services
from chances.models import ChancesChunk, ChancesJob
from tests.factories import CompetitionFactory, play, team_with_member
from tests.workers import WorkerProcess
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ENV = {"CHANCES_ENGINE_SIMS": "2", "CHANCES_CHUNK_RUNS": "40", "CHANCES_RUNS": "400"}


@pytest.fixture
def workers(real_celery: None, monkeypatch: pytest.MonkeyPatch) -> Iterator[WorkerProcess]:
    for k, v in ENV.items():
        monkeypatch.setenv(k, v)
    worker = WorkerProcess(concurrency=2, **ENV)
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()


def _league() -> Stage:
    competition = CompetitionFactory(status="active")
    teams = [team_with_member(competition, f"W{i}", default_formation=f)[0] for i, f in enumerate(
        ("4-4-2", "3-5-2", "4-3-3", "5-3-2")
    )]  # fmt: skip
    stage = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    fixture_generate(stage=stage)
    return stage


def _wait(job_id: int, worker: WorkerProcess, timeout: float = 240) -> ChancesJob:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        job = ChancesJob.objects.get(id=job_id)
        if job.status in (ChancesJob.Status.DONE, ChancesJob.Status.FAILED):
            return job
        time.sleep(0.3)
    raise AssertionError(
        f"job {job_id} not done: {ChancesJob.objects.get(id=job_id).status}\n{worker.log()[-3000:]}"
    )


def test_a_worker_gives_the_in_process_figures(workers: WorkerProcess) -> None:
    stage = _league()
    job = services.chances_start(competition_id=stage.competition_id, runs=400, seed=77)
    job = _wait(job.id, workers)
    assert job.status == ChancesJob.Status.DONE and job.result["runs"] == 400
    assert job.chunks == 10 and not ChancesChunk.objects.filter(job=job).exists()
    log = workers.log()
    assert "chances.pair_estimate[" in log and "chances.chunk_run[" in log
    assert services.job_result_in_process(job=job) == job.result


def test_counted_results_lead_to_one_debounced_recomputation(
    workers: WorkerProcess, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CHANCES_AUTO_RECOMPUTE", "1")
    monkeypatch.setenv("CHANCES_DEBOUNCE", "2")
    stage = _league()
    fixtures = list(Fixture.objects.filter(stage=stage).order_by("round", "id"))[:3]
    # the three results commit at once: the test asserts the debounce folds them into one job,
    # not that three writes on a busy machine fit in its 2 s
    with transaction.atomic():
        for f in fixtures:
            play(f.id, 1, 0)
    deadline = time.monotonic() + 120
    while (
        time.monotonic() < deadline and not ChancesJob.objects.filter(competition=stage.competition).exists()
    ):
        time.sleep(0.3)
    job = ChancesJob.objects.get(competition=stage.competition)
    assert job.counted_results == 3
    assert _wait(job.id, workers).status == ChancesJob.Status.DONE
    assert ChancesJob.objects.filter(competition=stage.competition).count() == 1

"""A submitted turn log is validated by a real Celery worker after the submission commits,
exactly once even when the worker's pool process is killed -9 in the middle."""

from __future__ import annotations

import os
import signal
import time

import pytest

from matches.models import ResultAudit, ResultSubmission
from matches.services import result_submit
from tests.factories import CompetitionFactory, team_with_member
from tests.matches.test_forfeit_worker import FAST_REDELIVERY, wait_for
from tests.workers import WorkerProcess, pool_children, wait_broker_settled
from tournaments.bracket import Score
from tournaments.models import Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_real_worker_validates_the_log(real_celery: None) -> None:
    from matches.simulation import fixture_simulate
    from rules_engine.api import validate_log

    competition = CompetitionFactory()
    (home, home_user), (away, _) = team_with_member(competition, "H"), team_with_member(competition, "A")
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    # a log of this fixture: a log of other teams is refused at once)
    log = fixture_simulate(fixture=fixture).log
    score = validate_log(log).result.to_dict()["score"]
    submitter = home_user if fixture.home_team == home else away.club.members.first()

    worker = WorkerProcess()
    try:
        worker.wait_ready()
        # Autocommit: the on_commit hook fires at once and the task goes through Redis.
        submission = result_submit(
            fixture_id=fixture.id,
            user=submitter,
            score=Score(score["home"], score["away"]),
            turn_log=log,
        ).submission
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            submission.refresh_from_db()
            if submission.validation_status == ResultSubmission.Validation.VALID:
                break
            time.sleep(0.2)
        else:
            raise AssertionError(f"log not validated; worker log:\n{worker.log()[-4000:]}")
    finally:
        worker.stop()
    assert "matches.submission_log_validate" in worker.log()


def test_pool_process_killed_mid_validation_is_validated_exactly_once(real_celery: None) -> None:
    """The finding: the redelivered task found a claim younger than 5 minutes, without a task id,
    and skipped it; the submission stayed 'validating' and the opponent could never confirm."""
    from matches.simulation import fixture_simulate
    from rules_engine.api import validate_log

    competition = CompetitionFactory()
    (home, home_user), (away, away_user) = (
        team_with_member(competition, "H"),
        team_with_member(competition, "A"),
    )
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    # a log of this fixture: a log of other teams is refused at once)
    log = fixture_simulate(fixture=fixture).log
    score = validate_log(log).result.to_dict()["score"]
    submitter = home_user if fixture.home_team == home else away_user

    worker = WorkerProcess(
        module="tests.slow_validation_worker", SLOW_VALIDATION_SECONDS="4", **FAST_REDELIVERY
    )
    try:
        worker.wait_ready()
        submission = result_submit(
            fixture_id=fixture.id,
            user=submitter,
            score=Score(score["home"], score["away"]),
            turn_log=log,
        ).submission
        wait_for(
            lambda: ResultSubmission.objects.get(id=submission.id).validation_status == "validating",
            30, "the worker to claim the submission", worker,
        )  # fmt: skip
        first = ResultSubmission.objects.get(id=submission.id)
        (pool_pid,) = pool_children(worker.proc.pid)
        os.kill(pool_pid, signal.SIGKILL)
        wait_for(
            lambda: ResultSubmission.objects.get(id=submission.id).validation_status == "valid",
            90, "the redelivered task to validate the log", worker,
        )  # fmt: skip
        # a second delivery, if any, runs before the claims and audits are counted
        wait_broker_settled("the log was validated", worker.log)
    finally:
        worker.stop()
    submission.refresh_from_db()
    assert "WorkerLostError" in worker.log() or "SIGKILL" in worker.log()
    assert submission.validation_task_id == first.validation_task_id, "the same task, redelivered"
    assert submission.validation_attempts == 2, "the killed run and the redelivered run each claimed once"
    assert ResultAudit.objects.filter(fixture=fixture, action=ResultAudit.Action.VALIDATE).count() == 1

"""A submitted turn log is validated by a real Celery worker after the submission commits."""

from __future__ import annotations

import time

import pytest

from matches.models import ResultSubmission
from matches.services import result_submit
from tests.factories import CompetitionFactory, team_with_member
from tests.workers import WorkerProcess
from tournaments.models import Stage
from tournaments.services import fixture_generate, stage_create

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_a_real_worker_validates_the_log(real_celery: None) -> None:
    from matches.simulation import fixture_simulate
    from rules_engine.api import validate_log

    competition = CompetitionFactory()
    (home, home_user), (away, _) = team_with_member(competition, "H"), team_with_member(competition, "A")
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    # a log of this fixture (issue 11, item 8: a log of other teams is refused at once)
    log = fixture_simulate(fixture=fixture).log
    score = validate_log(log).result["score"]
    submitter = home_user if fixture.home_team == home else away.club.members.first()

    worker = WorkerProcess()
    try:
        worker.wait_ready()
        # Autocommit: the on_commit hook fires at once and the task goes through Redis.
        submission = result_submit(
            fixture_id=fixture.id,
            user=submitter,
            home_goals=score["home"],
            away_goals=score["away"],
            turn_log=log,
        )
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

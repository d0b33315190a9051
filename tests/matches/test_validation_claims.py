"""No submission is left unvalidated: task-id claims, robust enqueueing, the sweep, 202.

The real-process versions (a worker killed -9, the broker stopped at submit time) are in
test_validation_worker.py.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError
from rest_framework.test import APIClient

from fubaleague.celery import app as celery_app
from kernel.fail_open import fail_open_counts
from matches import validation_tasks
from matches.models import ResultAudit, ResultSubmission
from matches.services import result_submit, submission_validation_record
from matches.services.log_checks import submission_validate
from matches.simulation import fixture_simulate
from matches.validation_tasks import validations_sweep
from tests.factories import CompetitionFactory, team_with_member
from tournaments.bracket import Score
from tournaments.models import Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create


def _score(log: dict[str, Any]) -> tuple[int, int]:
    from rules_engine.api import validate_log

    score = validate_log(log).result.to_dict()["score"]
    return score["home"], score["away"]


@pytest.fixture
def fixture_and_users() -> dict[str, Any]:
    competition = CompetitionFactory()
    (home, home_user), (away, away_user) = (
        team_with_member(competition, "Home"),
        team_with_member(competition, "Away"),
    )
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    users = {home.id: home_user, away.id: away_user}
    # a log of this fixture: a log of other teams is refused at once)
    log = fixture_simulate(fixture=fixture).log
    return {"fixture": fixture, "submitter": users[fixture.home_team_id], "log": log}


def _pending_submission(data: dict[str, Any], django_capture_on_commit_callbacks: Any) -> ResultSubmission:
    home, away = _score(data["log"])
    with django_capture_on_commit_callbacks(execute=False):
        return result_submit(
            fixture_id=data["fixture"].id,
            user=data["submitter"],
            score=Score(home, away),
            turn_log=data["log"],
        ).submission


def _validations(submission: ResultSubmission) -> int:
    return ResultAudit.objects.filter(fixture=submission.fixture, action=ResultAudit.Action.VALIDATE).count()


@pytest.mark.django_db
class TestClaims:
    def test_the_claim_carries_the_task_id(
        self, fixture_and_users, django_capture_on_commit_callbacks
    ) -> None:
        submission = _pending_submission(fixture_and_users, django_capture_on_commit_callbacks)
        assert submission_validate(submission_id=submission.id, task_id="task-1") == "valid"
        submission.refresh_from_db()
        assert (submission.validation_task_id, submission.validation_attempts) == ("task-1", 1)
        assert submission.validation_claimed_at is not None
        assert submission_validate(submission_id=submission.id, task_id="task-1") == "skipped"
        assert _validations(submission) == 1

    def test_a_redelivered_task_takes_its_fresh_claim_back_a_duplicate_does_not(
        self, fixture_and_users, django_capture_on_commit_callbacks
    ) -> None:
        """The finding: a worker's pool process killed -9 mid-validation left a fresh claim that the
        redelivered task (same task id) skipped, and the submission stayed 'validating' for good."""
        submission = _pending_submission(fixture_and_users, django_capture_on_commit_callbacks)
        ResultSubmission.objects.filter(id=submission.id).update(
            validation_status=ResultSubmission.Validation.VALIDATING,
            validation_task_id="killed-task",
            validation_claimed_at=timezone.now(),
            validation_attempts=1,
        )
        assert submission_validate(submission_id=submission.id, task_id="another-task") == "skipped"
        assert submission_validate(submission_id=submission.id, task_id="killed-task") == "valid"
        submission.refresh_from_db()
        assert submission.validation_status == ResultSubmission.Validation.VALID
        assert submission.validation_attempts == 2
        assert _validations(submission) == 1

    def test_a_stale_claim_is_taken_over_by_any_task(
        self, fixture_and_users, django_capture_on_commit_callbacks, settings
    ) -> None:
        submission = _pending_submission(fixture_and_users, django_capture_on_commit_callbacks)
        ResultSubmission.objects.filter(id=submission.id).update(
            validation_status=ResultSubmission.Validation.VALIDATING,
            validation_task_id="dead-task",
            validation_claimed_at=timezone.now() - timedelta(seconds=settings.VALIDATION_CLAIM_TIMEOUT + 1),
        )
        assert submission_validate(submission_id=submission.id, task_id="sweep-task") == "valid"
        submission.refresh_from_db()
        assert submission.validation_task_id == "sweep-task"

    def test_only_the_claim_holder_records_the_verdict(
        self, fixture_and_users, django_capture_on_commit_callbacks
    ) -> None:
        submission = _pending_submission(fixture_and_users, django_capture_on_commit_callbacks)
        ResultSubmission.objects.filter(id=submission.id).update(
            validation_status=ResultSubmission.Validation.VALIDATING, validation_task_id="new-holder"
        )
        recorded = submission_validation_record(
            submission_id=submission.id, engine_valid=False, errors=[], derived=None, task_id="old-holder"
        )
        assert recorded.validation_status == ResultSubmission.Validation.VALIDATING
        assert _validations(submission) == 0


@pytest.mark.django_db(transaction=True)
def test_a_failing_commit_hook_after_it_does_not_stop_the_enqueue(fixture_and_users) -> None:
    """The finding: the standings-cache hook failed first and the enqueue hook behind it never ran."""
    from django.db import connection

    from matches.standings import signals

    real = signals.invalidate

    def fails_after_commit(*args: Any, **kwargs: Any) -> None:
        if not connection.in_atomic_block:
            raise RuntimeError("cache unreachable after commit")
        real(*args, **kwargs)

    home, away = _score(fixture_and_users["log"])
    with (
        mock.patch.object(signals, "invalidate", fails_after_commit),
        pytest.raises(RuntimeError, match="after commit"),
    ):
        result_submit(
            fixture_id=fixture_and_users["fixture"].id,
            user=fixture_and_users["submitter"],
            score=Score(home, away),
            turn_log=fixture_and_users["log"],
        )
    submission = ResultSubmission.objects.get(fixture=fixture_and_users["fixture"])
    assert submission.validation_status == ResultSubmission.Validation.VALID  # ran eagerly, first


@pytest.mark.django_db
class TestSweep:
    def test_requeues_pending_and_stale_but_not_fresh_or_done(
        self, fixture_and_users, django_capture_on_commit_callbacks, settings
    ) -> None:
        submission = _pending_submission(fixture_and_users, django_capture_on_commit_callbacks)
        now = timezone.now()
        assert validations_sweep(now=now) == [], "just submitted: its own task is on its way"
        later = now + timedelta(seconds=settings.VALIDATION_REQUEUE_AFTER + 1)
        assert validations_sweep(now=later) == [submission.id]
        submission.refresh_from_db()
        assert submission.validation_status == ResultSubmission.Validation.VALID  # eager in unit tests
        assert validations_sweep(now=later + timedelta(hours=1)) == []
        assert _validations(submission) == 1

    def test_requeues_a_stale_validating_claim(
        self, fixture_and_users, django_capture_on_commit_callbacks, settings
    ) -> None:
        submission = _pending_submission(fixture_and_users, django_capture_on_commit_callbacks)
        claimed = timezone.now()
        ResultSubmission.objects.filter(id=submission.id).update(
            validation_status=ResultSubmission.Validation.VALIDATING,
            validation_task_id="lost-message",
            validation_claimed_at=claimed,
        )
        assert validations_sweep(now=claimed + timedelta(seconds=5)) == []
        with mock.patch("matches.validation_tasks.timezone.now") as now:
            now.return_value = claimed + timedelta(seconds=settings.VALIDATION_CLAIM_TIMEOUT + 1)
            assert validations_sweep() == [submission.id]
        submission.refresh_from_db()
        assert submission.validation_status == ResultSubmission.Validation.VALID
        assert submission.validation_task_id not in ("", "lost-message")

    def test_is_scheduled_by_beat(self) -> None:
        entries = {e["task"] for e in celery_app.conf.beat_schedule.values()}
        assert "matches.validations_sweep" in entries


@pytest.mark.django_db(transaction=True)
def test_broker_down_at_submit_answers_202_and_the_sweep_validates_later(fixture_and_users, settings) -> None:
    """The finding: `submit-result` answered 500 with the submission committed and never validated."""
    fixture = fixture_and_users["fixture"]
    client = APIClient()
    client.force_authenticate(fixture_and_users["submitter"])
    home, away = _score(fixture_and_users["log"])
    before = fail_open_counts().get("broker_publish", {}).get("count", 0)
    # What kombu raises when the Redis broker refuses the connection (the real broker is stopped
    # in test_validation_worker.py).
    with mock.patch.object(
        validation_tasks.submission_log_validate,
        "apply_async",
        side_effect=OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused."),
    ):
        response = client.post(
            f"/api/v1/fixtures/{fixture.id}/submit-result",
            {"home_goals": home, "away_goals": away, "turn_log": fixture_and_users["log"]},
            format="json",
        )
    assert response.status_code == 202, response.content
    assert response.json()["validation_status"] == "pending"
    assert fail_open_counts()["broker_publish"]["count"] == before + 1
    submission = ResultSubmission.objects.get(id=response.json()["id"])
    assert submission.validation_status == ResultSubmission.Validation.PENDING

    # The broker is back (eager here): the next sweep queues it and it is validated once.
    later = timezone.now() + timedelta(seconds=settings.VALIDATION_REQUEUE_AFTER + 1)
    assert validations_sweep(now=later) == [submission.id]
    submission.refresh_from_db()
    assert submission.validation_status == ResultSubmission.Validation.VALID
    assert _validations(submission) == 1

"""Redis stopped for real and 14.2): the API keeps answering on PostgreSQL alone,
a result submitted meanwhile is stored (202) and validated exactly once when Redis is back.

Production shape: gunicorn, a Celery worker and the validation sweep in their own processes, a
private redis-server (cache and broker) that the test stops and starts again.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from matches.models import ResultAudit, ResultSubmission
from tests.factories import CompetitionFactory, team_with_member
from tests.processes import RedisServer, WebProcess, run_django, service_env
from tests.workers import WorkerProcess, wait_broker_settled
from tournaments.models import Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

SWEEP = "from matches.validation_tasks import validations_sweep; print(validations_sweep())"


@pytest.fixture
def redis() -> Iterator[RedisServer]:
    server = RedisServer()
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _wait_ready(worker: WorkerProcess, timeout: float = 40) -> None:
    # The worker listens on the private broker: wait for its own "ready" line, not a control ping.
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if " ready." in worker.log():
            return
        if worker.proc.poll() is not None:
            break
        time.sleep(0.2)
    raise AssertionError(f"worker not ready:\n{worker.log()[-3000:]}")


def test_redis_stopped_the_api_answers_and_the_submission_is_validated_once_back(redis: RedisServer) -> None:
    from matches.simulation import fixture_simulate
    from rules_engine.api import validate_log

    competition = CompetitionFactory(slug="outage-cup")
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
    token = Token.objects.create(user=submitter).key

    env = service_env(redis, VALIDATION_REQUEUE_AFTER="1")
    web = WebProcess(env)
    try:
        assert web.request("GET", "/api/v1/ping")[0] == 200  # pools and clients made with Redis up
        redis.stop()

        status, body = web.request("GET", "/api/v1/ping")
        assert status == 200, body
        status, body = web.request("GET", f"/api/v1/fixtures?competition={competition.slug}")
        assert status == 200 and body["count"] == 1, body
        assert web.request("GET", f"/api/v1/competitions/{competition.slug}/standings")[0] == 200
        for page in (f"/c/{competition.slug}/", f"/c/{competition.slug}/standings/"):
            assert web.request("GET", page)[0] == 200, page
        started = time.monotonic()
        status, body = web.request(
            "POST",
            f"/api/v1/fixtures/{fixture.id}/submit-result",
            {"home_goals": score["home"], "away_goals": score["away"], "turn_log": log},
            token=token,
        )
        assert status == 202, body
        assert body["validation_status"] == "pending"
        assert time.monotonic() - started < 10, "the broker outage must not hold the request long"
        status, health = web.request("GET", "/healthz")
        assert status == 503 and health["status"] == "degraded"
        assert health["checks"]["cache"]["status"] == "down"
        assert health["checks"]["broker"]["status"] == "down"
    finally:
        web.stop()
    assert "Traceback" not in web.log().split("Redis cache unavailable")[0]
    submission = ResultSubmission.objects.get(id=body["id"])
    assert submission.validation_status == ResultSubmission.Validation.PENDING

    redis.start()
    worker = WorkerProcess(**{k: env[k] for k in ("REDIS_URL", "CELERY_BROKER_URL")})
    try:
        _wait_ready(worker)
        # waiting past VALIDATION_REQUEUE_AFTER=1 for the sweep: dated back, not slept through
        ResultSubmission.objects.filter(id=submission.id).update(
            updated_at=timezone.now() - timedelta(seconds=2)
        )
        assert run_django(env, SWEEP).strip() == f"[{submission.id}]"
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            submission.refresh_from_db()
            if submission.validation_status == ResultSubmission.Validation.VALID:
                break
            time.sleep(0.2)
        else:
            raise AssertionError(f"not validated; worker log:\n{worker.log()[-3000:]}")
        assert run_django(env, SWEEP).strip() == "[]"
        # a second delivery, if any, runs before the audits are counted
        wait_broker_settled("the submission was validated", worker.log, env["CELERY_BROKER_URL"])
    finally:
        worker.stop()
    assert ResultAudit.objects.filter(fixture=fixture, action=ResultAudit.Action.VALIDATE).count() == 1

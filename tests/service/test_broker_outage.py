"""The worker survives a broker outage while it holds an unacknowledged countdown task.

After every counted result a chances recomputation is queued with a countdown, so a worker
nearly always holds a task it has not acknowledged (acks_late). Here a real worker holds such
tasks, the private redis-server (cache and broker) is stopped for a while and started again,
and every task must run exactly once, with the worker alive all along; /healthz says degraded
while no worker answers. The default run stops Redis for OUTAGE_SECONDS (6 s); `make test-slow`
runs the same test with the 60-second outage of the issue. Redis keeps its queue across the
restart (append-only file), as a production broker must.
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import Iterator

import pytest
from django.db import connection

from tests.processes import RedisServer, run_django, service_env
from tests.recording_worker import TABLE, create_table
from tests.workers import WorkerProcess, broker_settled

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


HEALTH = "from fubaleague.health import check_worker; print(check_worker()['status'])"
HEALTH_DOWN = (
    "import time\nfrom fubaleague.health import check_worker\nend = time.monotonic() + 20\n"
    "while check_worker()['status'] != 'down' and time.monotonic() < end:\n    time.sleep(0.1)\n"
    "print(check_worker()['status'])"
)


@pytest.fixture
def redis() -> Iterator[RedisServer]:
    server = RedisServer(durable=True)
    server.start()
    try:
        yield server
    finally:
        server.stop()


def _runs(tokens: list[str]) -> dict[str, int]:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT token, count(*) FROM {TABLE} WHERE token = ANY(%s) GROUP BY token", [tokens])  # noqa: S608
        return dict(cursor.fetchall())


def _queued(broker_url: str) -> int:
    from fubaleague.celery import app

    with app.connection_for_write(broker_url) as conn:
        return int(conn.default_channel.client.llen("celery"))


def _wait_ready(worker: WorkerProcess, timeout: float = 40) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if " ready." in worker.log():
            return
        if worker.proc.poll() is not None:
            break
        time.sleep(0.2)
    raise AssertionError(f"worker not ready:\n{worker.log()[-3000:]}")


def _wait_all_done(worker: WorkerProcess, broker_url: str, tokens: list[str], timeout: float) -> None:
    """Until every task has run and nothing is left that could run one again: the broker holds no
    message, waiting or taken (broker_settled: acks_late keeps a taken one in ``unacked`` until its
    task has ended, a redelivery or a message the worker put back after the outage included), seen
    at two polls in a row: a message the worker was taking at the first (popped, not yet listed as
    taken, for an instant) is listed at the second, or its run is counted."""
    deadline = time.monotonic() + timeout
    settled_before = False
    while time.monotonic() < deadline:
        settled = set(_runs(tokens)) == set(tokens) and broker_settled(broker_url)
        if settled and settled_before:
            return
        settled_before = settled
        time.sleep(0.2)
    raise AssertionError(
        f"runs {_runs(tokens)} of {len(tokens)} tasks, or still some queued:\n{worker.log()[-4000:]}"
    )


def _outage(redis: RedisServer, seconds: float) -> None:
    from fubaleague.celery import app

    env = service_env(redis, WORKER_HEARTBEAT_SECONDS="1")
    create_table()
    worker = WorkerProcess(
        module="tests.recording_worker",
        **{k: env[k] for k in ("REDIS_URL", "CELERY_BROKER_URL", "WORKER_HEARTBEAT_SECONDS")},
    )
    tokens = [uuid.uuid4().hex for _ in range(3)]
    try:
        _wait_ready(worker)
        with app.connection_for_write(env["CELERY_BROKER_URL"]) as conn:
            # One runs at once, two wait in the worker's hands past the outage (countdown).
            app.send_task("tests.record", (tokens[0],), connection=conn)
            app.send_task("tests.record", (tokens[1],), countdown=seconds + 4, connection=conn)
            app.send_task("tests.record", (tokens[2],), countdown=2, connection=conn)
        # the three are in the worker's hands (none left in the queue) before Redis stops
        deadline = time.monotonic() + 30
        while _queued(env["CELERY_BROKER_URL"]) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _queued(env["CELERY_BROKER_URL"]), worker.log()[-4000:]
        redis.stop()
        time.sleep(seconds)
        assert worker.proc.poll() is None, f"the worker exited:\n{worker.log()[-4000:]}"
        redis.start()
        _wait_all_done(worker, env["CELERY_BROKER_URL"], tokens, timeout=seconds + 40)
        assert _runs(tokens) == dict.fromkeys(tokens, 1), worker.log()[-4000:]
        assert worker.proc.poll() is None, f"the worker exited:\n{worker.log()[-4000:]}"
        assert run_django(env, HEALTH) == "up", "the reconnected worker beats again"
    finally:
        worker.stop()
    # three missed beats (one a second): wait for the state, as /healthz reads it, not a fixed 3.5 s
    assert run_django(env, HEALTH_DOWN) == "down", "/healthz is degraded with no worker consuming"


def test_a_worker_holding_countdown_tasks_survives_a_redis_outage(redis: RedisServer) -> None:
    _outage(redis, float(os.environ.get("OUTAGE_SECONDS", "6")))


@pytest.mark.slow
def test_the_same_with_a_one_minute_outage(redis: RedisServer) -> None:
    _outage(redis, 60)

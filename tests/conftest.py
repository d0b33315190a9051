from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from fubaleague.celery import app as celery_app
from scoring import rolls
from tests.workers import WorkerProcess

DB_FIXTURES = {"db", "transactional_db", "client", "admin_client", "live_server", "django_db_blocker"}


@pytest.fixture(autouse=True)
def _fresh_cache(request: pytest.FixtureRequest) -> None:
    """Start every database test with an empty cache: cached standings must not leak across tests.

    The test environment keeps the Celery broker in another Redis database, so this never
    drops a queued task.
    """
    if request.node.get_closest_marker("django_db") or DB_FIXTURES & set(request.fixturenames):
        from django.core.cache import cache

        cache.clear()


@pytest.fixture(autouse=True)
def server_dice(request: pytest.FixtureRequest) -> Iterator[random.Random]:
    """The server's dice (scoring.rolls) from a generator seeded with the test's id: every test
    rolls the same dice on every run. A test may reseed it (``server_dice.seed(n)``)."""
    generator = random.Random(request.node.nodeid)
    with rolls.generator_used(generator):
        yield generator


@pytest.fixture
def real_celery(transactional_db: None) -> Iterator[None]:
    """Send tasks through the Redis broker instead of running them in-process."""
    previous = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = False
    celery_app.control.purge()
    try:
        yield
    finally:
        celery_app.conf.task_always_eager = previous


@pytest.fixture
def celery_worker_process(real_celery: None) -> Iterator[WorkerProcess]:
    """A real `celery worker` subprocess consuming from Redis against the test database."""
    worker = WorkerProcess()
    try:
        worker.wait_ready()
        yield worker
    finally:
        worker.stop()

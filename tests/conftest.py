from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from fubaleague.celery import app as celery_app
from kernel import broker
from scoring import rolls
from tests.workers import WorkerProcess

DB_FIXTURES = {"db", "transactional_db", "client", "admin_client", "live_server", "django_db_blocker"}


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup: None) -> Iterator[None]:
    """pytest-django's set-up, its serialized tables then given to every connection object made.

    Django keeps them (``_test_serialized_contents``, what serialized_rollback restores) on the
    connection object the test database was set up with. Once Playwright's sync API runs its event
    loop in this thread (tests/browser), asgiref keeps Django's connections per context, so the
    tests then get a new connection object, without them: Django skips the restore without a word
    and its flush re-creates the content types under new ids (post_migrate). In a process that ran
    a non-transactional test first (every worker of `make test`), each browser test found the
    data-migration rows gone and the content types renumbered."""
    from django.db import connections

    contents = {
        alias: connections[alias]._test_serialized_contents
        for alias in connections
        if hasattr(connections[alias], "_test_serialized_contents")
    }
    create = connections.create_connection

    def create_connection(alias: str) -> Any:
        made = create(alias)
        if alias in contents:
            made._test_serialized_contents = contents[alias]
        return made

    connections.create_connection = create_connection  # type: ignore[method-assign]
    try:
        yield
    finally:
        del connections.create_connection


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
def _broker_breaker_closed() -> None:
    """Every test starts with the broker's breaker closed: a publish that waited past its timeout
    in an earlier test (a loaded machine) must not leave this one's tasks unqueued for 2 s."""
    broker._down_until = 0.0


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

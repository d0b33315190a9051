"""Fixtures shared by the API and page tests (their conftest files import them)."""

from __future__ import annotations

import copy
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import override_settings

from league import demo
from matches.standings import cache as standings_cache
from tests.demo_data import light_world_cup

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def fast_hashing_and_clean_cache(settings, request: pytest.FixtureRequest):
    # Password hashing is slow on purpose; the tests create 33 accounts.
    marker = request.node.get_closest_marker("django_db")
    committing = (marker is not None and marker.kwargs.get("transaction")) or {
        "transactional_db",
        "live_server",
    } & set(request.fixturenames)
    if committing and connection.in_atomic_block:
        raise pytest.UsageError(
            f"{request.node.nodeid} needs a committed database but its module's shared cup holds a "
            "transaction open: give that module a cup of its own (tests/web_fixtures.py)"
        )
    settings.PASSWORD_HASHERS = FAST_HASHERS
    demo._HASHES.clear()
    cache.clear()
    standings_cache.clear_local()
    yield
    cache.clear()
    standings_cache.clear_local()


@contextmanager
def rolled_back_at_the_end(django_db_blocker: Any) -> Iterator[None]:
    """Data built once for a whole test module: inside a transaction rolled back when the block
    ends (the module's last test is done). Each test then runs in a savepoint of its own (the
    ``db`` fixture's), so what one test writes is gone before the next; a test needing a committed
    database (``transaction=True``, ``live_server``) cannot run in such a module. Accounts get the
    fast test hasher while the data is built."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        demo._HASHES.clear()
        with transaction.atomic():
            yield
            transaction.set_rollback(True)
        demo._HASHES.clear()


@pytest.fixture(scope="module")
def _module_cup(django_db_setup: None, django_db_blocker: Any) -> Iterator[demo.Demo]:
    """The light World Cup built once per test module (building it takes seconds: 33 accounts,
    two groups played, simulated matches; see rolled_back_at_the_end). A module whose tests need a
    committed database must not use this ``cup`` (fast_hashing_and_clean_cache refuses it)."""
    with rolled_back_at_the_end(django_db_blocker):
        yield light_world_cup()


@pytest.fixture
def cup(_module_cup: demo.Demo, db: None) -> demo.Demo:
    # A copy of the objects per test (as Django's setUpTestData gives): a test that changes a
    # model instance in memory leaves the next test the one the database holds.
    return copy.deepcopy(_module_cup)

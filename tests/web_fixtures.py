"""Fixtures shared by the API and page tests (their conftest files import them)."""

from __future__ import annotations

import copy
import hashlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import pytest
from django.core.cache import cache
from django.db import connection, transaction
from django.test import override_settings

from league import demo
from matches.standings import cache as standings_cache
from tests.demo_data import light_world_cup

FAST_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
T = TypeVar("T")


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


def _table_rows(cursor: Any, table: str) -> set[bytes]:
    """A table's rows as PostgreSQL's COPY writes them, one line each."""
    with cursor.copy(f'COPY "{table}" TO STDOUT') as pipe:
        return set(b"".join(bytes(block) for block in pipe).splitlines())


def database_state() -> str:
    """A digest of every row of every table (sequences aside): two states with the same digest
    hold the same rows under the same ids, so rows built on one can be written back on the other."""
    digest = hashlib.sha256()
    connection.ensure_connection()
    with connection.cursor() as django_cursor:
        tables = sorted(connection.introspection.table_names(django_cursor, include_views=False))
    with connection.connection.cursor() as cursor:
        for table in tables:
            digest.update(f"{table}\0".encode())
            for line in sorted(_table_rows(cursor, table)):
                digest.update(line + b"\n")
    return digest.hexdigest()


def rows_added_by(build: Callable[[], T]) -> tuple[T, dict[str, bytes]]:
    """Run ``build`` in a transaction that is rolled back; what it returned and the rows it added,
    per table as COPY writes them, for write_rows to put back in a test far faster than building
    again (the light cup: ~3,000 queries through the services). Needs database access."""
    with transaction.atomic(), connection.connection.cursor() as cursor:
        tables = connection.introspection.table_names(include_views=False)
        before = {table: _table_rows(cursor, table) for table in tables}
        built = build()
        added: dict[str, bytes] = {}
        for table in tables:
            after = _table_rows(cursor, table)
            if before[table] - after:
                raise RuntimeError(f"the build changed or removed rows that were there before, in {table}")
            if after - before[table]:
                added[table] = b"".join(line + b"\n" for line in sorted(after - before[table]))
        transaction.set_rollback(True)
    return built, added


def write_rows(added: dict[str, bytes]) -> None:
    """Put back the rows of rows_added_by (with the same ids: the sequences only move forward, so
    rows a test adds never collide with them). The foreign keys are checked at the commit, so the
    tables' order does not matter."""
    with transaction.atomic(), connection.connection.cursor() as cursor:
        for table, rows in added.items():
            with cursor.copy(f'COPY "{table}" FROM STDIN') as pipe:
                pipe.write(rows)


def built_once_per_state(builds: dict[str, tuple[T, dict[str, bytes]]], build: Callable[[], T]) -> T:
    """What ``build`` makes, its rows written in the current transaction or committed: built at
    most once per state of the database under it (database_state), kept in ``builds`` and then
    written back (write_rows, same ids) on the same state. On another state (a flush that re-created
    the content types and permissions under new ids) it is built again rather than written with
    references to rows that are no longer there. A deep copy of what was built, for the caller to
    change as it likes."""
    state = database_state()
    if state not in builds:
        builds[state] = rows_added_by(build)
    built, rows = builds[state]
    write_rows(rows)
    return copy.deepcopy(built)


@pytest.fixture(scope="session")
def _light_cup_rows(django_db_setup: None, django_db_blocker: Any) -> tuple[demo.Demo, dict[str, bytes]]:
    """The light World Cup built once per test process (33 accounts, two groups played, simulated
    matches: seconds), kept as its rows; what its commit would start (on_commit) is not run."""
    with django_db_blocker.unblock(), override_settings(PASSWORD_HASHERS=FAST_HASHERS):
        demo._HASHES.clear()
        built = rows_added_by(light_world_cup)
        demo._HASHES.clear()
    return built


@pytest.fixture(scope="module")
def _module_cup(
    django_db_setup: None, django_db_blocker: Any, _light_cup_rows: tuple[demo.Demo, dict[str, bytes]]
) -> Iterator[demo.Demo]:
    """The light World Cup for a test module, its rows written once (see rolled_back_at_the_end).
    A module whose tests need a committed database must not use this ``cup``
    (fast_hashing_and_clean_cache refuses it)."""
    built, rows = _light_cup_rows
    with rolled_back_at_the_end(django_db_blocker):
        write_rows(rows)
        yield copy.deepcopy(built)


@pytest.fixture
def cup(_module_cup: demo.Demo, db: None) -> demo.Demo:
    # A copy of the objects per test (as Django's setUpTestData gives): a test that changes a
    # model instance in memory leaves the next test the one the database holds.
    return copy.deepcopy(_module_cup)

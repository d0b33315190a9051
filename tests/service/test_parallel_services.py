"""`make test` runs two pytest-xdist workers: the second gets Redis databases of its own."""

from __future__ import annotations

import os

import pytest

from tests import parallel_services


def test_the_second_worker_takes_its_own_redis_databases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/15")
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:6379/14")
    monkeypatch.setenv("REDIS_URL_GW1", "redis://127.0.0.1:6379/12")
    monkeypatch.setenv("CELERY_BROKER_URL_GW1", "redis://127.0.0.1:6379/11")
    for first in ("", "gw0"):
        parallel_services._own_services(first)
        assert os.environ["REDIS_URL"].endswith("/15") and os.environ["CELERY_BROKER_URL"].endswith("/14")
    parallel_services._own_services("gw1")
    assert os.environ["REDIS_URL"].endswith("/12") and os.environ["CELERY_BROKER_URL"].endswith("/11")


def test_a_worker_with_no_databases_of_its_own_stops_the_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("REDIS_URL_GW2", raising=False)
    with pytest.raises(pytest.UsageError, match="REDIS_URL_GW2"):
        parallel_services._own_services("gw2")


def test_the_environment_has_the_second_workers_databases_apart_from_the_first() -> None:
    # scripts/test-env.sh sets them; sharing one would let a worker's cache.clear() or purge hit the other
    own = [os.environ.get("REDIS_URL"), os.environ.get("CELERY_BROKER_URL")]
    second = [os.environ.get("REDIS_URL_GW1"), os.environ.get("CELERY_BROKER_URL_GW1")]
    assert None not in second
    if os.environ.get("PYTEST_XDIST_WORKER") == "gw1":
        assert own == second  # rewritten when this worker started
    else:
        assert not set(own) & set(second)

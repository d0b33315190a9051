"""A task travels through Redis to a real worker subprocess and runs there."""

from __future__ import annotations

import time
import uuid

import pytest
from django.core.cache import cache

from fubaleague.tasks import HEARTBEAT_KEY, heartbeat
from tests.workers import WorkerProcess

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_task_runs_on_a_real_worker(celery_worker_process: WorkerProcess) -> None:
    token = uuid.uuid4().hex
    heartbeat.delay(token)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and cache.get(HEARTBEAT_KEY.format(token=token)) is None:
        time.sleep(0.1)
    assert cache.get(HEARTBEAT_KEY.format(token=token)) is not None, celery_worker_process.log()
    assert "fubaleague.heartbeat[" in celery_worker_process.log()

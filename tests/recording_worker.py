"""A Celery worker with one more task, ``tests.record``, that writes a row per run into the test
database: the broker-outage tests count the rows to see every task done exactly once.

Test-only: the task is registered here, in the worker's own process, so production code carries
no test task. Usage: python -m tests.recording_worker <celery worker args…>
"""

from __future__ import annotations

import os
import sys

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fubaleague.settings")
django.setup()

from django.db import connection  # noqa: E402

from fubaleague.celery import app  # noqa: E402

TABLE = "test_task_runs"


def create_table() -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {TABLE} (token text NOT NULL, ran_at timestamptz DEFAULT now())"
        )


@app.task(name="tests.record", ignore_result=True)
def record(token: str) -> None:
    with connection.cursor() as cursor:
        cursor.execute(f"INSERT INTO {TABLE} (token) VALUES (%s)", [token])  # noqa: S608


if __name__ == "__main__":
    app.worker_main(["worker", *sys.argv[1:]])

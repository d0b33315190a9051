"""A Celery worker whose turn-log validations take long enough to be killed mid-run.

Test-only, like tests/slow_worker.py: the pause is patched in before the pool forks, so
production code carries no test hook. Usage: python -m tests.slow_validation_worker <worker args…>
"""

from __future__ import annotations

import os
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fubaleague.settings")
django.setup()

from matches.services import log_checks  # noqa: E402

PAUSE = float(os.environ.get("SLOW_VALIDATION_SECONDS", "60"))
_engine = log_checks.run_rules_engine


def slow_engine(*, log):  # type: ignore[no-untyped-def]
    time.sleep(PAUSE)
    return _engine(log=log)


log_checks.run_rules_engine = slow_engine  # type: ignore[assignment]

from fubaleague.celery import app  # noqa: E402

if __name__ == "__main__":
    app.worker_main(["worker", *sys.argv[1:]])

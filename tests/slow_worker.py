"""A Celery worker whose forfeit simulations take long enough to be killed mid-run.

Test-only: the pause is patched in here, before the pool forks, so production code carries
no test hook. Usage: python -m tests.slow_worker <celery worker args…>
"""

from __future__ import annotations

import os
import sys
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fubaleague.settings")
django.setup()

from matches import forfeits  # noqa: E402
from matches.simulation import fixture_simulate  # noqa: E402

PAUSE = float(os.environ.get("SLOW_SIMULATION_SECONDS", "60"))


def slow_simulate(**kwargs):  # type: ignore[no-untyped-def]
    time.sleep(PAUSE)
    return fixture_simulate(**kwargs)


forfeits.fixture_simulate = slow_simulate  # type: ignore[assignment]

from fubaleague.celery import app  # noqa: E402

if __name__ == "__main__":
    app.worker_main(["worker", *sys.argv[1:]])

"""Redis databases of their own for each pytest-xdist worker (`make test` runs `pytest -n 2`).

pytest-django gives each worker its own PostgreSQL test database (``test_<name>_gw1``); Redis has
no such thing, and two workers on one Redis database would drop each other's cache (the tests
clear it) and broker queues (the worker tests purge them). Worker ``gwN`` after the first takes
``REDIS_URL_GWN`` and ``CELERY_BROKER_URL_GWN`` (scripts/test-env.sh sets them for ``gw1``).

Loaded with ``-p tests.parallel_services`` (the Makefile runs ``python -m pytest`` so that the
package is importable then): the settings read the environment when pytest-django loads them,
before any conftest is imported, so the variables must be set here, in a plugin.
"""

from __future__ import annotations

import os

import pytest

WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")


def _own_services(worker: str) -> None:
    if worker in ("", "gw0"):
        return
    suffix = worker.upper()
    for name in ("REDIS_URL", "CELERY_BROKER_URL"):
        own = os.environ.get(f"{name}_{suffix}")
        if not own:
            raise pytest.UsageError(
                f"pytest-xdist worker {worker} needs {name}_{suffix}, a Redis database that no other "
                "worker or run uses (scripts/test-env.sh sets them for two workers)"
            )
        os.environ[name] = own


_own_services(WORKER)

"""`make worker` / `make beat` refuse to start without a real broker, in one line naming REDIS_URL."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("target", ["worker", "beat"])
def test_make_target_without_broker_stops_in_one_line_naming_redis_url(target: str) -> None:
    environ = {
        k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "CELERY_BROKER_URL", "MAKEFLAGS"}
    }
    result = subprocess.run(
        ["make", "-s", target], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if "needs a broker" in line]
    assert len(lines) == 1 and "REDIS_URL" in lines[0], result.stderr
    assert "Traceback" not in result.stderr + result.stdout

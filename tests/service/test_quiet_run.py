"""`make run` says only what the user needs: no warning about SQLite or a missing broker host, and
the demo's in-process tasks summarised in one line instead of one INFO line each."""

from __future__ import annotations

import logging
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from fubaleague.tasks import heartbeat
from league.management.commands.load_demo import _tasks_summarised
from tests.processes import free_port, wait_port

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_embedded_default_starts_without_the_sqlite_or_broker_warnings(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env |= {"DEBUG": "1", "CELERY_TASK_ALWAYS_EAGER": "1"}
    code = (
        "import django; django.setup()\n"
        "from django.core.management import call_command; call_command('check')\n"
        # A task run in-process still takes a producer, which reads the broker's address.
        "from fubaleague.tasks import heartbeat\n"
        "heartbeat.delay('quiet-run')\n"
    )
    env["DJANGO_SETTINGS_MODULE"] = "fubaleague.settings"
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    output = done.stdout + done.stderr
    assert "W047" not in output and "suspension_unique" not in output
    assert "No hostname" not in output


@pytest.mark.django_db
def test_the_demo_counts_its_tasks_instead_of_logging_each(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO), _tasks_summarised() as ran:
        heartbeat.delay("quiet-run")
        heartbeat.delay("quiet-run")
    assert ran == {"fubaleague.heartbeat": 2}
    assert not [r for r in caplog.records if r.name == "celery.app.trace" and r.levelno < logging.WARNING]
    assert logging.getLogger("celery.app.trace").level == logging.NOTSET


def test_runserver_says_where_to_go_and_nothing_else(tmp_path: Path) -> None:
    # make run: no development-server warning (the target is the embedded default, production is
    # docker-compose.yml) and the autoreloader's INFO line is not logged twice. The server is
    # started with the environment that `make run`'s command line sets (its dry run), on a free
    # port and a database of its own, and read once it listens.
    env_of_make = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    dry = subprocess.run(
        ["make", "--no-print-directory", "-n", "run"],
        cwd=ROOT, env=env_of_make, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    line = next(line for line in dry.stdout.splitlines() if "manage.py runserver" in line)
    words = shlex.split(line)
    assert words[0] == "env"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL")}
    env |= dict(word.split("=", 1) for word in words[1 : words.index("manage.py") - 1] if "=" in word)
    env |= {"DATABASE_URL": f"sqlite:///{tmp_path / 'run.sqlite3'}", "PYTHONUNBUFFERED": "1"}
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "manage.py", "runserver", f"127.0.0.1:{port}", "--noreload", "--skip-checks"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    try:
        # the warning would be written before the server listens: once it answers, all is said
        wait_port(port, up=True, timeout=60)
    finally:
        server.terminate()
        said, _ = server.communicate(timeout=30)
    output = str(said)
    assert f"http://127.0.0.1:{port}/" in output, output
    assert "WARNING" not in output and "production setting" not in output, output
    assert logging.getLogger("django.utils.autoreload").getEffectiveLevel() == logging.WARNING

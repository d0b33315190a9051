"""Start and stop real Celery worker subprocesses for the tests that need one."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

from django.db import connection

from fubaleague.celery import app

ROOT = Path(__file__).resolve().parent.parent


class WorkerProcess:
    def __init__(
        self, *, concurrency: int = 1, pool: str = "prefork", module: str | None = None, **env_extra: str
    ) -> None:
        self.hostname = f"test-{uuid.uuid4().hex[:8]}@localhost"
        env = dict(os.environ)
        # The worker must see the rows the test committed: point it at the test database.
        db = connection.settings_dict
        env["DATABASE_URL"] = f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"
        env["CELERY_TASK_ALWAYS_EAGER"] = "0"
        env.update(env_extra)
        self.log_path = ROOT / "var" / f"worker-{self.hostname.split('@')[0]}.log"
        self.log_path.parent.mkdir(exist_ok=True)
        self._log = self.log_path.open("w")
        self.proc = subprocess.Popen(
            [
                sys.executable, "-m", *(
                    [module] if module else ["celery", "-A", "fubaleague", "worker"]
                ),
                "--loglevel=INFO", f"--concurrency={concurrency}", f"--pool={pool}",
                f"--hostname={self.hostname}", "--without-gossip", "--without-mingle",
            ],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
            start_new_session=True,
        )  # fmt: skip

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"worker exited early; log:\n{self.log_path.read_text()}")
            replies = app.control.ping(destination=[self.hostname], timeout=0.5)
            if replies:
                return
        raise RuntimeError(f"worker not ready after {timeout}s; log:\n{self.log_path.read_text()}")

    def kill(self) -> None:
        """SIGKILL the whole process group: the worker gets no chance to ack or clean up."""
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        self._log.close()

    def log(self) -> str:
        return self.log_path.read_text()


def broker_settled(broker_url: str | None = None) -> bool:
    """True when the broker holds no task message, waiting or taken: every message sent (a
    duplicate or a redelivery included) has run and been acknowledged (acks_late keeps a taken
    message in ``unacked`` until its task ends). What a test waits for before it counts what the
    tasks did, instead of sleeping "long enough" for a duplicate to show."""
    with app.connection_for_write(broker_url) as conn:
        client = conn.default_channel.client
        return client.llen("celery") == 0 and client.hlen("unacked") == 0


def wait_broker_settled(
    what: str, log: Callable[[], str], broker_url: str | None = None, timeout: float = 60
) -> None:
    deadline = time.monotonic() + timeout
    while not broker_settled(broker_url):
        if time.monotonic() > deadline:
            raise AssertionError(f"the broker still holds tasks after {what}; worker log:\n{log()[-4000:]}")
        time.sleep(0.1)


def pool_children(pid: int) -> list[int]:
    """The pool processes of a prefork worker (its direct children), from /proc."""
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return [int(p) for p in children.read_text().split()] if children.exists() else []

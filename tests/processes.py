"""A private redis-server and a gunicorn web process for the tests that stop Redis.

The shared Redis on 6379 serves other test runs: these tests start their own on a free port
and stop and restart only that one.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from django.db import connection

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_port(port: int, up: bool, timeout: float = 15.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with socket.socket() as s:
            s.settimeout(0.2)
            listening = s.connect_ex(("127.0.0.1", port)) == 0
        if listening == up:
            return
        time.sleep(0.05)
    raise RuntimeError(f"port {port} still {'closed' if up else 'open'} after {timeout}s")


class RedisServer:
    """redis-server on its own port; stop() and start() again at will. Without persistence, or
    ``durable`` (an append-only file written at every change, as a production broker keeps its
    queue across a restart)."""

    def __init__(self, *, durable: bool = False) -> None:
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None
        self.persistence = ["--save", "", "--appendonly", "no"]
        if durable:
            self.persistence = ["--save", "", "--appendonly", "yes", "--appendfsync", "always",
                                "--dir", tempfile.mkdtemp(prefix="fuba-redis-")]  # fmt: skip

    def url(self, db: int) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", *self.persistence,
             "--daemonize", "no", "--loglevel", "warning"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        wait_port(self.port, up=True)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=10)
        wait_port(self.port, up=False)

    def pause(self) -> None:
        """SIGSTOP: the server keeps its port (connections are accepted) but answers nothing."""
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGSTOP)

    def resume(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGCONT)


def database_url_of_tests() -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}"


def service_env(redis: RedisServer, **extra: str) -> dict[str, str]:
    """The production-shape environment against the test database and the private Redis."""
    env = dict(os.environ)
    env.update(
        DATABASE_URL=database_url_of_tests(),
        REDIS_URL=redis.url(0),
        CELERY_BROKER_URL=redis.url(1),
        CELERY_TASK_ALWAYS_EAGER="0",
        **extra,
    )
    return env


class WebProcess:
    """gunicorn serving the project, as in production (one worker: its /healthz counts are ours)."""

    def __init__(self, env: dict[str, str], *, workers: int = 1) -> None:
        self.port = free_port()
        self.log_path = ROOT / "var" / f"web-{self.port}.log"
        self.log_path.parent.mkdir(exist_ok=True)
        self._log = self.log_path.open("w")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "gunicorn", "fubaleague.wsgi", "--bind", f"127.0.0.1:{self.port}",
             "--workers", str(workers), "--timeout", "120"],
            cwd=ROOT, env=env, stdout=self._log, stderr=subprocess.STDOUT,
        )  # fmt: skip
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited; log:\n{self.log()}")
            try:
                self.request("GET", "/api/v1/ping")
                return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError(f"gunicorn not ready; log:\n{self.log()}")

    def request(self, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, Any]:
        headers = {"Host": "localhost", "Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = f"Token {token}"
        req = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=data, headers=headers, method=method
        )
        try:
            with urllib.request.urlopen(req, timeout=60) as response:  # noqa: S310 - our own local server
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode(errors="replace")

    def log(self) -> str:
        return self.log_path.read_text()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self._log.close()


def run_django(env: dict[str, str], code: str) -> str:
    """Run Python in a fresh Django process with this environment (e.g. a beat job's function);
    the last line it printed."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1]  # the shell may say first what it imported

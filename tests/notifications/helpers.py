"""What the notification tests share: a worker that writes its mails to a folder, the mails read
back, a local HTTP receiver standing in for a webhook endpoint or a push service."""

from __future__ import annotations

import email
import email.message
import re
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.processes import free_port
from tests.workers import WorkerProcess

SITE = "http://testserver"


def mail_worker(mail_dir: Path, **env: str) -> WorkerProcess:
    """A real worker whose mails go to files in ``mail_dir`` (Django's file backend), whose links
    start with http://testserver (the test client's host) and that may post to 127.0.0.1."""
    return WorkerProcess(
        EMAIL_BACKEND="django.core.mail.backends.filebased.EmailBackend",
        EMAIL_FILE_PATH=str(mail_dir),
        SITE_URL=SITE,
        WEBHOOK_ALLOW_PRIVATE="1",
        **env,
    )


def mails(mail_dir: Path) -> list[email.message.Message]:
    found = []
    for path in sorted(mail_dir.glob("*.log")):
        for chunk in path.read_text().split("-" * 79):
            if chunk.strip():
                found.append(email.message_from_string(chunk.lstrip("\n")))
    return found


def mails_to(mail_dir: Path, address: str) -> list[email.message.Message]:
    return [m for m in mails(mail_dir) if m["To"] == address]


def body(message: email.message.Message) -> str:
    payload = message.get_payload(decode=True)
    return payload.decode() if isinstance(payload, bytes) else str(message.get_payload())


def link(message: email.message.Message, words: str) -> str:
    """The path of the link after ``words`` in the mail's text."""
    match = re.search(re.escape(words) + r"[^\n]*?(https?://\S+)", body(message))
    assert match, f"no link after {words!r} in:\n{body(message)}"
    return match.group(1).removeprefix(SITE)


def wait_until(predicate: Callable[[], Any], what: str, worker: WorkerProcess, timeout: float = 60.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"timed out waiting for {what}; worker log:\n{worker.log()[-5000:]}")


class Receiver:
    """A local HTTP server that records every POST (path, headers, body) and answers ``status``
    (503 while "down"). Stands in for a webhook endpoint and for a push service."""

    def __init__(self) -> None:
        self.port = free_port()
        self.status = 200
        self.received: list[dict[str, Any]] = []
        self.refused = 0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                data = self.rfile.read(length)
                if receiver.status >= 300:
                    receiver.refused += 1
                else:
                    receiver.received.append({"path": self.path, "headers": dict(self.headers), "body": data})
                self.send_response(receiver.status)
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def url(self, path: str = "/hook") -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()

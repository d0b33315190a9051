"""Say clearly which external service the tests need is unreachable, and how to start it."""

from __future__ import annotations

import os
import socket
import sys
from urllib.parse import urlparse

HINTS = {
    "PostgreSQL": "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "Redis": 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no',
}


def reachable(url: str, default_port: int) -> tuple[str, int, bool]:
    parsed = urlparse(url)
    host, port = parsed.hostname or "127.0.0.1", parsed.port or default_port
    try:
        with socket.create_connection((host, port), timeout=2):
            return host, port, True
    except OSError:
        return host, port, False


def main() -> int:
    failed = False
    for name, var, port in (("PostgreSQL", "DATABASE_URL", 5432), ("Redis", "REDIS_URL", 6379)):
        url = os.environ.get(var, "")
        host, port, ok = reachable(url, port)
        if not ok:
            failed = True
            sys.stderr.write(
                f"{name} is not reachable at {host}:{port} ({var}={url}).\n  Start it with: {HINTS[name]}\n"
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""The Docker build context leaves out local build output, whatever a checkout has built."""

from __future__ import annotations

import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LOCAL_OUTPUT = ("node_modules/", "build/", "var/", "staticfiles/", ".venv/")


def _ignored(path: str, patterns: list[str]) -> bool:
    # Docker's rules for the patterns this file uses: a directory pattern drops everything under it,
    # `**/` matches at any depth.
    for pattern in patterns:
        bare = pattern.rstrip("/")
        if path == bare or path.startswith(bare + "/") or fnmatch.fnmatch(path, bare + "/*"):
            return True
        if bare.startswith("**/") and f"/{bare[3:]}/" in f"/{path}":
            return True
    return False


def test_local_build_output_stays_out_of_the_docker_context() -> None:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    # What a checkout that ran `make install`, `make engine` and collectstatic holds.
    built = [f"{prefix}x/y.js" for prefix in LOCAL_OUTPUT] + ["fubaleague/__pycache__/settings.pyc"]
    assert [path for path in built if not _ignored(path, patterns)] == []
    sources = ["rules_engine/board.py", "static/scoring/js/local-first.js", "package-lock.json"]
    assert [path for path in sources if _ignored(path, patterns)] == []

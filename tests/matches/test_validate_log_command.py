"""``manage.py validate_log``: JSON output and exit codes 0 / 1 / 2 (no database needed)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "docs" / "examples" / "example-match.json"


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBUG": "1", "DJANGO_SETTINGS_MODULE": "fubaleague.settings"}
    env.pop("DATABASE_URL", None)
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "validate_log", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_valid_example_exit_0() -> None:
    p = run(str(EXAMPLE))
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["valid"] is True and out["result"]["finished"] is True


def test_single_die_corruption_exit_1_with_turn_and_rule(tmp_path: Path) -> None:
    log = json.loads(EXAMPLE.read_text())
    i = next(k for k, e in enumerate(log["events"]) if e.get("roll") == "situation" and k > 50)
    d = log["events"][i]["dice"]
    d[0] = d[0] % 6 + 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log))
    p = run(str(bad))
    assert p.returncode == 1, p.stderr
    out = json.loads(p.stdout)
    assert out["valid"] is False
    err = out["errors"][0]
    assert err["turn"] and err["rule"] and err["reason"] and err["path"].startswith("$.events[")


@pytest.mark.parametrize("content", [None, b"{oops", b"\xff\xfe"])
def test_unreadable_exit_2(tmp_path: Path, content: bytes | None) -> None:
    f = tmp_path / "log.json"
    if content is not None:
        f.write_bytes(content)
    p = run(str(f))
    assert p.returncode == 2, p.stderr
    assert json.loads(p.stdout)["valid"] is False

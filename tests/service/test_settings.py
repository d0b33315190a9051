"""Settings come from the environment; a wrong value fails at start naming the variable."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from kernel import env

ROOT = Path(__file__).resolve().parents[2]


# Set by the browser tests' conftest for Playwright's event loop; a real start never has it.
TEST_ONLY_VARS = {"DJANGO_ALLOW_ASYNC_UNSAFE"}


def start_django(**overrides: str | None) -> subprocess.CompletedProcess[str]:
    """Import the settings in a fresh interpreter, as `manage.py` would at start."""
    environ = {k: v for k, v in os.environ.items() if k not in overrides and k not in TEST_ONLY_VARS}
    environ.update({k: v for k, v in overrides.items() if v is not None})
    code = (
        "import django; django.setup(); from django.conf import settings; "
        "print(settings.DATABASES['default']['ENGINE']); print(settings.CACHES['default']['BACKEND']);"
        "print(settings.CELERY_TASK_ALWAYS_EAGER)"
    )
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True, timeout=60
    )


def test_the_test_suite_runs_on_postgresql() -> None:
    assert connection.vendor == "postgresql"
    assert settings.CACHES["default"]["BACKEND"].endswith("RedisCache")


def test_embedded_default_needs_no_service() -> None:
    result = start_django(
        DEBUG="1", DATABASE_URL=None, REDIS_URL=None, CELERY_BROKER_URL=None, SECRET_KEY=None
    )
    assert result.returncode == 0, result.stderr
    engine, cache_backend, eager = result.stdout.split()
    assert engine == "django.db.backends.sqlite3"
    assert cache_backend.endswith("LocMemCache")
    assert eager == "True"


def test_redis_url_switches_cache_and_broker() -> None:
    result = start_django(REDIS_URL="redis://127.0.0.1:6379/3", CELERY_TASK_ALWAYS_EAGER=None)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == [
        "django.db.backends.postgresql",
        "kernel.cache.RedisCache",
        "False",
    ]


@pytest.mark.parametrize(
    ("overrides", "named"),
    [
        ({"DEBUG": "0", "SECRET_KEY": None}, "SECRET_KEY"),
        ({"DEBUG": "maybe"}, "DEBUG"),
        ({"DATABASE_URL": "mysql://db/x"}, "DATABASE_URL"),
        ({"REDIS_URL": "http://127.0.0.1:6379"}, "REDIS_URL"),
        ({"CELERY_BROKER_URL": "kafka://127.0.0.1"}, "CELERY_BROKER_URL"),
        ({"API_THROTTLE_ANON": "lots"}, "API_THROTTLE_ANON"),
        ({"DEBUG": "0", "ALLOWED_HOSTS": "*"}, "ALLOWED_HOSTS"),
        ({"ALLOWED_HOSTS": "a.example,,b.example"}, "ALLOWED_HOSTS"),
        ({"CELERY_TASK_TIME_LIMIT": "soon"}, "CELERY_TASK_TIME_LIMIT"),
        ({"LOG_LEVEL": "LOUD"}, "LOG_LEVEL"),
        ({"CHANCES_RUNS": "many"}, "CHANCES_RUNS"),
        ({"CHANCES_RUNS": "0"}, "CHANCES_RUNS"),
        ({"WORKER_HEARTBEAT_SECONDS": "often"}, "WORKER_HEARTBEAT_SECONDS"),
        ({"BROKER_PUBLISH_TIMEOUT": "-1"}, "BROKER_PUBLISH_TIMEOUT"),
    ],
)
def test_wrong_value_fails_at_start_naming_the_variable(overrides: dict[str, str | None], named: str) -> None:
    result = start_django(**overrides)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    assert named in result.stderr.splitlines()[-1]


def test_env_helpers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("X_BOOL", "Yes")
    assert env.env_bool("X_BOOL") is True
    monkeypatch.setenv("X_LIST", "a.example, b.example")
    assert env.env_list("X_LIST", []) == ["a.example", "b.example"]
    monkeypatch.setenv("X_INT", "-1")
    with pytest.raises(ImproperlyConfigured, match="X_INT=-1 must be at least 0"):
        env.env_int("X_INT", 5, minimum=0)
    monkeypatch.setenv("X_URL", "postgres://user:hunter2@db/x")
    assert env.env_url("X_URL", schemes=("postgres",)) == "postgres://user:hunter2@db/x"
    with pytest.raises(ImproperlyConfigured) as excinfo:
        env.env_url("X_URL", schemes=("redis",))
    assert "hunter2" not in str(excinfo.value), "passwords must not leak into error messages"


def test_deploy_check_passes_with_production_like_environment() -> None:
    environ = {k: v for k, v in os.environ.items() if k not in TEST_ONLY_VARS}
    environ.update(
        DEBUG="0",
        SECRET_KEY="a-production-like-secret-key-with-enough-entropy-9f8e7d6c5b4a3928171605",
        ALLOWED_HOSTS="fuba.example.org",
        SECURE_SSL_REDIRECT="1",
    )
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout + result.stderr


def _environment_reads() -> dict[str, str]:
    """Every variable the code reads by name (the `kernel.env` helpers, `os.environ.get`,
    `os.getenv`, `os.environ[...]`), with the file that reads it; migrations and tests left out."""
    reads: dict[str, str] = {}
    packages = [
        "kernel",
        "fubaleague",
        "tournaments",
        "matches",
        "scoring",
        "ratings",
        "chances",
        "rules_engine",
    ]
    for path in sorted(
        p for package in [*packages, "bench", "scripts"] for p in (ROOT / package).rglob("*.py")
    ):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            name = None
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
                func = node.func
                called = (
                    func.id
                    if isinstance(func, ast.Name)
                    else func.attr
                    if isinstance(func, ast.Attribute)
                    else ""
                )
                on_environ = isinstance(func, ast.Attribute) and ast.unparse(func.value) == "os.environ"
                if called.startswith("env_") or called == "getenv" or (on_environ and called == "get"):
                    name = node.args[0].value
            elif (
                isinstance(node, ast.Subscript)
                and ast.unparse(node.value) == "os.environ"
                and isinstance(node.slice, ast.Constant)
            ):
                name = node.slice.value
            if isinstance(name, str):
                reads.setdefault(name, str(path.relative_to(ROOT)))
    return reads


def _readme_variables() -> set[str]:
    section = (
        (ROOT / "README.md").read_text(encoding="utf-8").split("## Configuration", 1)[1].split("\n## ", 1)[0]
    )
    rows = [line.split("|")[1] for line in section.splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]+)`", row)}


def test_every_variable_the_code_reads_is_in_the_readme_table() -> None:
    reads = _environment_reads()
    assert {"DEBUG", "DB_CONN_MAX_AGE", "CACHE_KEY_PREFIX", "FUBA_ENGINE", "CHANCES_RUNS"} <= set(reads)
    # scripts/test-env.sh reads the TEST_* overrides that let two runs share PostgreSQL and Redis.
    test_env = (ROOT / "scripts" / "test-env.sh").read_text(encoding="utf-8")
    overrides = set(re.findall(r"\$\{(TEST_\w+):-", test_env))
    assert overrides
    missing = {name: where for name, where in reads.items() if name not in _readme_variables()}
    missing |= {name: "scripts/test-env.sh" for name in overrides - _readme_variables()}
    assert not missing, f"read by the code but not in README.md's Configuration table: {missing}"

"""What a newcomer's clean clone runs: the Dockerfile's engine stage and the make targets' order.

No Docker engine runs here, so the engine stage's file layout is rebuilt from its COPY lines and
the build script is loaded from it: every input the script reads must be there.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def _engine_stage() -> list[str]:
    lines = (ROOT / "Dockerfile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(r"FROM \S+ AS engine\b", line))
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("FROM ")), len(lines))
    return lines[start:end]


def _layout(stage: list[str], into: Path) -> None:
    """The files the stage's COPY instructions put under its WORKDIR, from this checkout."""
    for line in stage:
        if not line.startswith("COPY ") or "--from" in line:
            continue
        *sources, dest = line.split()[1:]
        for source in sources:
            src = ROOT / source
            target = into / dest / src.name if dest.endswith("/") or len(sources) > 1 else into / dest
            target.parent.mkdir(parents=True, exist_ok=True)
            if src.is_dir():
                shutil.copytree(src, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy2(src, target)


def test_the_engine_stage_copies_every_file_the_engine_build_reads(tmp_path: Path) -> None:
    stage = _engine_stage()
    _layout(stage, tmp_path)
    run = next(line for line in stage if line.startswith("RUN python "))
    script = tmp_path / run.split()[2]
    assert script.is_file(), f"the stage runs {run.split()[2]} but does not copy it"

    spec = importlib.util.spec_from_file_location("build_engine_in_image", script)
    assert spec is not None and spec.loader is not None
    build = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(build)
    assert tmp_path == build.ROOT
    inputs = {
        name: value
        for name, value in vars(build).items()
        if isinstance(value, Path)
        and value.is_relative_to(tmp_path)
        and not value.is_relative_to(tmp_path / "build")
    }
    assert {"PKG", "MYPY_CONFIG"} <= set(inputs)
    missing = {name: str(path.relative_to(tmp_path)) for name, path in inputs.items() if not path.exists()}
    assert not missing, f"the Dockerfile's engine stage does not copy {missing}"
    assert build.compiled_sources(), "no engine source in the stage"


def _dry_run(target: str) -> list[str]:
    """The commands `make TARGET` runs, in order (make's dry run: nothing is executed, the
    recursive make of the build and lint stage is dry-run too)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    done = subprocess.run(
        ["make", "--no-print-directory", "-n", target],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout.splitlines()


def _first(lines: list[str], needle: str) -> int:
    return next(i for i, line in enumerate(lines) if needle in line)


def test_make_test_checks_the_services_before_the_lint_and_the_engine_build() -> None:
    run = _dry_run("test")
    services = _first(run, "scripts/check-services.py")
    assert services < _first(run, "scripts/build_engine.py")
    assert services < _first(run, "ruff check")
    # the engine tests on the pure-Python source, the JS unit tests, then the whole suite on the
    # compiled engine, last, in two workers with their own services
    assert "FUBA_ENGINE=pure" in run[_first(run, "tests/engine")]
    assert services < _first(run, "node --test tests/js")
    suite = run[-1]
    assert "FUBA_ENGINE=native" in suite and "-m pytest" in suite
    assert "-p tests.parallel_services" in suite and "-n 2" in suite
    assert _first(run, "collectstatic") < len(run) - 1


def test_make_bench_has_var_and_the_static_files() -> None:
    run = _dry_run("bench")
    assert _first(run, "mkdir -p var") < _first(run, "bench/run.py")
    assert _first(run, "collectstatic") < _first(run, "bench/run.py")

"""The mypyc build of the engine (scripts/build_engine.py) and how it is loaded.

`make test` runs the suite with FUBA_ENGINE=native, so a missing or stale build
fails the run instead of the suite quietly testing the pure-Python engine."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import rules_engine

ROOT = Path(__file__).resolve().parents[2]
PROBE = (
    "import rules_engine, rules_engine.flow as f, rules_engine.coaches.heuristic as h; "
    "print(rules_engine.NATIVE, f.__file__.endswith('.py'), h.__file__.endswith('.py'))"
)


def _run(cwd: Path, mode: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "FUBA_ENGINE": mode}
    return subprocess.run(
        [sys.executable, "-W", "always", "-c", PROBE],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )


def test_the_suite_runs_on_the_engine_it_asked_for() -> None:
    mode = os.environ.get("FUBA_ENGINE", "auto")
    if mode == "native":
        assert rules_engine.NATIVE
    elif mode == "pure":
        assert not rules_engine.NATIVE


def _build_is_current() -> bool:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return rules_engine._build_is_current()


needs_build = pytest.mark.skipif(
    not _build_is_current(), reason="no current build/engine (run `make engine`)"
)


@needs_build
@pytest.mark.parametrize("edited", ["flow.py", "coaches/heuristic.py"])
def test_a_stale_build_is_not_used(tmp_path: Path, edited: str) -> None:
    shutil.copytree(
        ROOT / "rules_engine", tmp_path / "rules_engine", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(ROOT / "build" / "engine", tmp_path / "build" / "engine")
    fresh = _run(tmp_path, "auto")
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout.split() == ["True", "False", "False"]  # compiled modules (subpackage too) in use

    source = tmp_path / "rules_engine" / edited  # a subpackage's file counts like a top-level one
    source.write_text(source.read_text() + "\n# edited after the build\n")
    stale = _run(tmp_path, "auto")
    assert stale.returncode == 0, stale.stderr
    assert stale.stdout.split() == ["False", "True", "True"]  # the edited source runs
    assert "make engine" in stale.stderr

    refused = _run(tmp_path, "native")
    assert refused.returncode != 0 and "stale" in refused.stderr


@needs_build
def test_a_build_that_does_not_load_is_not_used(tmp_path: Path) -> None:
    shutil.copytree(
        ROOT / "rules_engine", tmp_path / "rules_engine", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(ROOT / "build" / "engine", tmp_path / "build" / "engine")
    for lib in (tmp_path / "build" / "engine").glob("rules_engine_native__mypyc.*"):
        lib.write_bytes(b"not a shared library")  # e.g. built on another machine
    broken = _run(tmp_path, "auto")
    assert broken.returncode == 0, broken.stderr
    assert broken.stdout.split() == ["False", "True", "True"] and "does not load" in broken.stderr
    assert _run(tmp_path, "native").returncode != 0


@needs_build
def test_pure_mode_ignores_the_build(tmp_path: Path) -> None:
    out = _run(ROOT, "pure")
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False", "True", "True"]


def test_a_wrong_mode_is_refused() -> None:
    out = _run(ROOT, "fast")
    assert out.returncode != 0 and "FUBA_ENGINE must be auto, pure or native" in out.stderr


DIFF_PROBE = """
import json, sys
from rules_engine.simulate import SimulationOptions, TeamSetup, simulate_match
from rules_engine.validator import validate_log
home = TeamSetup("Blues", "4-4-2", (("attacking_midfielders", 1),), ("runner", "tackler", "great_condition"))
away = TeamSetup("Yellows", "3-5-2", skills=("catenaccio", "crossing", "fiery_coach"))
out = []
for seed in range(int(sys.argv[1])):
    log = simulate_match(home, away, SimulationOptions(advanced_rules="all"), seed)
    out.append({"log": log, "result": validate_log(json.dumps(log)).to_dict()})
print(json.dumps(out, sort_keys=True))
"""


@needs_build
def test_compiled_and_plain_engines_play_and_judge_the_same_matches() -> None:
    # Same seeds, same coaches: the two builds must produce identical logs and results,
    # event for event (a compiled-code difference would show up here first).
    outputs = []
    for mode in ("native", "pure"):
        env = {**os.environ, "FUBA_ENGINE": mode}
        run = subprocess.run(
            [sys.executable, "-c", DIFF_PROBE, "12"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        assert run.returncode == 0, run.stderr
        outputs.append(run.stdout)
    assert outputs[0] == outputs[1]
    assert len(outputs[0]) > 100_000  # twelve whole matches, not an empty list

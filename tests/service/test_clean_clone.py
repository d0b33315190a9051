"""What a newcomer's clean clone runs: the Dockerfile's engine stage and the make targets' order.

No Docker engine runs here, so the engine stage's file layout is rebuilt from its COPY lines and
the build script is loaded from it: every input the script reads must be there.
"""

from __future__ import annotations

import importlib.util
import re
import shutil
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


def test_make_test_checks_the_services_before_the_lint_and_the_engine_build() -> None:
    makefile = (ROOT / "Makefile").read_text()
    test = re.search(r"^test: (.+)\n((\t.*\n)+)", makefile, re.M)
    assert test is not None
    # the prerequisites run before the recipe; the recipe's first line builds and lints, two at a time
    assert "check-services" in test.group(1).split() and "lint" not in test.group(1).split()
    recipe = test.group(2).splitlines()
    assert {"engine", "lint", "web-engine", "test-pure"} <= set(recipe[0].split())
    assert "-p tests.parallel_services" in recipe[-1] and "--dist load" in recipe[-1]
    assert "scripts/check-services.py" in re.search(r"^check-services:.*\n(\t.*\n)+", makefile, re.M).group(0)


def test_make_bench_has_var_and_the_static_files() -> None:
    bench = re.search(r"^bench: .*\n((\t.*\n)+)", (ROOT / "Makefile").read_text(), re.M)
    assert bench is not None
    recipe = bench.group(1)
    assert "mkdir -p var" in recipe and "collectstatic" in recipe
    assert recipe.index("collectstatic") < recipe.index("bench/run.py")

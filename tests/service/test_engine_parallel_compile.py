"""The engine's C files compile side by side, each shown as it starts (scripts/build_engine.py)."""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path
from typing import Any

import pytest
from setuptools._distutils.ccompiler import new_compiler
from setuptools._distutils.errors import CompileError

ROOT = Path(__file__).resolve().parent.parent.parent


def _script() -> Any:
    spec = importlib.util.spec_from_file_location(
        "build_engine_parallel", ROOT / "scripts" / "build_engine.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _sources(tmp_path: Path, n: int) -> list[str]:
    names = []
    for i in range(n):
        (tmp_path / f"m{i}.c").write_text("int x;\n")
        names.append(str(tmp_path / f"m{i}.c"))
    return names


def test_two_c_files_compile_at_the_same_time_with_progress(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    compiler = new_compiler()
    both_running = threading.Barrier(2)  # only passes when two compiles are in flight together
    compiled = []

    def fake_gcc(obj: str, src: str, *args: Any) -> None:
        both_running.wait(timeout=60)
        compiled.append(Path(src).name)

    compiler._compile = fake_gcc
    _script().parallel_compile(compiler, 2)
    objects = compiler.compile(_sources(tmp_path, 2), output_dir=str(tmp_path / "o"))
    assert sorted(compiled) == ["m0.c", "m1.c"] and len(objects) == 2
    shown = capsys.readouterr().out
    assert "[1/2] gcc m" in shown and "[2/2] gcc m" in shown


def test_a_failing_c_file_stops_the_build(tmp_path: Path) -> None:
    compiler = new_compiler()

    def fake_gcc(obj: str, src: str, *args: Any) -> None:
        if src.endswith("m1.c"):
            raise CompileError("m1.c: error: expected ';'")

    compiler._compile = fake_gcc
    _script().parallel_compile(compiler, 2)
    with pytest.raises(CompileError, match=r"m1\.c"):
        compiler.compile(_sources(tmp_path, 3), output_dir=str(tmp_path / "o"))


def test_the_number_of_parallel_compiles_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    build = _script()
    monkeypatch.setenv("FUBA_ENGINE_JOBS", "3")
    assert build.compile_jobs() == 3
    monkeypatch.setenv("FUBA_ENGINE_JOBS", "zero")
    assert build.compile_jobs() >= 1


def test_the_largest_c_files_start_first(tmp_path: Path) -> None:
    """mypyc's files range from a few KB to over 1 MB: a big one started last would compile alone."""
    compiler = new_compiler()
    started = []
    sizes = {"small.c": 10, "big.c": 5000, "middle.c": 500}
    for name, size in sizes.items():
        (tmp_path / name).write_text("int x;\n" + "/* pad */\n" * size)
    compiler._compile = lambda obj, src, *args: started.append(Path(src).name)
    _script().parallel_compile(compiler, 1)
    compiler.compile([str(tmp_path / name) for name in sizes], output_dir=str(tmp_path / "o"))
    assert started == ["big.c", "middle.c", "small.c"]

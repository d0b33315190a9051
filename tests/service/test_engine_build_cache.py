"""The engine build cache (scripts/build_engine.py): a checkout with the same sources and toolchain
copies a stored build; anything else that the output depends on gives another key."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent


def _script():
    spec = importlib.util.spec_from_file_location(
        "build_engine_for_cache", ROOT / "scripts" / "build_engine.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _fake_build(out: Path, text: str) -> None:
    (out / "rules_engine").mkdir(parents=True)
    (out / "rules_engine" / "api.so").write_text(text)
    (out / "SOURCES").write_text("digest  api.py\n")


def test_a_stored_build_is_copied_and_a_missing_one_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    build = _script()
    monkeypatch.setattr(build, "OUT", tmp_path / "checkout" / "build" / "engine")
    cache = tmp_path / "cache"
    _fake_build(build.OUT, "compiled once")
    build.to_cache(cache, "k1")
    shutil.rmtree(tmp_path / "checkout")

    assert not build.from_cache(cache, "k2")
    assert not build.OUT.exists()
    assert not build.from_cache(None, "k1")
    assert build.from_cache(cache, "k1")
    assert (build.OUT / "rules_engine" / "api.so").read_text() == "compiled once"
    assert [p.name for p in cache.iterdir()] == ["k1"]  # nothing half-written left beside it


def test_the_cache_keeps_the_last_builds_only(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    build = _script()
    monkeypatch.setattr(build, "OUT", tmp_path / "engine")
    _fake_build(build.OUT, "x")
    for n in range(build.CACHE_KEEP + 2):
        build.to_cache(tmp_path / "cache", f"k{n}")
    kept = {p.name for p in (tmp_path / "cache").iterdir()}
    assert len(kept) == build.CACHE_KEEP and f"k{build.CACHE_KEEP + 1}" in kept


def test_the_key_follows_the_sources_the_toolchain_and_the_flags(monkeypatch: pytest.MonkeyPatch) -> None:
    build = _script()
    cc = shutil.which("gcc") or shutil.which("cc")
    if cc is None:
        pytest.skip("no C compiler")
    monkeypatch.delenv("MYPYC_OPT_LEVEL", raising=False)
    monkeypatch.delenv("CFLAGS", raising=False)
    key = build.cache_key("config", cc)
    assert build.cache_key("config", cc) == key
    assert build.cache_key("another config", cc) != key
    monkeypatch.setattr(build, "manifest", lambda: "edited  api.py\n")
    assert build.cache_key("config", cc) != key
    monkeypatch.undo()
    monkeypatch.setenv("MYPYC_OPT_LEVEL", "1")
    assert build.cache_key("config", cc) != key
    monkeypatch.delenv("MYPYC_OPT_LEVEL")
    monkeypatch.setenv("CFLAGS", "-O0")
    assert build.cache_key("config", cc) != key


def test_off_turns_the_cache_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    build = _script()
    monkeypatch.setenv("FUBA_ENGINE_CACHE", "off")
    assert build.cache_root() is None
    monkeypatch.setenv("FUBA_ENGINE_CACHE", str(tmp_path))
    assert build.cache_root() == tmp_path


def test_a_source_edited_while_compiling_leaves_the_build_stale(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The manifest is read before mypyc reads the sources: a build that took minutes while a file
    was edited must not be labelled with the edited file's digest (it would load as current)."""
    import mypyc.build
    import setuptools

    build = _script()
    if shutil.which("gcc") is None:
        pytest.skip("no C compiler")
    out = ROOT / "build" / f"engine-test-{tmp_path.name}"  # (the script names it relative to ROOT)
    monkeypatch.setattr(build, "OUT", out)
    monkeypatch.setenv("FUBA_ENGINE_CACHE", "off")
    monkeypatch.setenv("CC", "gcc")
    monkeypatch.chdir(ROOT)
    before = build.manifest()

    def compile_while_editing(**_: object) -> None:
        build.OUT.mkdir(parents=True)
        monkeypatch.setattr(build, "manifest", lambda: "edited during the build  api.py\n")

    monkeypatch.setattr(mypyc.build, "mypycify", lambda *a, **k: [])
    monkeypatch.setattr(setuptools, "setup", compile_while_editing)
    try:
        assert build.main() == 0
        assert (out / "SOURCES").read_text() == before
    finally:
        shutil.rmtree(out, ignore_errors=True)

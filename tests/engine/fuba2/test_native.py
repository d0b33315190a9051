"""The mypyc build (scripts/build_engine.py) compiles rulebook 2.0's package with the rest of
the engine: with FUBA_ENGINE=native every module of ``rules_engine.fuba2`` is a compiled one."""

from __future__ import annotations

import importlib
import pkgutil

import pytest

import rules_engine
import rules_engine.fuba2


@pytest.mark.skipif(not rules_engine.NATIVE, reason="the plain-Python engine (FUBA_ENGINE=pure or no build)")
def test_the_compiled_build_includes_every_fuba2_module() -> None:
    names = [m.name for m in pkgutil.iter_modules(rules_engine.fuba2.__path__)]
    assert {"flow", "actions", "restarts", "moveseq", "turnstate", "ball", "goal"} <= set(names)
    for name in names:
        module = importlib.import_module(f"rules_engine.fuba2.{name}")
        assert module.__file__ is not None and not module.__file__.endswith(".py"), module.__file__

"""FUBA rulebook 3 rules engine: plain Python, no Django import.

When ``make engine`` has compiled the engine with mypyc (``build/engine``,
see ``scripts/build_engine.py``) and that build matches the sources here
byte for byte, the compiled modules are put in front of this package's own
``.py`` files.  Otherwise, or with ``FUBA_ENGINE=pure``, the engine runs as
plain Python; both behave the same (the test suite runs on the build).
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import importlib.util
import os
import sys
import warnings
from pathlib import Path

_HERE = Path(__file__).resolve().parent
_BUILD = _HERE.parent / "build" / "engine"
_GROUP = "rules_engine_native__mypyc"

NATIVE = False  # True when the compiled engine is in use


def _build_is_current() -> bool:
    manifest = _BUILD / "SOURCES"
    if not manifest.is_file():
        return False
    want = {}
    for line in manifest.read_text().splitlines():
        digest, _, name = line.partition("  ")
        want[name] = digest
    # every source, subpackages included, named by its path inside the package
    have = {
        p.relative_to(_HERE).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in _HERE.rglob("*.py")
    }
    if have != want:
        warnings.warn(
            "build/engine was compiled from other rules_engine sources; running the pure-Python "
            "engine (run `make engine` to rebuild)",
            RuntimeWarning,
            stacklevel=3,
        )
        return False
    return True


def _use_native() -> bool:
    mode = os.environ.get("FUBA_ENGINE", "auto")
    if mode not in ("auto", "pure", "native"):
        raise RuntimeError(f"FUBA_ENGINE must be auto, pure or native, not {mode!r}")
    if mode == "pure":
        return False
    if not _build_is_current():
        if mode == "native":
            raise RuntimeError("FUBA_ENGINE=native but build/engine is missing or stale: run `make engine`")
        return False
    # only a library built for this interpreter (another Python's build is not loadable)
    libs = [_BUILD / (_GROUP + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES]
    lib_path = next((p for p in libs if p.is_file()), None)
    if lib_path is None:
        if mode == "native":
            raise RuntimeError(
                "FUBA_ENGINE=native but build/engine is not built for this Python: run `make engine`"
            )
        return False
    # the compiled modules import their shared library by this top-level name
    spec = importlib.util.spec_from_file_location(_GROUP, lib_path)
    if spec is None or spec.loader is None:
        return False
    try:  # (an extension module is loaded by module_from_spec already)
        lib = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(lib)
    except ImportError as e:
        if mode == "native":
            raise
        warnings.warn(
            f"build/engine does not load ({e}); running the pure-Python engine", RuntimeWarning, stacklevel=3
        )
        return False
    sys.modules[_GROUP] = lib
    __path__.insert(0, str(_BUILD / "rules_engine"))
    return True


NATIVE = _use_native()

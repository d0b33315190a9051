"""FUBA rulebook 3 rules engine: plain Python, no Django import.

Use it through ``rules_engine.api`` (validation, replay, simulation, coaches,
results, errors, log events); the modules below are its implementation.

Modules, top to bottom (each imports only from the ones below it; the
import-linter contract ``engine-layers`` in ``.importlinter`` checks this):
``api``; ``simulate``, ``validator``, ``autoplay``, ``snapshot`` (what the
pages draw of a match), ``pitch_input`` (what a tap on the pitch may answer),
``tie`` (the answers a knockout tie leaves at the extra-time question, I-38); ``coaches/`` (AI
coaches); ``machine`` (``Match``: ``pending()`` / ``apply(event)``);
``flow`` (halves, turns, stages 1-3), ``logformat`` (fuba-log/1), ``result``
(``MatchResult``); ``actions`` (the action stage, 4.3-4.7);  ``setpieces``
(3.3, 5.x), ``skill_hooks`` (A11 steps of the flow), ``special_events``
(A13); ``moves`` (single player moves), ``clock`` (4.2.1, A8),
``substitutions`` (A3, 2.2), ``skills`` (A11 catalogue and offers),
``weather`` (A9); ``cards`` (cards 5.6 and injuries A4); ``rules`` (pure
rule computations); ``condition`` (condition points A1); ``context``
(``MatchContext``: what a rule module sees of a match); ``state``, ``rng``,
``areas`` (the names of the areas people read); ``board``, ``events``,
``errors``, ``decisions`` (every decision name).

``fuba2/`` plays FUBA rulebook 2.0 (ruleset ``fuba-2``): its turn flow and its
rules, in a layer of its own under ``flow``; FUBA 3's rule modules and it never
import each other.  ``machine`` plays the flow the header's ruleset names
(``machine.FLOWS``; docs/fuba2-engine.md).

Glossary (names used throughout the engine):

- ``m``: the match as a rule module sees it (``context.MatchContext``).
- ``st``: the match state (``state.MatchState``); ``ts``: one team's state
  (``state.TeamState``); ``f`` or ``st.flags``: the current turn's flags.
- ``ct`` / ``dt``: the controlling team (has the ball) / the defending team,
  as team indexes 0 (home) and 1 (away).
- ``cp``: condition points (advanced rule A1), per zone (defence, midfield,
  forward, ``board.ZONE_NAMES``); ``free_cp``: the free point of a terrace chant.
- ``v`` / ``st.value``: the ball value (4.1.2); ``a``, ``b``: the two
  situation dice of stage 2.
- ``area``: an index into ``board.NAMES`` (13 areas and 4 corner-kick spots);
  ``zone``: 0 defence, 1 midfield, 2 forward, seen from the team.
- ``GK``: the goalkeeper; ``sl``: the second-last defender's area (offside).
- ``A1``-``A13``: the advanced rules of rulebook 3; ``I-n``: interpretation n
  in ``docs/rules-interpretations.md``; other numbers are rulebook chapters.
- ``B``: the ``board`` module; ``D``: the ``decisions`` module.
- Decision / roll: the two kinds of log event (``events``); ``Pending``: the
  request for the next one.

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

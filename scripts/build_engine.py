"""Compile the rules engine with mypyc into ``build/engine/`` (``make engine``).

The engine is plain, fully typed Python (``mypy --strict``); mypyc turns the
same source into C extension modules, which replay and simulate matches about
three times faster.  The compiled modules are kept out of the source tree:
``rules_engine/__init__.py`` puts them in front of the package's own modules
only while they were built from exactly the sources that are there now (a
``SOURCES`` manifest of SHA-256 digests), so an edited ``.py`` file is never
shadowed by a stale build.  ``FUBA_ENGINE=pure`` runs the pure-Python engine.

Every ``.py`` file of the package and its subpackages (``coaches/``) is
compiled, except ``rules_engine/__init__.py`` (it loads the build) and
``errors`` (exception classes: mypyc does not keep the ``kind`` class
attribute their subclasses override; errors are rare, so nothing is lost).
The ``SOURCES`` manifest names files by their path inside the package, so an
edited, added or removed file in a subpackage makes the build stale too.

mypyc checks annotations at run time, so an annotation that lies fails here
and not in plain Python: keep them exact.  Two mypyc limits shape the source:
an attribute narrowed by a test stays narrowed across a ``yield``, so state
that the flow changes is read again through a function (``flow._play_goes_on``),
and ``reversed()`` over a union-typed list does not compile (``logformat``).

Run: ``.venv/bin/python scripts/build_engine.py``; ``MYPYC_OPT_LEVEL`` (0-3,
default 3) trades compile time for speed.

mypyc writes one C file per module (``multi_file``), not one 40 MB file: gcc's time grows faster
than a translation unit's size, and the files are compiled on every core (``FUBA_ENGINE_JOBS``,
default the CPU count), largest first, each printed as it starts, so a long compile shows its progress.

The C compile still takes minutes on a busy machine, so a finished build is also kept outside the
checkout, like ccache, in ``~/.cache/fuba-engine/<key>`` (``FUBA_ENGINE_CACHE`` names another
folder; ``off`` turns it off).  The key digests everything the output depends on: the sources'
manifest, this script and its mypy settings, the interpreter, the C compiler's and mypyc's
versions, the optimisation level and ``CFLAGS``.  A checkout whose key is in the cache copies
that build instead of compiling; with no such entry the build runs as before and is stored.
The last ``CACHE_KEEP`` builds are kept.
"""

from __future__ import annotations

import hashlib
import importlib.machinery
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "rules_engine"
OUT = ROOT / "build" / "engine"
MYPY_CONFIG = ROOT / "scripts" / "mypyc-engine.ini"
GROUP = "rules_engine_native"
PURE_PYTHON = {"__init__.py", "errors.py"}  # paths inside the package
CACHE_KEEP = 4


def engine_sources() -> list[Path]:
    """Every Python source of the engine, subpackages included."""
    return sorted(PKG.rglob("*.py"))


def compiled_sources() -> list[Path]:
    return [p for p in engine_sources() if p.relative_to(PKG).as_posix() not in PURE_PYTHON]


def manifest() -> str:
    """One line per engine source (compiled or not): its digest and its path inside the package."""
    lines = []
    for p in engine_sources():
        lines.append(f"{hashlib.sha256(p.read_bytes()).hexdigest()}  {p.relative_to(PKG).as_posix()}")
    return "\n".join(lines) + "\n"


def cache_root() -> Path | None:
    """Where finished builds are kept between checkouts (None: no cache)."""
    chosen = os.environ.get("FUBA_ENGINE_CACHE")
    if chosen == "off":
        return None
    if chosen:
        return Path(chosen)
    return Path.home() / ".cache" / "fuba-engine"


def cache_key(config: str, cc: str, sources: str | None = None) -> str:
    """Digest of every input of the compiled output (see the module docstring); ``sources``: the
    manifest read before compiling (default: read now)."""
    from mypy.version import __version__ as mypy_version

    compiler = subprocess.run([cc, "--version"], capture_output=True, text=True, check=True).stdout
    opt = os.environ.get("MYPYC_OPT_LEVEL", "3")
    inputs = [
        config,
        manifest() if sources is None else sources,
        compiler,
        mypy_version,
        opt,
        os.environ.get("CFLAGS", ""),
    ]
    return hashlib.sha256("\0".join(inputs).encode()).hexdigest()[:32]


def from_cache(root: Path | None, key: str) -> bool:
    """Copy a cached build of this key into build/engine; False when there is none."""
    entry = root / key if root else None
    if entry is None or not (entry / "SOURCES").is_file():
        return False
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=OUT.parent, prefix="engine-from-cache-"))
    shutil.copytree(entry, tmp, dirs_exist_ok=True)
    tmp.rename(OUT)
    entry.touch()  # most recently used: kept longest
    return True


def to_cache(root: Path | None, key: str) -> None:
    """Store build/engine under its key (written aside, then renamed: a reader never sees half)."""
    if root is None:
        return
    try:
        root.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=root, prefix=".incoming-"))
        shutil.copytree(OUT, tmp, dirs_exist_ok=True)
        try:
            tmp.rename(root / key)
        except OSError:  # another checkout stored the same key first
            shutil.rmtree(tmp, ignore_errors=True)
        entries = sorted((p for p in root.iterdir() if not p.name.startswith(".")), key=os.path.getmtime)
        for old in entries[:-CACHE_KEEP]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError as exc:  # a cache that cannot be written costs the next build its time only
        print(f"engine build cache not written ({exc})", file=sys.stderr)


def compile_jobs() -> int:
    chosen = os.environ.get("FUBA_ENGINE_JOBS", "")
    return int(chosen) if chosen.isdigit() and int(chosen) > 0 else os.cpu_count() or 1


def parallel_compile(compiler: Any, jobs: int) -> None:
    """Make ``compiler`` compile an extension's C files on ``jobs`` threads (gcc runs as processes),
    printing ``[n/total] file`` as each starts (setuptools compiles them one by one, silently)."""
    serial = compiler._compile
    lock = threading.Lock()
    done = [0]

    def compile_one(total: int, obj: str, src: str, *args: Any) -> None:
        with lock:
            done[0] += 1
            print(f"  [{done[0]}/{total}] gcc {Path(src).name}", flush=True)
        serial(obj, src, *args)

    def compile_all(
        sources: list[str],
        output_dir: str | None = None,
        macros: Any = None,
        include_dirs: Any = None,
        debug: bool = False,
        extra_preargs: Any = None,
        extra_postargs: Any = None,
        depends: Any = None,
    ) -> list[str]:
        _, objects, extra, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        # largest first: the longest compiles start at once and the small ones fill the cores at the
        # end, instead of one big file started last running alone while the other cores idle
        todo = sorted(
            ((obj, *build[obj]) for obj in objects if obj in build),
            key=lambda job: Path(job[1]).stat().st_size,
            reverse=True,
        )
        done[0] = 0
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for future in [
                pool.submit(compile_one, len(todo), obj, src, ext, cc_args, extra, pp_opts)
                for obj, src, ext in todo
            ]:
                future.result()  # a failed gcc stops the build with its error
        return objects

    compiler.compile = compile_all


def main() -> int:
    from mypyc.build import mypycify
    from setuptools import setup
    from setuptools.command.build_ext import build_ext

    jobs = compile_jobs()

    class ParallelBuildExt(build_ext):  # type: ignore[misc]
        def build_extensions(self) -> None:
            parallel_compile(self.compiler, jobs)
            super().build_extensions()

    os.chdir(ROOT)
    mods = [str(p.relative_to(ROOT)) for p in compiled_sources()]
    # what was compiled, by which build script, for which interpreter
    script = hashlib.sha256(Path(__file__).read_bytes() + MYPY_CONFIG.read_bytes()).hexdigest()
    config = "\n".join([*mods, script, sys.version, importlib.machinery.EXTENSION_SUFFIXES[0]]) + "\n"
    # the sources as they are now, before mypyc reads them: a file edited during the minutes of a
    # build must leave the build stale, not labelled with the edited file's digest
    sources = manifest()
    up_to_date = all((OUT / f).is_file() for f in ("SOURCES", "CONFIG"))
    if up_to_date and (OUT / "SOURCES").read_text() == sources and (OUT / "CONFIG").read_text() == config:
        print("build/engine is up to date")
        return 0
    cc = os.environ.get("CC", "gcc").split()[0]
    if shutil.which(cc) is None:
        print(
            f"cannot compile the engine: no C compiler ({cc}) on PATH; install gcc and the Python "
            "headers (Debian: apt-get install gcc python3-dev), or run the plain-Python engine",
            file=sys.stderr,
        )
        return 1
    root, key = cache_root(), cache_key(config, cc, sources)
    if from_cache(root, key):
        print(f"build/engine copied from the build cache ({root / key})")
        return 0
    shutil.rmtree(OUT, ignore_errors=True)
    tmp = ROOT / "build" / "engine-tmp"
    print(
        f"compiling the engine with mypyc, C on {jobs} cores (a few minutes; FUBA_ENGINE_CACHE keeps builds)"
    )
    setup(
        name="fuba-engine-native",
        packages=[],
        py_modules=[],
        ext_modules=mypycify(
            ["--config-file", str(MYPY_CONFIG), *mods],
            opt_level=os.environ.get("MYPYC_OPT_LEVEL", "3"),
            group_name=GROUP,
            multi_file=True,
        ),
        cmdclass={"build_ext": ParallelBuildExt},
        script_args=["--quiet", "build_ext", "--build-lib", str(OUT), "--build-temp", str(tmp)],
    )
    (OUT / "CONFIG").write_text(config)
    (OUT / "SOURCES").write_text(sources)
    to_cache(root, key)
    print(f"compiled {len(mods)} engine modules into {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

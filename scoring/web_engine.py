"""The rules engine packaged for the phone: the same sources the server runs, zipped with a digest.

``manage.py build_engine_bundle`` (run by ``make run``/``make test`` through the Makefile's
``web-engine`` target) writes ``build/web-engine/engine-<digest>.zip`` and ``engine.json``. The
scorer's Web Worker unpacks the zip into Pyodide and imports ``matchplay.scorer_local``. The digest
covers every packaged file (path and bytes), so any edit gives a new URL: the service worker
caches bundles by URL, and a phone holding an older engine fetches the new one before it scores.

The server offers a bundle only when the one built is the one of its own sources (checked once
per process); otherwise the scorer page runs in the server-driven mode, as when the engine cannot
start on the phone.
"""

from __future__ import annotations

import ast
import hashlib
import io
import json
import logging
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "build" / "web-engine"
MANIFEST = "engine.json"
# The module the worker imports; the bundle holds the engine whole and the league modules this one
# imports, directly or not (league_files).
ENTRY_MODULE = "matchplay.scorer_local"
ENGINE_PACKAGE = "rules_engine"
# The standard library the worker loads instead of Pyodide's (docs/scorer-internals.md, "The
# local engine"): precompiled and trimmed to what is used, by Pyodide itself under Node.
STDLIB_SCRIPT = ROOT / "scripts" / "pyodide-stdlib.mjs"
PYODIDE_PACKAGE = ROOT / "node_modules" / "pyodide" / "package.json"
logger = logging.getLogger(__name__)
# Zip entries get one fixed timestamp so the same sources always give the same bytes.
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)


class BundleError(Exception):
    """A module the phone's engine would import cannot run there (no Django, no site-packages)."""


def _module_file(root: Path, module: str) -> Path | None:
    """The file of a module of this checkout (a package's ``__init__.py``), or None."""
    base = root.joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _imports(path: Path, module: str) -> Iterator[tuple[str, int]]:
    """What a module imports, anywhere in it (a function's own imports too), by absolute name:
    for ``from a import b`` both ``a`` and ``a.b`` (b may be a module); with the line."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            yield from ((alias.name, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*up, *([base] if base else [])])
            yield base, node.lineno
            yield from ((f"{base}.{alias.name}", node.lineno) for alias in node.names if alias.name != "*")


def league_files(root: Path = ROOT, entry: str = ENTRY_MODULE) -> list[str]:
    """The files of the modules outside the engine that ``entry`` imports, directly or not, with
    their packages' ``__init__.py``, relative to ``root``, sorted (the engine is packaged whole).
    Derived from the imports so that a new module of the scorer cannot be left out of the phone's
    bundle. A module that imports what is neither the standard library nor a module of this
    checkout (Django, a site package) is refused: the phone has none of it."""
    found: set[str] = set()
    todo = [(entry, f"the entry module {entry}")]
    while todo:
        name, wanted_by = todo.pop()
        top = name.split(".")[0]
        if top in sys.stdlib_module_names or top == ENGINE_PACKAGE:
            continue
        if _module_file(root, top) is None:
            raise BundleError(
                f"{wanted_by} imports {name}: neither the standard library nor a module of this checkout"
            )
        parts = name.split(".")
        for depth in range(1, len(parts) + 1):
            module = ".".join(parts[:depth])
            path = _module_file(root, module)
            if path is None:
                break  # a name the module above defines, not a module
            relative = path.relative_to(root).as_posix()
            if relative not in found:
                found.add(relative)
                todo.extend((imported, f"{relative}:{line}") for imported, line in _imports(path, module))
    return sorted(found)


def sources(root: Path = ROOT, league: list[str] | None = None) -> list[str]:
    """The packaged files, as paths relative to ``root``, sorted; ``league``: the league's files
    as a build listed them (default: found from the imports, league_files)."""
    engine = [
        p.relative_to(root).as_posix()
        for p in (root / ENGINE_PACKAGE).rglob("*")
        if p.is_file() and "__pycache__" not in p.parts and p.suffix in (".py", ".json")
    ]
    return sorted([*engine, *(league_files(root) if league is None else league)])


def digest(root: Path = ROOT, league: list[str] | None = None) -> str:
    """SHA-256 over every packaged file's path and bytes (``league`` as for sources)."""
    h = hashlib.sha256()
    for name in sources(root, league):
        data = (root / name).read_bytes()
        h.update(f"{name}\0{len(data)}\0".encode())
        h.update(data)
    return h.hexdigest()


def bundle_bytes(root: Path = ROOT, league: list[str] | None = None) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as zf:
        for name in sources(root, league):
            info = zipfile.ZipInfo(name, date_time=_ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, (root / name).read_bytes())
    return buf.getvalue()


def file_name(hexdigest: str) -> str:
    return f"engine-{hexdigest[:20]}.zip"


def build_stdlib(bundle: Path, hexdigest: str, out: Path = OUT) -> str | None:
    """The file name of the standard library built for this Pyodide, script and engine, built
    only when missing (about a minute of Node); None when it cannot be built here (no Node or no
    Pyodide package): the worker then loads Pyodide's own, from sources."""
    node = shutil.which("node")
    if node is None or not PYODIDE_PACKAGE.is_file():
        logger.warning("no node or pyodide package: the phone's engine loads Pyodide's own stdlib")
        return None
    h = hashlib.sha256(PYODIDE_PACKAGE.read_bytes() + STDLIB_SCRIPT.read_bytes() + hexdigest.encode())
    name = f"stdlib-{h.hexdigest()[:20]}.zip"
    for old in out.glob("stdlib-*.zip"):
        if old.name != name:
            old.unlink()
    if not (out / name).is_file() and (OUT / name).is_file():
        shutil.copyfile(OUT / name, out / name)  # built already for the app (tests build elsewhere)
    if not (out / name).is_file():
        partial = out / f"{name}.part"
        done = subprocess.run(
            [node, str(STDLIB_SCRIPT), str(bundle), str(partial)], cwd=ROOT, capture_output=True, check=False
        )
        if done.returncode != 0:
            why = done.stderr.decode(errors="replace")[-2000:]
            logger.warning("the phone's stdlib was not built: %s", why)
            partial.unlink(missing_ok=True)
            return None
        partial.rename(out / name)
    return name


def build(out: Path = OUT, root: Path = ROOT) -> dict[str, Any]:
    """Write the bundle, its standard library and its manifest into ``out`` (older ones are
    removed); the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    league = league_files(root)
    hexdigest = digest(root, league)
    name = file_name(hexdigest)
    for old in out.glob("engine-*.zip"):
        if old.name != name:
            old.unlink()
    data = bundle_bytes(root, league)
    (out / name).write_bytes(data)
    manifest = {
        "digest": hexdigest,
        "file": name,
        "bytes": len(data),
        "entry": ENTRY_MODULE,
        "league_files": league,
    }
    stdlib = build_stdlib(out / name, hexdigest, out)
    if stdlib is not None:
        manifest.update(stdlib=stdlib, stdlib_bytes=(out / stdlib).stat().st_size)
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n")
    return manifest


@lru_cache(maxsize=1)
def current(out: Path = OUT) -> dict[str, Any] | None:
    """The manifest of the bundle built from the sources this process runs, or None when none was
    built or it is stale (the page then scores in the server-driven mode)."""
    try:
        manifest = json.loads((out / MANIFEST).read_text())
    except (OSError, ValueError):
        return None
    # The league's files as the build listed them, not found again from the imports here: this
    # runs in a request, and CPython 3.11's ast.parse can fail in a server's thread with
    # "SystemError: AST constructor recursion depth mismatch" (python/cpython#106905, fixed in
    # 3.11.8/3.12.1). Nothing is missed so: a new import is an edit of a listed file, which
    # changes the digest, so the bundle reads as stale until it is built again.
    league = manifest.get("league_files") if isinstance(manifest, dict) else None
    if not isinstance(league, list) or not all(isinstance(f, str) for f in league):
        return None
    try:
        if manifest.get("digest") != digest(league=league):
            return None
    except OSError:  # a listed file is gone: stale
        return None
    if not (out / str(manifest.get("file"))).is_file():
        return None
    return manifest


def bundle_path(name: str, out: Path = OUT) -> Path | None:
    """The file of the current bundle, or of its standard library, if ``name`` names it."""
    manifest = current(out)
    if manifest is None or name not in (manifest["file"], manifest.get("stdlib")):
        return None
    return out / name

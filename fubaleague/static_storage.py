"""Static files as served in production: compressed, hashed names, and the ES module imports of
the pages' scripts (``import { x } from "./dom.js";`` in static/scoring/js/ and static/fubaleague/,
``"../../fubaleague/pitch.js"`` for the one pitch renderer) rewritten to the hashed names, so a
browser never mixes one deploy's module with another's.

Django's own rewriting of module imports (``support_js_module_import_aggregation``) scans every
JavaScript file and takes ``import sys ... from '/engine'`` inside a string of the engine worker
for an import; this pattern is narrower and applies to the pages' modules only.

Compressed once: whitenoise gzips (and with the ``Brotli`` package, brotli-compresses) every file
at each ``collectstatic``, about 13 s of a loaded 2-CPU machine for Pyodide's 30 MB, which every
container start, deploy and browser test run paid again. Here a file is compressed only when its
bytes (or the encodings on offer) changed since its compressed copies were written: the digest of
each compressed file's bytes and the copies made are kept in ``COMPRESSED_MANIFEST`` in
STATIC_ROOT, so a second ``collectstatic`` compresses nothing."""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Iterable, Iterator
from typing import Any

from django.conf import settings
from whitenoise.storage import CompressedManifestStaticFilesStorage

_RELATIVE_IMPORT = (
    r"""(?P<matched>import(?P<names>\s*\{[^}]*\})\s*from\s*"(?P<url>(?:\./|(?:\.\./)+)[\w./-]+\.js)"\s*;)""",
    """import%(names)s from "%(url)s";""",
)
COMPRESSED_MANIFEST = "staticfiles-compressed.json"
_CHUNK = 1 << 20


def file_digest(path: str) -> str:
    h = hashlib.blake2b(digest_size=16)
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        ("scoring/js/*.js", (_RELATIVE_IMPORT,)),
        ("fubaleague/*.js", (_RELATIVE_IMPORT,)),
        ("console/*.js", (_RELATIVE_IMPORT,)),
    )

    def _encodings(self) -> list[str]:
        compressor = self.create_compressor(quiet=True)
        return [name for name, used in (("gzip", compressor.use_gzip), ("br", compressor.use_brotli)) if used]

    def _read_compressed(self, encodings: list[str]) -> dict[str, Any]:
        try:
            with open(self.path(COMPRESSED_MANIFEST), encoding="utf-8") as f:
                kept = json.load(f)
        except (OSError, ValueError):
            return {}
        if not isinstance(kept, dict) or kept.get("encodings") != encodings:
            return {}
        files = kept.get("files")
        return files if isinstance(files, dict) else {}

    def _write_compressed(self, encodings: list[str], files: dict[str, Any]) -> None:
        target = self.path(COMPRESSED_MANIFEST)
        partial = f"{target}.part"
        with open(partial, "w", encoding="utf-8") as f:
            json.dump({"encodings": encodings, "files": files}, f, indent=0, sort_keys=True)
        os.replace(partial, target)

    def _is_current(self, name: str, entry: Any, digest: str) -> bool:
        if not isinstance(entry, dict) or entry.get("digest") != digest:
            return False
        copies = entry.get("copies")
        return isinstance(copies, list) and all(self.exists(str(copy)) for copy in copies)

    def compress_files(self, paths: Iterable[str]) -> Iterator[tuple[str, str]]:
        """whitenoise's compression of ``paths``, skipping each file whose compressed copies were
        made from its present bytes; files of the same bytes (a file and its hashed name) are
        compressed once and the copies copied. The manifest is rewritten with what is there now."""
        encodings = self._encodings()
        previous = self._read_compressed(encodings)
        extensions = getattr(settings, "WHITENOISE_SKIP_COMPRESS_EXTENSIONS", None)
        skip = self.create_compressor(extensions=extensions, quiet=True)
        files: dict[str, Any] = {}
        twins: dict[str, list[str]] = {}  # digest -> names to compress, the first compressed
        for name in sorted(set(paths)):
            if not skip.should_compress(name):
                continue
            digest = file_digest(self.path(name))
            if self._is_current(name, previous.get(name), digest):
                files[name] = previous[name]
            else:
                files[name] = {"digest": digest, "copies": []}
                twins.setdefault(digest, []).append(name)
        first = {names[0]: names[1:] for names in twins.values()}
        for name, compressed_name in super().compress_files(list(first)):
            suffix = compressed_name[len(name) :]
            for twin in (name, *first[name]):
                if twin != name:
                    shutil.copyfile(self.path(compressed_name), self.path(twin + suffix))
                files[twin]["copies"].append(twin + suffix)
                yield twin, twin + suffix
        self._write_compressed(encodings, files)

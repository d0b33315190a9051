"""Static files as served in production: compressed, hashed names, and the ES module imports of
the pages' scripts (``import { x } from "./dom.js";`` in static/scoring/js/ and static/fubaleague/,
``"../../fubaleague/pitch.js"`` for the one pitch renderer) rewritten to the hashed names, so a
browser never mixes one deploy's module with another's.

Django's own rewriting of module imports (``support_js_module_import_aggregation``) scans every
JavaScript file and takes ``import sys ... from '/engine'`` inside a string of the engine worker
for an import; this pattern is narrower and applies to the pages' modules only."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage

_RELATIVE_IMPORT = (
    r"""(?P<matched>import(?P<names>\s*\{[^}]*\})\s*from\s*"(?P<url>(?:\./|(?:\.\./)+)[\w./-]+\.js)"\s*;)""",
    """import%(names)s from "%(url)s";""",
)


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (
        *CompressedManifestStaticFilesStorage.patterns,
        ("scoring/js/*.js", (_RELATIVE_IMPORT,)),
        ("fubaleague/*.js", (_RELATIVE_IMPORT,)),
        ("console/*.js", (_RELATIVE_IMPORT,)),
    )

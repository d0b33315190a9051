"""Static files as served in production: compressed, hashed names, and ES module imports
rewritten to the hashed names (the scorer's page code is plain ES modules), so a browser never
mixes one deploy's module with another's."""

from __future__ import annotations

from whitenoise.storage import CompressedManifestStaticFilesStorage


class StaticFilesStorage(CompressedManifestStaticFilesStorage):
    support_js_module_import_aggregation = True

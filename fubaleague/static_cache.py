"""Which static files browsers may cache for a year (whitenoise's immutable-file test).

Files whose name carries their content hash (ManifestStaticFilesStorage's ``name.<12 hex>.ext``)
and Pyodide's files under their version's path (``pyodide/<version>/``: Pyodide loads them by
fixed names, so the version in the path is what changes their URL).
"""

from __future__ import annotations

import re

from django.conf import settings

_HASHED = re.compile(r"\.[0-9a-f]{12}\.[A-Za-z0-9]+$")


def immutable_file(path: str, url: str) -> bool:
    static = "/" + settings.STATIC_URL.strip("/") + "/"
    if not url.startswith(static):
        return False
    name = url[len(static) :]
    return name.startswith(settings.PYODIDE_STATIC_PREFIX + "/") or bool(_HASHED.search(name))

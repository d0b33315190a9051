"""Static files are compressed once per content, not at every collectstatic
(fubaleague/static_storage.py): a second collectstatic compresses nothing, an edited file is
compressed again (its new hashed name with it, in one compression) and a missing copy is made."""

from __future__ import annotations

import gzip
import json
import os
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from whitenoise.compress import Compressor

from fubaleague.static_storage import COMPRESSED_MANIFEST

SCRIPT = "export function f() { return 1; }\n" * 200
STYLE = "body { color: #123456; margin: 0 auto; }\n" * 200


@pytest.fixture
def compressed(settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files compressed by whitenoise (its Compressor.compress), in order, as names under
    STATIC_ROOT, with a source folder of a script and a style sheet and nothing else."""
    source = tmp_path / "src"
    (source / "app").mkdir(parents=True)
    (source / "app" / "main.js").write_text(SCRIPT)
    (source / "app" / "site.css").write_text(STYLE)
    settings.STATICFILES_DIRS = [source]
    settings.STATICFILES_FINDERS = ["django.contrib.staticfiles.finders.FileSystemFinder"]
    settings.STATIC_ROOT = tmp_path / "out"
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "fubaleague.static_storage.StaticFilesStorage"},
    }
    calls: list[str] = []
    real = Compressor.compress

    def compress(self: Compressor, path: str) -> list[str]:
        calls.append(Path(path).relative_to(settings.STATIC_ROOT).as_posix())
        return real(self, path)

    monkeypatch.setattr(Compressor, "compress", compress)
    return calls


def _collect() -> None:
    call_command("collectstatic", interactive=False, verbosity=0)


def _plain(names: list[str]) -> list[str]:
    """The source names of compressed files (a hashed name less its hash), sorted."""
    return sorted(re.sub(r"\.[0-9a-f]{12}(?=\.\w+$)", "", name) for name in names)


def _hashed(name: str) -> str:
    return staticfiles_storage.stored_name(name)


def _gzip_of(root: Path, name: str) -> str:
    return gzip.decompress((root / f"{name}.gz").read_bytes()).decode()


def test_a_second_collectstatic_compresses_nothing(compressed: list[str], settings) -> None:
    _collect()
    root = Path(settings.STATIC_ROOT)
    # a file and its hashed name hold the same bytes: one compression, both copies written
    assert _plain(compressed) == ["app/main.js", "app/site.css"]
    for name in ("app/main.js", "app/site.css"):
        assert _gzip_of(root, name) == _gzip_of(root, _hashed(name)) == (root / name).read_text()
    stamps = {p: p.stat().st_mtime_ns for p in root.rglob("*.gz")}
    assert len(stamps) == 4

    compressed.clear()
    _collect()
    assert compressed == []
    assert {p: p.stat().st_mtime_ns for p in root.rglob("*.gz")} == stamps
    kept = json.loads((root / COMPRESSED_MANIFEST).read_text())
    names = ["app/main.js", "app/site.css"]
    assert sorted(kept["files"]) == sorted([*names, *map(_hashed, names)])


def test_an_edited_file_is_compressed_again_with_its_new_hashed_name(compressed: list[str], settings) -> None:
    _collect()
    root = Path(settings.STATIC_ROOT)
    source = Path(settings.STATICFILES_DIRS[0])
    old = _hashed("app/main.js")
    edited = source / "app" / "main.js"
    edited.write_text(SCRIPT + "export const g = 2;\n")
    # collectstatic copies a file again when its source is newer by the second
    later = edited.stat().st_mtime + 5
    os.utime(edited, (later, later))
    compressed.clear()
    _collect()
    new = _hashed("app/main.js")
    assert new != old
    assert _plain(compressed) == ["app/main.js"]
    assert _gzip_of(root, "app/main.js") == _gzip_of(root, new) == SCRIPT + "export const g = 2;\n"


def test_a_missing_compressed_copy_is_made_again(compressed: list[str], settings) -> None:
    _collect()
    root = Path(settings.STATIC_ROOT)
    hashed = _hashed("app/site.css")
    (root / f"{hashed}.gz").unlink()
    compressed.clear()
    _collect()
    assert compressed == [hashed]
    assert _gzip_of(root, hashed) == STYLE


def test_a_manifest_for_other_encodings_compresses_everything(compressed: list[str], settings) -> None:
    _collect()
    root = Path(settings.STATIC_ROOT)
    kept = json.loads((root / COMPRESSED_MANIFEST).read_text())
    (root / COMPRESSED_MANIFEST).write_text(json.dumps({**kept, "encodings": ["gzip", "zstd"]}))
    compressed.clear()
    _collect()
    assert _plain(compressed) == ["app/main.js", "app/site.css"]

"""The pages' scripts are ES modules (one module style, no globals), and production's hashed
static files keep their imports pointing at the hashed names (fubaleague/static_storage.py)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from fubaleague.static_storage import StaticFilesStorage

ROOT = Path(__file__).resolve().parents[2]
MODULES = ("fubaleague/pitch.js", "fubaleague/replay.js", "scoring/js/board.js", "scoring/js/dom.js")
SCRIPT_TAG = re.compile(r"<script\b[^>]*\bsrc=[^>]*>", re.I)


def _templates() -> list[Path]:
    return list((ROOT / "templates").rglob("*.html"))


def test_every_page_script_is_loaded_as_a_module() -> None:
    tags = [(path, tag) for path in _templates() for tag in SCRIPT_TAG.findall(path.read_text())]
    assert len(tags) >= 4
    classic = [f"{path.relative_to(ROOT)}: {tag}" for path, tag in tags if 'type="module"' not in tag]
    assert not classic, classic


def test_no_page_script_sets_a_global() -> None:
    found = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "static").rglob("*.js")
        if re.search(r"\bwindow\.[A-Za-z_$][\w$]*\s*=(?!=)", path.read_text())
    ]
    assert not found, found


def test_hashed_modules_import_the_hashed_names_across_folders(tmp_path: Path) -> None:
    source = tmp_path / "src"
    for rel in MODULES:
        (source / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(ROOT / "static" / rel, source / rel)
    storage = StaticFilesStorage(location=str(tmp_path / "out"), base_url="/static/")
    for rel in MODULES:
        with (source / rel).open("rb") as f:
            storage.save(rel, f)
    paths = {rel: (storage, rel) for rel in MODULES}
    # whitenoise also yields the compressed copies (.gz, .br): the hashed name is the plain file's
    processed = {
        name: hashed
        for name, hashed, _ in storage.post_process(paths)
        if isinstance(hashed, str) and hashed.endswith(".js")
    }
    pitch = Path(processed["fubaleague/pitch.js"]).name
    assert re.fullmatch(r"pitch\.[0-9a-f]{12}\.js", pitch)
    replay = storage.open(processed["fubaleague/replay.js"]).read().decode()
    board = storage.open(processed["scoring/js/board.js"]).read().decode()
    assert f'import {{ Pitch }} from "./{pitch}";' in replay
    assert f'from "../../fubaleague/{pitch}";' in board

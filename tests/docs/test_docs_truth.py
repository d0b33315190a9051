"""Every file path and make target that the docs name exists (issue 34 item 5): a doc that names a
module or target after it was moved or renamed fails here instead of misleading a reader."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from django.core.management import get_commands

ROOT = Path(__file__).resolve().parents[2]
DOCS = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", *sorted((ROOT / "docs").glob("*.md"))]
# A backticked repository path: a top-level folder of the project, then a file with a suffix.
PATH = re.compile(r"`((?:[a-z_]+/)+[\w.-]+\.(?:py|md|js|json|toml|txt|html|css|cfg|sh))`")
MAKE = re.compile(r"`make ([a-z][\w-]*)")


def _named(pattern: re.Pattern[str]) -> list[tuple[str, str]]:
    return [(doc.name, m) for doc in DOCS for m in pattern.findall(doc.read_text(encoding="utf-8"))]


def _top_levels() -> set[str]:
    return {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".")}


# Only paths under a folder of the project: a URL's path segment (`/c/<slug>/…`) is not a file.
REPO_PATHS = sorted({(doc, p) for doc, p in _named(PATH) if p.split("/")[0] in _top_levels()})


@pytest.mark.parametrize(("doc", "path"), REPO_PATHS)
def test_a_path_a_doc_names_exists(doc: str, path: str) -> None:
    assert (ROOT / path).exists(), f"{doc} names {path}, which does not exist"


def test_every_make_target_a_doc_names_is_in_the_makefile() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([\w-]+):", makefile, flags=re.M))
    missing = sorted({f"{doc}: make {t}" for doc, t in _named(MAKE) if t not in targets})
    assert not missing, missing


def test_every_management_command_a_doc_names_exists() -> None:
    commands = set(get_commands())
    named = _named(re.compile(r"manage\.py ([a-z][\w]*)"))
    assert len(named) > 5  # the docs do name commands: a broken pattern must not pass silently
    missing = sorted({f"{doc}: manage.py {c}" for doc, c in named if c not in commands})
    assert not missing, missing


def test_every_setting_a_doc_names_is_read_by_the_code() -> None:
    # An environment variable or setting (`NAME` or `NAME=value`) a doc names must appear in some
    # file of the project other than the docs, or the doc describes a knob that no longer exists.
    named = _named(re.compile(r"`([A-Z][A-Z0-9]*_[A-Z0-9_]+)(?:=[^`]*)?`"))
    assert len(named) > 20
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    code = "\n".join(
        (ROOT / f).read_text(encoding="utf-8", errors="replace")
        for f in files.splitlines()
        if not f.endswith(".md") and (ROOT / f).is_file() and (ROOT / f).stat().st_size < 2_000_000
    )
    missing = sorted({f"{doc}: {name}" for doc, name in named if name not in code})
    assert not missing, missing

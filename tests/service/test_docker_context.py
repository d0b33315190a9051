"""The Docker build context leaves out local build output, whatever a checkout has built."""

from __future__ import annotations

import fnmatch
import shutil
import subprocess
from pathlib import Path

from scoring import web_engine

ROOT = Path(__file__).resolve().parents[2]
LOCAL_OUTPUT = ("node_modules/", "build/", "var/", "staticfiles/", ".venv/")


def _ignored(path: str, patterns: list[str]) -> bool:
    # Docker's rules for the patterns this file uses: a directory pattern drops everything under it,
    # `**/` matches at any depth.
    for pattern in patterns:
        bare = pattern.rstrip("/")
        if path == bare or path.startswith(bare + "/") or fnmatch.fnmatch(path, bare + "/*"):
            return True
        if bare.startswith("**/") and f"/{bare[3:]}/" in f"/{path}":
            return True
    return False


def test_local_build_output_stays_out_of_the_docker_context() -> None:
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    # What a checkout that ran `make install`, `make engine` and collectstatic holds.
    built = [f"{prefix}x/y.js" for prefix in LOCAL_OUTPUT] + ["fubaleague/__pycache__/settings.pyc"]
    assert [path for path in built if not _ignored(path, patterns)] == []
    sources = ["rules_engine/board.py", "static/scoring/js/local-first.js", "package-lock.json"]
    assert [path for path in sources if _ignored(path, patterns)] == []


def _context() -> list[str]:
    """The files `docker build .` sends from a clean clone: the tracked files less .dockerignore."""
    lines = (ROOT / ".dockerignore").read_text(encoding="utf-8").splitlines()
    patterns = [line.strip() for line in lines if line.strip() and not line.startswith("#")]
    tracked = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    return [path for path in tracked.splitlines() if not _ignored(path, patterns)]


def _stages() -> dict[str, list[str]]:
    """The Dockerfile's instructions by stage name (the last stage is "final")."""
    stages: dict[str, list[str]] = {}
    current: list[str] = []
    for line in (ROOT / "Dockerfile").read_text(encoding="utf-8").splitlines():
        if line.startswith("FROM "):
            words = line.split()
            current = stages.setdefault(words[3] if len(words) > 3 else "final", [])
        elif line.strip() and not line.startswith("#"):
            current.append(line.strip())
    return stages


def test_every_path_the_dockerfile_copies_is_in_a_clean_context() -> None:
    context = _context()
    missing = []
    for stage, lines in _stages().items():
        for line in lines:
            words = line.split()
            if words[0] != "COPY" or words[1].startswith("--from="):
                continue
            for source in words[1:-1]:
                if source != "." and not any(p == source or p.startswith(source + "/") for p in context):
                    missing.append((stage, source))
    assert missing == []


def test_the_image_builds_the_phone_engine_from_a_clean_context(tmp_path: Path) -> None:
    stages = _stages()
    npm = [name for name, lines in stages.items() if any(line.startswith("RUN npm ci") for line in lines)]
    assert len(npm) == 1, "one build stage installs the npm packages"
    assert "COPY package.json package-lock.json ./" in stages[npm[0]]
    final = stages["final"]
    assert f"COPY --from={npm[0]} /app/node_modules node_modules" in final  # Pyodide, served as static
    bundle = [i for i, line in enumerate(final) if line.startswith("RUN") and "build_engine_bundle" in line]
    assert bundle and bundle[0] > final.index("COPY . ."), "the bundle is built from the copied sources"
    # What that RUN builds from the context is the bundle the server accepts (same digest).
    for path in _context():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / path, tmp_path / path)
    manifest = web_engine.build(out=tmp_path / "build" / "web-engine", root=tmp_path)
    assert manifest["digest"] == web_engine.digest(ROOT)
    assert (tmp_path / "build" / "web-engine" / manifest["file"]).stat().st_size == manifest["bytes"]


def test_the_image_collects_and_compresses_static_files_once_at_build() -> None:
    final = _stages()["final"]
    collect = [i for i, line in enumerate(final) if line.startswith("RUN") and "collectstatic" in line]
    assert collect, "the image holds its static files, compressed"
    assert "DEBUG=0" in final[collect[0]], "with the production storage (compressed, hashed names)"
    assert collect[0] > final.index("COPY --from=npm /app/node_modules node_modules"), "Pyodide is collected"
    compose = (ROOT / "docker-compose.yml").read_text(encoding="utf-8")
    assert "collectstatic" not in compose, "a container start does not compress them again"

"""List the league's modules that no layers contract of .importlinter places (`make lint` fails on any).

lint-imports checks only the modules a contract names: a module outside every layers contract may
import anything. A module is placed when it, or a package above it, is a layer of a layers
contract (a container's layers count under the container's name), or an exhaustive container.
"""

from __future__ import annotations

import ast
import configparser
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP_PARTS = {"migrations", "__pycache__"}


def placed_modules(config: configparser.ConfigParser) -> set[str]:
    placed: set[str] = set()
    for section in config.sections():
        if not section.startswith("importlinter:contract:") or config[section].get("type") != "layers":
            continue
        containers = config[section].get("containers", "").split()
        if config[section].getboolean("exhaustive", False):
            # lint-imports itself fails on a child of an exhaustive container without a layer.
            placed.update(containers)
        for line in config[section].get("layers", "").splitlines():
            for name in line.replace("|", ":").split(":"):
                name = name.strip().strip("()")
                if not name:
                    continue
                if containers:
                    placed.update(f"{container}.{name}" for container in containers)
                else:
                    placed.add(name)
    return placed


def league_modules(packages: list[str]) -> list[str]:
    modules = []
    for package in packages:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = path.relative_to(ROOT).with_suffix("").parts
            if SKIP_PARTS & set(parts):
                continue
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules.append(".".join(parts))
    return modules


def unplaced() -> list[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    packages = config["importlinter"]["root_packages"].split()
    placed = placed_modules(config)

    def is_placed(module: str) -> bool:
        parts = module.split(".")
        return any(".".join(parts[:i]) in placed for i in range(1, len(parts) + 1))

    return [m for m in league_modules(packages) if not is_placed(m) and not _empty_package(m)]


def _empty_package(module: str) -> bool:
    """A package whose __init__ holds no code (a docstring at most): its modules are what count."""
    init = ROOT / module.replace(".", "/") / "__init__.py"
    if not init.is_file():
        return False
    body = ast.parse(init.read_text()).body
    return all(isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) for node in body)


def main() -> int:
    missing = unplaced()
    for module in missing:
        print(f"{module}: in no layers contract of .importlinter; give it its layer")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

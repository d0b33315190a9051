"""List the league's modules that no layers contract of .importlinter places, and the package-level
import cycles that CONTRIBUTING.md does not list (`make lint` fails on either).

lint-imports checks only the modules a contract names: a module outside every layers contract may
import anything. A module is placed when it, or a package above it, is a layer of a layers
contract (a container's layers count under the container's name), or an exhaustive container.

Two top-level packages that import each other form a package-level cycle even when every module
keeps to its layer; one would have to be listed, with its reason, in the table "Package-level
cycles" of CONTRIBUTING.md (empty: the packages of league-layers import only downwards), and a
row that no longer applies fails too.
It also runs `check_sizes` (no module over 600 lines, no function over 80 lines), so the limits
hold wherever the contracts are checked.
"""

from __future__ import annotations

import ast
import configparser
import re
import sys
from pathlib import Path

import check_sizes  # the size limits, checked with the contracts
import grimp  # import-linter's import graph

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


CYCLE_ROW = re.compile(r"^\|\s*`(?P<a>[\w.]+)`\s*\|\s*`(?P<b>[\w.]+)`\s*\|")


def listed_cycles() -> set[frozenset[str]]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("### Package-level cycles", 1)[1].split("\n#", 1)[0]
    return {frozenset((m["a"], m["b"])) for line in section.splitlines() if (m := CYCLE_ROW.match(line))}


def package_cycles(packages: list[str]) -> dict[frozenset[str], list[str]]:
    """Pairs of top-level packages that import each other, with the imports of each direction."""
    sys.path.insert(0, str(ROOT))
    graph = grimp.build_graph(*packages)
    edges: dict[tuple[str, str], list[str]] = {}
    for module in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            pair = (module.split(".")[0], imported.split(".")[0])
            if pair[0] != pair[1]:
                edges.setdefault(pair, []).append(f"{module} -> {imported}")
    cycles = [(a, b) for a, b in edges if a < b and (b, a) in edges]
    return {frozenset((a, b)): edges[(a, b)][:3] + edges[(b, a)][:3] for a, b in cycles}


def main() -> int:
    missing = unplaced()
    for module in missing:
        print(f"{module}: in no layers contract of .importlinter; give it its layer")
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    found = package_cycles(config["importlinter"]["root_packages"].split())
    listed = listed_cycles()
    problems = [
        f"{' <-> '.join(sorted(pair))}: a package-level cycle that CONTRIBUTING.md does not list "
        f"({'; '.join(why)})"
        for pair, why in found.items()
        if pair not in listed
    ]
    problems += [
        f"CONTRIBUTING.md lists the cycle {' <-> '.join(sorted(pair))}, which no longer exists"
        for pair in listed - set(found)
    ]
    for problem in problems:
        print(problem)
    sizes = check_sizes.main()
    return 1 if missing or problems or sizes else 0


if __name__ == "__main__":
    sys.exit(main())

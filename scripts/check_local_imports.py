"""Fail when a module of the project imports another project module inside a function.

An import inside a function usually hides an import cycle; the layers of `.importlinter` are
meant to make them unnecessary.  The few that remain are listed, each with its reason, in the
table "Imports inside functions" of CONTRIBUTING.md (a row names a module or a package); this
script reads that table, so the list has one home, and fails on a row that no longer applies.
Run by `make lint`.
"""

from __future__ import annotations

import ast
import configparser
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _root_packages() -> tuple[str, ...]:
    """Every package of the project: the root packages of .importlinter, so a new one is covered."""
    config = configparser.ConfigParser()
    config.read(ROOT / ".importlinter")
    return tuple(config["importlinter"]["root_packages"].split())


PACKAGES = _root_packages()
ROW = re.compile(r"^\|\s*`(?P<path>[^`]+)`\s*\|\s*`(?P<module>[^`]+)`\s*\|")


def allowed() -> set[tuple[str, str]]:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    section = text.split("### Imports inside functions", 1)[1].split("\n#", 1)[0]
    return {(m["path"], m["module"]) for line in section.splitlines() if (m := ROW.match(line))}


def local_imports(path: Path) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            inside = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if in_function and isinstance(child, ast.ImportFrom) and child.module and not child.level:
                found.append((child.lineno, child.module))
            elif in_function and isinstance(child, ast.Import):
                found.extend((child.lineno, alias.name) for alias in child.names)
            visit(child, inside)

    visit(ast.parse(path.read_text(encoding="utf-8")), False)
    return [(line, module) for line, module in found if module.split(".")[0] in PACKAGES]


def covers(listed: str, module: str) -> bool:
    return module == listed or module.startswith(listed + ".")


def main() -> int:
    permitted = allowed()
    used: set[tuple[str, str]] = set()
    problems = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "/migrations/" in rel:
                continue
            for line, module in local_imports(path):
                rows = {(p, m) for p, m in permitted if p == rel and covers(m, module)}
                used |= rows
                if not rows:
                    problems.append(f"{rel}:{line}: imports {module} inside a function")
    # A row whose import is gone would excuse the next one silently: the table must stay exact.
    problems += [
        f"CONTRIBUTING.md lists {p} -> {m}, which is no longer imported inside a function"
        for p, m in sorted(permitted - used)
    ]
    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(
            "Import at the top of the module, or list the import with its reason under "
            "'Imports inside functions' in CONTRIBUTING.md.",
            file=sys.stderr,
        )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""Fail on a module over 600 lines or a function over 80 lines (`make lint`).

The project's limits (CONTRIBUTING.md, Conventions): a module longer than 600 lines is split by
concept, a function longer than 80 lines is cut into named steps.  Migrations, tests and
benchmarks are outside the module limit; tests and benchmarks are outside the function limit
(migrations are generated, their functions are the data migrations' own and count).
The front end's JavaScript is held to the same limits by ESLint (eslint.config.js: `max-lines` and
the project's rule scripts/eslint/function-size.js), in the same `make lint`.
"""

from __future__ import annotations

import ast
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 80
SKIP_DIRS = {".venv", "node_modules", "build", "tests", "bench", ".git", "__pycache__", "var", "staticfiles"}


def sources() -> list[Path]:
    found = []
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith(".")]
        found += [Path(folder) / f for f in files if f.endswith(".py")]
    return sorted(found)


def problems(path: Path) -> list[str]:
    rel = path.relative_to(ROOT).as_posix()
    text = path.read_text(encoding="utf-8")
    found = []
    lines = len(text.splitlines())
    if lines > MAX_MODULE_LINES and "migrations" not in path.parts:
        found.append(f"{rel}: {lines} lines (at most {MAX_MODULE_LINES}): split it by concept")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            length = (node.end_lineno or node.lineno) - first + 1
            if length > MAX_FUNCTION_LINES:
                found.append(
                    f"{rel}:{node.lineno}: {node.name} has {length} lines "
                    f"(at most {MAX_FUNCTION_LINES}): cut it into named steps"
                )
    return found


def main() -> int:
    found = [problem for path in sources() for problem in problems(path)]
    for problem in found:
        print(problem, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

"""Run every benchmark (bench/bench_*.py) in its own process and print their tables.

Each benchmark is a separate process so its peak memory is its own and one crash
does not hide the others' figures.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    selected = sys.argv[1:]
    scripts = sorted(HERE.glob("bench_*.py"))
    if selected:
        scripts = [s for s in scripts if any(name in s.stem for name in selected)]
    failed = []
    for script in scripts:
        print(f"\n=== {script.stem} ===", flush=True)
        result = subprocess.run([sys.executable, str(script)], cwd=HERE.parent, check=False)
        if result.returncode != 0:
            failed.append(script.stem)
    if failed:
        print(f"\nbenchmarks that failed: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Benchmark: what scoring a whole match costs a club on the phone (docs/scorer-internals.md).

Runs the slow browser test tests/browser/test_scorer_taps.py: a scripted player that chooses like
the heuristic coach scores a whole match through the scorer page at 390×844, once with app dice
and once with typed dice, counting taps (a drag is one), the text read per question (the question
and the text options on screen) and whether each question fits the screen with the pitch in view.
The test writes var/bench/scorer_taps.json; this prints it as a table against the targets.

Targets: <= 10 taps a turn with app dice (<= 400 a match), <= 14 with typed dice (<= 550); median
text per question <= 80 characters; no question with more than 8 text options; the questions fit
390×844 with the pitch in view.

Run: ``. scripts/test-env.sh && .venv/bin/python bench/bench_scorer_taps.py`` (PostgreSQL, Redis
and chromium as for the browser tests; collectstatic first).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from measure import load_line  # noqa: E402

RESULTS = ROOT / "var" / "bench" / "scorer_taps.json"
TARGETS = {"app": (10.0, 400), "typed": (14.0, 550)}


def main() -> int:
    print(f"bench_scorer_taps: {load_line()}")
    RESULTS.unlink(missing_ok=True)
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, check=True)
    test = [
        sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "slow",
        "tests/browser/test_scorer_taps.py::test_a_whole_match_costs_few_taps",
    ]  # fmt: skip
    run = subprocess.run(test, cwd=ROOT, env=os.environ.copy(), check=False)
    if not RESULTS.exists():
        print("no figures: the tap-count run did not finish")
        return 1
    results = json.loads(RESULTS.read_text())
    print(f"{'dice':<7}{'taps':>6}{'turns':>7}{'taps/turn':>11}{'target':>14}{'by page':>9}"
          f"{'median chars':>14}{'max options':>13}{'fits 390x844':>14}")  # fmt: skip
    for dice in ("app", "typed"):
        r = results.get(dice)
        if r is None:
            print(f"{dice:<7} (not run)")
            continue
        per_turn, per_match = TARGETS[dice]
        print(
            f"{dice:<7}{r['taps']:>6}{r['turns']:>7}{r['taps_per_turn']:>11.2f}"
            f"{f'<={per_turn:g} (<={per_match})':>14}{r['answered_by_page']:>9}"
            f"{r['median_chars']:>14}{r['max_text_options']:>13}{r['fit_share'] * 100:>13.0f}%"
        )
    print("targets: median chars <= 80, max text options <= 8, every question fits (100%)")
    met = all(
        dice in results
        and results[dice]["taps_per_turn"] <= TARGETS[dice][0]
        and results[dice]["taps"] <= TARGETS[dice][1]
        for dice in TARGETS
    )
    print("tap targets:", "met" if met else "NOT met")
    # The reading targets printed above are judged too, not only the taps.
    reads = all(
        r["median_chars"] <= 80 and r["max_text_options"] <= 8 and not r.get("misfits")
        for r in results.values()
    )
    print("reading targets:", "met" if reads else "NOT met")
    for dice, r in results.items():
        if r.get("misfits"):
            print(f"  {dice}: questions that do not fit 390x844 (first 5): {r['misfits']}")
    for dice, r in results.items():
        print(f"  {dice}: taps by question {r['taps_by_question']}")
        # "free_move: done+action": one tap answered "done" and the action after it (pending.then)
        print(f"  {dice}: taps by answer {r.get('taps_by_answer', {})}")
    print(f"bench_scorer_taps: {load_line()} at the end")
    return run.returncode or (0 if met and reads else 1)


if __name__ == "__main__":
    sys.exit(main())

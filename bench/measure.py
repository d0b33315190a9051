"""What every benchmark shares so that its verdict survives a busy machine.

The development machine has 2 CPUs shared by many processes: a wall-clock figure, or two sides
timed one after the other, measures the neighbours as much as the code. So each comparison here is
a ratio of CPU seconds (``time.process_time``: this process only), the two sides run in short
alternating slices (A B A B …) so a burst of load falls on both, and the ratios of the slices are
printed as min / median / max; a target is judged on the median. Every benchmark prints the load
average before and after, and ends with ``Verdict.exit_code()``: non-zero when a target is missed.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field


def load_line() -> str:
    one, five, fifteen = os.getloadavg()
    return f"load average {one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} CPUs"


def cpu_seconds(fn: Callable[[], object], *, at_least: float = 0.0) -> tuple[float, int]:
    """CPU seconds of one call of ``fn`` (the mean over as many calls as fill ``at_least``
    seconds, so a fast side is not measured at the clock's resolution), and the calls made."""
    calls = 0
    started = time.process_time()
    while True:
        fn()
        calls += 1
        spent = time.process_time() - started
        if spent >= at_least:
            return spent / calls, calls


@dataclass(frozen=True)
class Ratios:
    values: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.values)

    def spread(self, fmt: str = "{:.2f}") -> str:
        """min / median / max."""
        return " / ".join(fmt.format(v) for v in (min(self.values), self.median, max(self.values)))


def interleaved(
    sides: Sequence[Callable[[], object]], *, slices: int, at_least: float = 0.2
) -> list[list[float]]:
    """CPU seconds per call of each side, measured in ``slices`` rounds of one slice a side.

    Returns one list per side (its slices in order), so ``ratios(a, b)`` pairs slices measured
    next to each other.
    """
    out: list[list[float]] = [[] for _ in sides]
    for _ in range(slices):
        for i, side in enumerate(sides):
            out[i].append(cpu_seconds(side, at_least=at_least)[0])
    return out


def ratios(numerator: Sequence[float], denominator: Sequence[float]) -> Ratios:
    return Ratios(tuple(a / b for a, b in zip(numerator, denominator, strict=True) if b > 0))


@dataclass
class Verdict:
    """The targets of one benchmark: each one printed as it is judged, the exit code from all."""

    name: str
    missed: list[str] = field(default_factory=list)

    def check(self, label: str, passed: bool) -> str:
        if not passed:
            self.missed.append(label)
        return "met" if passed else "NOT met"

    def exit_code(self) -> int:
        print(f"\n{self.name}: {load_line()} at the end")
        if self.missed:
            print(f"{self.name}: targets NOT met: {'; '.join(self.missed)}")
            return 1
        print(f"{self.name}: every target met")
        return 0

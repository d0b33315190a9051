"""Geometry of the rating history chart (server-side SVG: no JavaScript, no chart library)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from ratings.skill import MU, ORDINAL_SIGMAS, SIGMA


@dataclass
class HistoryChart:
    width: int
    height: int
    mu_points: str = ""
    ordinal_points: str = ""
    band: str = ""
    dots: list[tuple[float, float, int, float, float]] = field(default_factory=list)
    y_ticks: list[tuple[float, int]] = field(default_factory=list)
    x_ticks: list[tuple[float, int]] = field(default_factory=list)


def history_chart(
    points: Sequence[tuple[float, float]], *, width: int = 640, height: int = 260
) -> HistoryChart:
    """``points``: (mu, sigma) after each rated match; the chart starts at the initial rating."""
    series = [(MU, SIGMA), *points]
    left, right, top, bottom = 44, 12, 10, 28
    lows = [m - ORDINAL_SIGMAS * s for m, s in series]
    highs = [m + ORDINAL_SIGMAS * s for m, s in series]
    lo, hi = min(lows), max(highs)
    lo, hi = 5 * (lo // 5), 5 * (hi // 5 + 1)
    n = len(series) - 1

    def x(i: int) -> float:
        return left + (width - left - right) * (i / n if n else 0.5)

    def y(v: float) -> float:
        return top + (height - top - bottom) * (hi - v) / (hi - lo)

    chart = HistoryChart(width=width, height=height)
    chart.mu_points = " ".join(f"{x(i):.1f},{y(m):.1f}" for i, (m, _s) in enumerate(series))
    chart.ordinal_points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(lows))
    upper = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs)]
    lower = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(lows)]
    chart.band = " ".join(upper + lower[::-1])
    chart.dots = [(x(i), y(m), i, m, s) for i, (m, s) in enumerate(series) if i]
    step = 5 if hi - lo <= 40 else 10
    chart.y_ticks = [(y(v), int(v)) for v in range(int(lo), int(hi) + 1, step)]
    every = max(1, n // 10)
    chart.x_ticks = [(x(i), i) for i in range(0, n + 1, every)]
    return chart

"""Geometry of the chances charts (server-side SVG: no JavaScript, no chart library)."""

from __future__ import annotations

from dataclasses import dataclass, field

from chances.selectors import TableChances, TeamChances

# Okabe-Ito, colour-blind friendly: 1st, 2nd, 3rd, 4th, ... place.
POSITION_COLOURS = ("#009E73", "#56B4E9", "#E69F00", "#D55E00", "#CC79A7", "#0072B2", "#999999", "#000000")


@dataclass
class Bar:
    label: str
    y: float
    segments: list[tuple[float, float, str, str]] = field(default_factory=list)  # x, width, colour, title


@dataclass
class BarChart:
    width: int
    height: int
    bars: list[Bar]
    legend: list[tuple[float, str, str]] = field(default_factory=list)
    label_width: int = 110


def positions_chart(table: TableChances, *, width: int = 460) -> BarChart:
    """One stacked bar per team: its chance of each final place in the table."""
    label_width, bar_h, gap, top = 110, 18, 6, 22
    span = width - label_width - 10
    bars = []
    for i, row in enumerate(table.rows):
        bar = Bar(label=row.name, y=top + i * (bar_h + gap))
        x = float(label_width)
        for pos, p in enumerate(row.positions):
            if p <= 0:
                continue
            colour = POSITION_COLOURS[min(pos, len(POSITION_COLOURS) - 1)]
            bar.segments.append((x, span * p, colour, f"{row.name}: {_ordinal(pos + 1)} {p:.1%}"))
            x += span * p
        bars.append(bar)
    legend = [
        (label_width + k * 60.0, POSITION_COLOURS[min(k, len(POSITION_COLOURS) - 1)], _ordinal(k + 1))
        for k in range(min(table.size, 8))
    ]
    return BarChart(width, top + len(bars) * (bar_h + gap) + 4, bars, legend, label_width)


def champion_chart(rows: list[TeamChances], *, width: int = 640, limit: int = 16) -> BarChart:
    label_width, bar_h, gap, top = 130, 16, 5, 6
    shown = [r for r in rows if r.champion > 0][:limit]
    peak = max((r.champion for r in shown), default=1.0) or 1.0
    span = width - label_width - 60
    bars = []
    for i, row in enumerate(shown):
        bar = Bar(label=row.name, y=top + i * (bar_h + gap))
        bar.segments.append(
            (float(label_width), span * row.champion / peak, "#0072B2", f"{row.name}: {row.champion:.1%}")
        )
        bars.append(bar)
    return BarChart(width, top + len(bars) * (bar_h + gap) + 4, bars, [], label_width)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"

"""Geometry for the inline SVG drawings of the public pages (knockout bracket, positions chart).

Pure functions: they take plain data and return coordinates; the templates draw them. Drawing
server-side keeps the pages readable without JavaScript and without any chart library or CDN.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

# Colour-blind friendly palette (Okabe–Ito plus darker companions) for up to 12 lines.
PALETTE = (
    "#0072B2",
    "#D55E00",
    "#009E73",
    "#CC79A7",
    "#E69F00",
    "#56B4E9",
    "#000000",
    "#8C564B",
    "#7F7F00",
    "#9467BD",
    "#17BECF",
    "#B22222",
)


@dataclass
class Side:
    name: str
    placeholder: bool = False
    score: str = ""
    winner: bool = False
    url: str = ""


@dataclass
class Tie:
    key: int  # match number
    home: Side
    away: Side
    url: str = ""
    simulated: bool = False
    note: str = ""  # "a.e.t.", "4-3 pens", "agg. 3-2", "away goals"
    feeders: tuple[int | None, int | None] = (None, None)


@dataclass
class BracketBox:
    tie: Tie
    x: float
    y: float
    w: float
    h: float

    @property
    def mid_y(self) -> float:
        return self.y + self.h / 2

    @property
    def home_y(self) -> float:
        return self.y + self.h * 0.36

    @property
    def away_y(self) -> float:
        return self.y + self.h * 0.80

    @property
    def text_x(self) -> float:
        return self.x + 8

    @property
    def score_x(self) -> float:
        return self.x + self.w - 8

    @property
    def divider_y(self) -> float:
        return self.y + self.h * 0.52

    @property
    def note_y(self) -> float:
        return self.y + self.h + 11


@dataclass
class Bracket:
    width: float
    height: float
    titles: list[dict[str, Any]] = field(default_factory=list)
    boxes: list[BracketBox] = field(default_factory=list)
    connectors: list[str] = field(default_factory=list)
    extra: list[BracketBox] = field(default_factory=list)  # third-place match, drawn apart
    champion: dict[str, Any] | None = None


BOX_W = 178.0
BOX_H = 44.0
COL_GAP = 42.0
SLOT = 70.0
TOP = 34.0


def order_rounds(rounds: Sequence[Sequence[Tie]]) -> list[list[Tie]]:
    """Reorder each round so that tie i of a round is fed by ties 2i and 2i+1 of the previous one.

    Knockout fixtures name their feeders ("Winner match 49"); starting from the last round and
    walking back gives the classic bracket where lines never cross. Ties without known feeders keep
    their order (by match number) and fill the remaining places.
    """
    if not rounds:
        return []
    ordered: list[list[Tie]] = [list(rounds[-1])]
    for r in range(len(rounds) - 2, -1, -1):
        by_key = {t.key: t for t in rounds[r]}
        used: set[int] = set()
        current: list[Tie] = []
        for nxt in ordered[0]:
            for feeder in nxt.feeders:
                if feeder is not None and feeder in by_key and feeder not in used:
                    current.append(by_key[feeder])
                    used.add(feeder)
        current += [t for t in rounds[r] if t.key not in used]
        ordered.insert(0, current)
    return ordered


def bracket_layout(
    rounds: Sequence[Sequence[Tie]], titles: Sequence[str], third_place: Tie | None = None
) -> Bracket:
    rounds = order_rounds(rounds)
    if not rounds:
        return Bracket(width=0, height=0)
    first = max(len(rounds[0]), 1)
    height = TOP + first * SLOT + 10
    bracket = Bracket(width=len(rounds) * (BOX_W + COL_GAP) + 10, height=height)
    centres: list[list[float]] = []
    for r, ties in enumerate(rounds):
        x = 5 + r * (BOX_W + COL_GAP)
        bracket.titles.append({"x": x + BOX_W / 2, "y": 16, "text": titles[r] if r < len(titles) else ""})
        col: list[float] = []
        for i, tie in enumerate(ties):
            if r == 0 or 2 * i + 1 >= len(centres[r - 1]):
                # First round (or an irregular bracket): spread the ties evenly over the height.
                span = (height - TOP) / max(len(ties), 1)
                cy = TOP + span * i + span / 2
            else:
                cy = (centres[r - 1][2 * i] + centres[r - 1][2 * i + 1]) / 2
            col.append(cy)
            box = BracketBox(tie=tie, x=x, y=cy - BOX_H / 2, w=BOX_W, h=BOX_H)
            bracket.boxes.append(box)
            if r > 0 and 2 * i + 1 < len(centres[r - 1]):
                px = x - COL_GAP
                mx = x - COL_GAP / 2
                for feeder_y in (centres[r - 1][2 * i], centres[r - 1][2 * i + 1]):
                    bracket.connectors.append(f"M{px:.1f},{feeder_y:.1f} H{mx:.1f} V{cy:.1f} H{x:.1f}")
        centres.append(col)
    final = rounds[-1][0] if len(rounds[-1]) == 1 else None
    if final is not None:
        winner = final.home if final.home.winner else final.away if final.away.winner else None
        if winner is not None:
            last = bracket.boxes[-1]
            bracket.champion = {"x": last.x + BOX_W / 2, "y": last.y - 10, "name": winner.name}
    if third_place is not None:
        x = 5 + (len(rounds) - 1) * (BOX_W + COL_GAP)
        y = height - BOX_H - 4
        bracket.titles.append({"x": x + BOX_W / 2, "y": y - 8, "text": "Third place"})
        bracket.extra.append(BracketBox(tie=third_place, x=x, y=y, w=BOX_W, h=BOX_H))
        bracket.height = max(bracket.height, y + BOX_H + 16)
    return bracket


@dataclass
class ChartLine:
    name: str
    colour: str
    points: str
    label_x: float
    label_y: float
    dots: list[tuple[float, float, int, int]]  # x, y, round, position


@dataclass
class PositionChart:
    width: float
    height: float
    rounds: list[dict[str, Any]]
    positions: list[dict[str, Any]]
    lines: list[ChartLine]


def positions_chart(series: Sequence[tuple[str, Sequence[int]]], rounds: Sequence[int]) -> PositionChart:
    """Lines of league position (1 at the top) by round, one per team, labelled at the right end."""
    teams = len(series)
    n_rounds = len(rounds)
    left, right, top, bottom = 34.0, 150.0, 16.0, 28.0
    step_x = 64.0 if n_rounds < 10 else 40.0
    step_y = 24.0 if teams <= 12 else 16.0
    width = left + max(n_rounds - 1, 1) * step_x + right
    height = top + max(teams - 1, 1) * step_y + bottom
    lines: list[ChartLine] = []
    for index, (name, positions) in enumerate(series):
        pts: list[tuple[float, float, int, int]] = []
        for r, pos in enumerate(positions):
            x = left + r * step_x
            y = top + (pos - 1) * step_y
            pts.append((x, y, rounds[r], pos))
        if not pts:
            continue
        lines.append(
            ChartLine(
                name=name,
                colour=PALETTE[index % len(PALETTE)],
                points=" ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in pts),
                label_x=pts[-1][0] + 8,
                label_y=pts[-1][1] + 4,
                dots=pts,
            )
        )
    return PositionChart(
        width=width,
        height=height,
        rounds=[{"x": left + i * step_x, "label": f"R{r}"} for i, r in enumerate(rounds)],
        positions=[{"y": top + (p - 1) * step_y, "label": p} for p in range(1, teams + 1)],
        lines=lines,
    )

"""No sticky hover on touch screens: a touch screen keeps :hover on what was tapped last, so a
button or a replay line looked pre-selected after a tap. Every :hover rule of the site's style
sheets sits under @media (hover: hover), which only a pointer that hovers matches."""

from __future__ import annotations

from pathlib import Path

import pytest

STATIC = Path(__file__).resolve().parents[2] / "static"
SHEETS = sorted(STATIC.rglob("*.css"))


def _outside_hover_media(css: str) -> str:
    """The style sheet without its @media (hover: hover) blocks (braces matched)."""
    kept, i = [], 0
    marker = "@media (hover: hover)"
    while (start := css.find(marker, i)) != -1:
        kept.append(css[i:start])
        depth, j = 0, css.index("{", start)
        while True:
            depth += {"{": 1, "}": -1}.get(css[j], 0)
            j += 1
            if depth == 0:
                break
        i = j
    kept.append(css[i:])
    return "".join(kept)


def test_the_scorer_and_the_site_sheets_are_found() -> None:
    names = {p.relative_to(STATIC).as_posix() for p in SHEETS}
    assert {"scoring/scorer.css", "fubaleague/site.css"} <= names


@pytest.mark.parametrize("sheet", SHEETS, ids=lambda p: p.relative_to(STATIC).as_posix())
def test_hover_styles_only_for_pointers_that_hover(sheet: Path) -> None:
    css = sheet.read_text()
    outside = _outside_hover_media(css)
    stuck = [line.strip() for line in outside.splitlines() if ":hover" in line]
    assert not stuck, f"{sheet.name}: :hover outside @media (hover: hover): {stuck}"


def test_a_hover_block_is_cut_whole() -> None:
    css = "a { } @media (hover: hover) { a:hover { b: c; } } d:hover { }"
    assert _outside_hover_media(css) == "a { }  d:hover { }"

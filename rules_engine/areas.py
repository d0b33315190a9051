"""The one vocabulary of the board's areas: the short names a player says at the table.

The log and the engine's errors keep the area codes of ``board.NAMES`` (``H-LM``, ``A-PEN``);
everything a person reads (pitch labels, questions, event lines, the replay) names an area with
the team whose end it lies in: ``"Canada box"``, ``"Canada left wing"``, ``"centre circle"``.
An area is named after the end of the pitch it lies in (rulebook 3, 1.4: home defends the H
end), never after the team that has a player there, so "the Canada left midfield" is a place
whoever stands in it. Left and right are seen from the home goal, as the pitch is drawn (away
goal at the top).

The names are templates (``END`` stands for the team's name) so that the engine, the server
and the page's script build them from one table: the server hands the table to the script.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

from . import board as B

END: Final = "{end}"

# per area in board order: (end of the pitch: "home" | "away" | "", words after the team's name)
_WORDS: Final[tuple[tuple[str, str], ...]] = (
    ("home", "box"),
    ("home", "left wing"),
    ("home", "right wing"),
    ("home", "edge of the box"),
    ("home", "left midfield"),
    ("home", "right midfield"),
    ("", "centre circle"),
    ("away", "left midfield"),
    ("away", "right midfield"),
    ("away", "edge of the box"),
    ("away", "left wing"),
    ("away", "right wing"),
    ("away", "box"),
    ("home", "left corner flag"),
    ("home", "right corner flag"),
    ("away", "left corner flag"),
    ("away", "right corner flag"),
)

# the goalkeeper, as moves (``GK>TO``) and some answers name him
GOALKEEPER: Final = "GK"

_CODE: Final = r"(?:[HA]-(?:PEN|LC|RC|FRONT|LM|RM|LCK|RCK)|CENTRE)"
_CODE_RE: Final = re.compile(rf"\b{_CODE}\b")
_MOVE_RE: Final = re.compile(rf"\b({_CODE}|GK)>({_CODE})(\+ball)?")


@dataclass(frozen=True, slots=True)
class Area:
    """One area of the board as a page draws and names it (no geometry: the page has that)."""

    code: str
    index: int
    end: str  # "home" | "away" | "" (the centre circle lies in both halves)
    words: str  # the name without the team: "left wing"
    template: str  # "{end} left wing"
    corner_spot: bool

    def name(self, home: str, away: str) -> str:
        """``"Canada left wing"`` (the team whose end the area lies in, then the words)."""
        if not self.end:
            return self.words
        return f"{home if self.end == 'home' else away} {self.words}"

    def to_dict(self, home: str, away: str) -> dict[str, object]:
        return {
            "code": self.code,
            "index": self.index,
            "end": self.end or None,
            "words": self.words,
            "template": self.template,
            "name": self.name(home, away),
            "corner_spot": self.corner_spot,
        }


AREAS: Final[tuple[Area, ...]] = tuple(
    Area(
        code=B.NAMES[i],
        index=i,
        end=end,
        words=words,
        template=f"{END} {words}" if end else words,
        corner_spot=i >= B.N_AREAS,
    )
    for i, (end, words) in enumerate(_WORDS)
)
BY_CODE: Final[dict[str, Area]] = {a.code: a for a in AREAS}


def area_name(code: str, home: str, away: str) -> str:
    """The name of an area code (``"H-LM"`` -> ``"Canada left midfield"``); the goalkeeper's
    ``"GK"`` -> ``"goalkeeper"``; anything else is returned unchanged."""
    a = BY_CODE.get(code)
    if a is not None:
        return a.name(home, away)
    if code == GOALKEEPER:
        return "goalkeeper"
    return code


def area_place(code: str, home: str, away: str) -> str:
    """The name as a place in a sentence: ``"the Canada box"``, ``"the centre circle"``."""
    if code in BY_CODE:
        return "the " + area_name(code, home, away)
    return area_name(code, home, away)


def towards_goal(src: str, dst: str, side: str) -> int:
    """1 when a move from area ``src`` to ``dst`` takes a ``side`` ("home" | "away") player
    towards the goal it attacks, -1 back towards its own, 0 across (or an unknown area). The home
    team attacks the A end (rulebook 3, 1.4), whose rows are the higher ones of the board."""
    a, b = B.INDEX.get(src), B.INDEX.get(dst)
    if a is None or b is None:
        return 0
    step = (B.LO[b] + B.HI[b]) - (B.LO[a] + B.HI[a])
    direction = 1 if step > 0 else -1 if step < 0 else 0
    return direction if side == "home" else -direction


def in_words(text: str, home: str, away: str) -> str:
    """An engine message with every area code replaced by its place name (the engine's errors
    name areas by their codes, as the log does); a move ``FROM>TO`` reads "from ... to ..."."""

    def move(mt: re.Match[str]) -> str:
        src = "the goalkeeper" if mt.group(1) == GOALKEEPER else area_place(mt.group(1), home, away)
        ball = " with the ball" if mt.group(3) else ""
        return f"({src} to {area_place(mt.group(2), home, away)}{ball})"

    text = _MOVE_RE.sub(move, text)
    return _CODE_RE.sub(lambda mt: area_place(mt.group(0), home, away), text)


def board_areas(home: str, away: str) -> list[dict[str, object]]:
    """Every area (13 playing areas, then the 4 corner spots), as JSON, named for these teams."""
    return [a.to_dict(home, away) for a in AREAS]

"""Where the players stand, as the rules of rulebook 2.0 read it, and offside (4.1.1, 4.8.5).

The board is FUBA 3's (``rules_engine.board``): rulebook 2.0 describes the same
"13 areas, 4 on each side and 5 in the middle" and the same three zones (1.3).
"""

from __future__ import annotations

from typing import Final

from .. import board as B
from .problems import illegal


class Side:
    """One team on the board: its outfield players per playing area and its goalkeeper's area.

    Read-only (mypy refuses assignments).  A plain class rather than a frozen dataclass: the
    flow builds several per event and the compiled engine (mypyc) builds a native class's own
    ``__init__`` many times faster than a dataclass's generated one."""

    __slots__ = ("field", "gk", "team")

    def __init__(self, team: int, field: tuple[int, ...], gk: int) -> None:
        if len(field) != B.N_AREAS:
            raise illegal(f"1.3: a side lists its players on the {B.N_AREAS} areas")
        if not 0 <= gk < B.N_AREAS:
            raise illegal(f"1.3: no area {gk} for the goalkeeper")
        self.team: Final = team  # board.HOME or board.AWAY (the goal line it defends)
        self.field: Final = field  # outfield players per area, board.N_AREAS entries
        self.gk: Final = gk  # the goalkeeper's area

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Side):
            return NotImplemented
        return (self.team, self.field, self.gk) == (other.team, other.field, other.gk)

    def __hash__(self) -> int:
        return hash((self.team, self.field, self.gk))

    def __repr__(self) -> str:
        return f"Side(team={self.team!r}, field={self.field!r}, gk={self.gk!r})"

    def players(self, area: int, with_gk: bool = True) -> int:
        """Players in `area`; the goalkeeper "counts as a player unless the rules state otherwise" (1.1)."""
        if area >= B.N_AREAS:
            return 0
        return self.field[area] + (1 if with_gk and self.gk == area else 0)


def side(team: int, players: dict[str, int], gk: str) -> Side:
    """A side from area names (``{"CENTRE": 2, ...}``), for set-ups and tests."""
    field = [0] * B.N_AREAS
    for name, n in players.items():
        field[B.INDEX[name]] += n
    return Side(team, tuple(field), B.INDEX[gk])


# playing areas ordered by distance from each team's own goal line (centre of their rows, I-5)
_BY_DEPTH: Final[tuple[tuple[int, ...], tuple[int, ...]]] = (
    tuple(sorted(range(B.N_AREAS), key=lambda a: (B.depth_from(0, a), a))),
    tuple(sorted(range(B.N_AREAS), key=lambda a: (B.depth_from(1, a), a))),
)


def second_last_area(pt: Side) -> int | None:
    """4.1.1: the area of "the passive team's second closest player to that goal
    line (including the goalkeeper)"; areas ordered as in FUBA 3 (I-5)."""
    seen = 0
    for a in _BY_DEPTH[pt.team]:
        seen += pt.players(a)
        if seen >= 2:
            return a
    return None


def offside_position(pt: Side, area: int, ball_area: int) -> bool:
    """4.1.1: is a controlling team's player in `area` in an offside position?

    Offside: "in the passive player's half of the field (not including the
    centre circle) and in an area that is closer to the opposing team's goal
    line than the area in which the passive team's second closest player ...
    is located".  Not offside at the level of, or behind, the area of the ball
    (the garbled second sentence, interpretation I2-1).
    """
    team = 1 - pt.team
    if area == B.CENTRE or area >= B.N_AREAS or not B.in_opp_half_entirely(team, area):
        return False
    if not B.beyond(team, area, B.CORNER_OF_SPOT.get(ball_area, ball_area)):
        return False
    sl = second_last_area(pt)
    return sl is not None and B.beyond(team, area, sl)

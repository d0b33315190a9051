"""What a FUBA 2 match keeps besides the shared ``state.MatchState``: the time track's
carried minutes (4.3), who acted first and how many players each team moved (4.6), a failed
pressing (4.9.1), the goal kick not yet taken (5.3), the A5 goalkeepers' positions; and the
per-turn facts of rulebook 2.0's seven stages.

``side(st, team)`` is a team as the pure rules of this package see it (``offside.Side``).
"""

from __future__ import annotations

from typing import Final

from .. import board as B
from ..state import MatchState
from .offside import Side

NO_TEAM: Final = -1


class Turn:
    """The facts of the current turn (reset every turn; a plain class for mypyc)."""

    __slots__ = (
        "ct_at_start",
        "ct_die",
        "moved",
        "no_defence",
        "only_pt_in_target",
        "pt_die",
        "restart",
        "special",
        "start",
        "target",
    )

    def __init__(self, restart: str, ct: int, ball: int) -> None:
        self.restart = restart  # the set piece at the beginning of the turn, or ""
        self.ct_at_start = ct
        self.start = ball  # 4.1: "the area where the ball begins the turn is called the start area"
        self.target = ball
        self.ct_die = 0
        self.pt_die = 0
        self.special = ""  # the special event of the turn (fuba2.special), or ""
        self.moved = [0, 0]  # 4.6: players moved by each team "exc. the any free movements"
        self.no_defence = NO_TEAM  # 4.4.3 row 5: the team that may not choose defence movement
        self.only_pt_in_target = False  # 4.6's second exception


class F2:
    """The FUBA 2 bookkeeping of one match (a plain class for mypyc)."""

    __slots__ = (
        "attempt_first",
        "before_goal_kick",
        "carried",
        "gk_outside",
        "last_first",
        "last_moved",
        "minute",
        "press_failed_by",
        "turn",
    )

    def __init__(self) -> None:
        self.minute = 1  # the time track square (3.3: 1, and 46 in the second half)
        self.carried = 0  # 4.3: extra minutes owed after dice differences of 0
        self.last_first = NO_TEAM  # 4.6: the team that played the first action stage last turn
        self.last_moved = (0, 0)
        self.press_failed_by = NO_TEAM  # 4.9.1: its opponent passes the next control check
        self.before_goal_kick = False  # 5.3: no pressing, no dribbling before the goal kick is taken
        self.gk_outside = [False, False]  # A5: the goalkeeper stands outside its goal area
        self.attempt_first = False  # 5.1: the free kick's taker continues from stage 6 with a goal attempt
        self.turn = Turn("", 0, B.CENTRE)


def side(st: MatchState, team: int) -> Side:
    """The team's players on the 13 playing areas and its goalkeeper (a corner taker on its
    spot is on none of them)."""
    ts = st.teams[team]
    return Side(team, tuple(ts.field[: B.N_AREAS]), ts.gk)


def players(st: MatchState, team: int, area: int) -> int:
    """The team's players in `area`, the goalkeeper included (1.1), without FUBA 3's cap of six."""
    return st.teams[team].raw(area)


def style(st: MatchState, team: int, area: int) -> str:
    """A6: the team's playing style in the zone of `area` (seen from the team); "normal" without A6."""
    if not st.uses("A6") or area >= B.N_AREAS:
        return "normal"
    return st.teams[team].spec.styles[B.zone_of(team, area)]

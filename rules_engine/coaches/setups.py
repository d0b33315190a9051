"""The heuristic coach's own set-ups (3.3), built from the registered formation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from .. import board as B
from ..machine import Match
from .style import Style
from .tables import MIRROR, play_area

SETUP_KIND: Final = {"3.3.1": "kick_off", "5.2.1": "free_kick", "5.3.1": "corner", "5.5.1": "penalty"}


# the set-ups built so far, by what they are built from (see build_setup): a team sets up for
# the same kick-off again and again (every goal), in every match of its line-up
_BUILT: Final[dict[tuple[object, ...], tuple[str, dict[str, int]]]] = {}


def build_setup(match: Match, team: int, kind: str, style: Style) -> dict[str, Any]:
    """A set-up (3.3) shaped by the formation, A2 roles and ``style``: the team's own
    kick-off, a crowded box for its free kicks and corners, a packed defence against them."""
    st = match.st
    ts = st.teams[team]
    ct = st.ct == team
    n = ts.outfield()
    d, mi, f = ts.formation
    roles = match.header.teams[team].roles
    if st.uses("A2"):
        am, dm = roles.attacking_midfielders, roles.defending_midfielders
        mi -= am + dm
        f += am
        d += dm
    # everything the set-up depends on (style: only whether its leans are positive)
    key: tuple[object, ...] = (team, kind, ct, n, d, mi, f, st.ball, style.lean > 0, style.attack > 0)
    built = _BUILT.get(key)
    if built is None:
        if len(_BUILT) > 4096:
            _BUILT.clear()
        built = _BUILT[key] = _build(st.ball, team, kind, ct, n, d, mi, f, style)
    gk, players = built
    return {"gk": gk, "players": dict(players)}  # (a copy: the answer goes into the match's log)


def _build(
    ball: int, team: int, kind: str, ct: bool, n: int, d: int, mi: int, f: int, style: Style
) -> tuple[str, dict[str, int]]:
    H = team == B.HOME

    def A(home_name: str) -> int:
        # the same area seen from `team` (home names; mirrored for away)
        a = B.INDEX[home_name]
        return a if H else MIRROR[a]

    own_pen, own_front = A("H-PEN"), A("H-FRONT")
    own_lc, own_rc, own_lm, own_rm = A("H-LC"), A("H-RC"), A("H-LM"), A("H-RM")
    opp_pen, opp_front = A("A-PEN"), A("A-FRONT")
    opp_lm, opp_rm = A("A-LM"), A("A-RM")
    field = [0] * B.N_LOC

    def spread(count: int, areas: Sequence[int]) -> None:
        for i in range(max(0, count)):
            field[areas[i % len(areas)]] += 1

    if kind == "kick_off":
        spread(d, (own_front, own_lc, own_rc))
        spread(mi, (B.CENTRE, own_lm, own_rm))
        spread(f, (B.CENTRE, own_lm, own_rm) if style.lean > 0 else (B.CENTRE,))
        if ct:
            while field[B.CENTRE] < 2:
                src = max((a for a in range(B.N_AREAS) if a != B.CENTRE), key=lambda a: field[a])
                field[src] -= 1
                field[B.CENTRE] += 1
    elif ct:
        # free kick or corner: the taker at the spot, a crowd in the box
        field[ball] += 1
        rest = [d, mi, f]
        push = 4 if kind == "corner" else 3
        attackers = min(push + (1 if style.attack > 0 else 0), f + mi)
        field[opp_pen] += attackers
        field[opp_front] += 2
        back = (own_front, B.CENTRE, opp_lm, opp_rm, own_lc, own_rc)
        spread(sum(rest) - 1 - attackers - 2, back)
    else:
        # defending a set piece: fill the own box and the ball's neighbourhood
        ball_a = play_area(ball)
        field[own_pen] += 3
        field[own_front] += 2
        near = [a for a in B.ADJ[ball_a] if a < B.N_AREAS and a != own_pen] or [own_front]
        spread(2, near)
        spread(sum((d, mi, f)) - 7, (own_lc, own_rc, B.CENTRE, own_lm, own_rm))
    total = sum(field)
    # match the players actually on the pitch (red cards, injuries)
    while total > n:
        src = max(range(B.N_LOC), key=lambda a: (field[a] - (2 if a == ball else 0), -a))
        field[src] -= 1
        total -= 1
    while total < n:
        field[B.CENTRE if kind == "kick_off" else own_front] += 1
        total += 1
    return B.NAMES[own_pen], {B.NAMES[a]: field[a] for a in range(B.N_LOC) if field[a]}

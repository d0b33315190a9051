"""The move kernel both rulebooks share: FUBA 3's ``moves`` and FUBA 2's ``fuba2/moveseq``.

Each rulebook keeps its own parse table (FUBA 2 has no off-pitch destinations) and its own
legality check; what a move is, how a choice names one and how a player shifts live here once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .errors import IllegalEventError
from .state import MatchState

Move = tuple[int, int, bool, bool]  # src, dst, goalkeeper?, with ball?


def parse_move(table: dict[str, Move], gk_table: dict[str, int], gk: int, choice: Any) -> Move | None:
    """The move a choice names (FROM>TO, FROM>TO+ball, GK>TO), or None."""
    if type(choice) is not str:
        return None
    mv = table.get(choice)
    if mv is not None:
        return mv
    dst = gk_table.get(choice)
    if dst is not None:
        return (gk, dst, True, False)
    return None


def not_a_move(choice: Any, rule: str) -> IllegalEventError:
    return IllegalEventError(f"{choice!r} is not a move; write FROM>TO, GK>TO or FROM>TO+ball", rule=rule)


def shift_player(field: list[int], arrived: list[int], src: int, dst: int) -> None:
    """One outfield player from src to dst; arrived counts who came by this sequence (each moves once)."""
    field[src] -= 1
    field[dst] += 1
    arrived[dst] += 1
    if arrived[src] > field[src]:
        arrived[src] = field[src]


Check = Callable[[int, int, bool, bool], str | None]  # why a move is illegal, or None


def verify_move(choice: Any, mv: Move | None, rule: str, check: Check, chaptered: bool) -> None:
    """Refuse a choice that names no move, or an illegal one; ``chaptered``: the check's reasons
    read "chapter: reason" (FUBA 2's) and name their own rule."""
    if mv is None:
        raise not_a_move(choice, rule)
    src, dst, gk, ball = mv  # (not check(*mv): a star call is a generic call under mypyc)
    why = check(src, dst, gk, ball)
    if not why:
        return
    if chaptered:
        rule, _, why = why.partition(": ")
    raise IllegalEventError(f"move {choice} is illegal: {why}", rule=rule)


def move_player(st: MatchState, team: int, mv: Move, arrived: list[int]) -> None:
    """Make a legal move: the goalkeeper, or one outfield player; the ball goes with a dribble."""
    src, dst, gk, ball = mv
    ts = st.teams[team]
    if gk:
        ts.gk = dst
    else:
        shift_player(ts.field, arrived, src, dst)
    if ball:
        st.ball = dst

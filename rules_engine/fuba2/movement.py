"""Rulebook 2.0's action stage order (4.6) and player movement (4.8-4.8.8), as checks of one move.

A ``*_problem`` function returns None for a legal move and otherwise the
reason, quoting the chapter, that the flow turns into the error of the move.
"""

from __future__ import annotations

from typing import Final

from .. import board as B
from .offside import Side, offside_position
from .problems import illegal

DEFENCE: Final = "defence"
MIDFIELD: Final = "midfield"
FORWARD: Final = "forward"
# 4.8, indexed like the formation's lines (tuple[str, ...]: a fixed-length Final tuple is kept
# unboxed by mypyc and boxed anew for every loop over it or read by a computed index)
OPTIONS: Final[tuple[str, ...]] = (DEFENCE, MIDFIELD, FORWARD)
GK_MAX_AREAS: Final = (
    2  # 4.8.4: "it cannot move more than two areas if it is using forward or defence movement"
)


def first_action_team(
    last_first: int, last_moves: tuple[int, int], set_piece_at_start: bool, only_pt_in_target: bool, pt: int
) -> int:
    """4.6: who plays the first action stage.  "The team which played a team
    action stage first in the last turn will take again the first team action
    stage if it moved fewer number of players (exc. the any free movements) in
    the last turn than the opponent. Otherwise the opponent"; the passive team
    first after "a corner kick, kick off, a penalty kick or a free kick" at the
    beginning of the turn, or with only its players in the target area."""
    if set_piece_at_start or only_pt_in_target:
        return pt
    return last_first if last_moves[last_first] < last_moves[1 - last_first] else 1 - last_first


def moves_allowed(formation: tuple[int, int, int], option: str, tired: bool) -> int:
    """4.8.1-4.8.3: as many players as the formation has in the line of the
    option; A1.3: a tired team's formation loses one player in each line."""
    if option not in OPTIONS:
        raise illegal(f"4.8: a movement option is one of {', '.join(OPTIONS)}, not {option!r}")
    return max(0, formation[OPTIONS.index(option)] - (1 if tired else 0))


def _straight_path(team: int, start: int, end: int) -> tuple[int, ...] | None:
    if start == end or B.COL[start] != B.COL[end] or max(start, end) >= B.N_AREAS:
        return None
    ahead = B.beyond(team, end, start)
    if not ahead and not B.beyond(1 - team, end, start):
        return None
    sign = 1.0 if ahead else -1.0
    lo, hi = sign * B.depth_from(team, start), sign * B.depth_from(team, end)
    col = [
        a for a in range(B.N_AREAS) if B.COL[a] == B.COL[start] and lo < sign * B.depth_from(team, a) <= hi
    ]
    return tuple(sorted(col, key=lambda a: sign * B.depth_from(team, a)))


# every straight move of each team, computed once (the board does not change)
_PATHS: Final[tuple[dict[tuple[int, int], tuple[int, ...]], ...]] = tuple(
    {
        (a, b): path
        for a in range(B.N_AREAS)
        for b in range(B.N_AREAS)
        if (path := _straight_path(team, a, b)) is not None
    }
    for team in (B.HOME, B.AWAY)
)
# the areas straight ahead of or behind each area (a forward or defence move's ends)
STRAIGHT_ENDS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(b for b in range(B.N_AREAS) if (a, b) in _PATHS[B.HOME]) for a in range(B.N_AREAS)
)


# the same as a table indexed by team, start and end (no tuple key built for each look-up)
_PATH_TABLE: Final[tuple[tuple[tuple[tuple[int, ...] | None, ...], ...], ...]] = tuple(
    tuple(tuple(_PATHS[team].get((a, b)) for b in range(B.N_AREAS)) for a in range(B.N_AREAS))
    for team in (B.HOME, B.AWAY)
)


def straight_path(team: int, start: int, end: int) -> tuple[int, ...] | None:
    """The areas a straight forward (or backward) move of `team` enters from
    `start` to `end`, in order, `end` last; None if `end` is not straight ahead
    of (or behind) `start`."""
    if 0 <= start < B.N_AREAS and 0 <= end < B.N_AREAS:
        return _PATH_TABLE[team][start][end]
    return None


# the reasons move_problem gives, built once: a move list checks every candidate move and most
# refusals would otherwise format their reason only to learn that the move is illegal
_NOT_STRAIGHT: Final[tuple[str, ...]] = (
    "4.8.3: a defence move goes straight backwards",
    "4.8.2: a forward move goes straight forward",
)
_STOPS_IN: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(
        f"{chapter}: the move stops in {B.NAMES[area]}, where the opponent has more players"
        for area in range(B.N_AREAS)
    )
    for chapter in ("4.8.3", "4.8.2")
)

# (read by moveseq's own copy of move_problem)
PATH_TABLE: Final = _PATH_TABLE
NOT_STRAIGHT: Final = _NOT_STRAIGHT
STOPS_IN: Final = _STOPS_IN


def move_problem(
    own: Side, opp: Side, option: str, start: int, end: int, goalkeeper: bool, ball: int, offside: bool = True
) -> str | None:
    """One player's move of the chosen option (4.8.1-4.8.5), on the board as it
    stands before the move.  ``offside``: the mover is the controlling team, the
    only one whose players can be in an offside position (4.1.1)."""
    if option == MIDFIELD:
        if end not in B.ADJ_SET[start] or end >= B.N_AREAS:
            return "4.8.1: a midfield move goes to an adjacent area"
        if B.COL[start] == B.COL[end]:
            return "4.8.1: a midfield move goes sideways or diagonally, not straight forward or backwards"
    else:
        forward = option == FORWARD
        path = straight_path(own.team, start, end)
        if path is None or B.beyond(own.team, end, start) != forward:
            if option == DEFENCE or forward:
                return _NOT_STRAIGHT[1 if forward else 0]
            where = "straight forward" if forward else "straight backwards"
            return f"4.8.{2 if forward else 3}: a {option} move goes {where}"
        if goalkeeper and len(path) > GK_MAX_AREAS:
            return "4.8.4: the goalkeeper moves at most two areas"
        for i in range(len(path) - 1):  # (the areas the move crosses, its end excluded)
            area = path[i]
            if opp.players(area) > own.players(area):
                return _STOPS_IN[1 if forward else 0][area]
    backward = B.backward(own.team, start, end)
    if offside and not backward and offside_position(opp, end, ball):
        return "4.8.5: a player cannot be moved into an offside position"
    return None


def free_move_problem(own: Side, start: int, end: int, ball: int) -> str | None:
    """4.8.7: a player "in an area touching either goal line, can be moved
    straight forward/backward one area away from the goal line ... cannot
    however move to an area where the ball is currently located"; goalkeepers
    and players moved this turn are the flow's to refuse."""
    if not B.away_from_goal_line(start, end) or own.players(start, with_gk=False) == 0:
        return "4.8.7: a free move goes straight one area away from a goal line"
    if end == ball:
        return "4.8.7: a free move cannot go into the ball's area"
    return None


def dribble_problem(opp: Side, start: int, end: int, dribbled: bool) -> str | None:
    """4.8.8: "The ball can be moved (dribbled) with a player from one area to an
    adjacent area once in the movement stage, but only if this movement starts
    from an area where there are no passive team players" (the move itself
    follows the chosen option: ``move_problem``)."""
    if dribbled:
        return "4.8.8: the ball is dribbled once in a movement stage"
    if end not in B.ADJ_SET[start]:
        return "4.8.8: the ball is dribbled to an adjacent area"
    if opp.players(start):
        return "4.8.8: the ball is dribbled only from an area without passive team players"
    return None


def ball_kept_problem(ct: Side, ball: int) -> str | None:
    """4.8.9: "The controlling team must always have at least one player in the
    same area as the ball after the team has finished its moves"."""
    return (
        None
        if ct.players(ball)
        else "4.8.9: the controlling team ends its moves with a player beside the ball"
    )


GOALKEEPER: Final = -1  # the goalkeeper as a candidate of closest_players


def closest_players(s: Side, target: int, started_passive: bool) -> tuple[int, ...]:
    """4.4.2: the areas a team with the ball but no player in the target area may
    move its player from: "it must move its closest player" (any of several at the
    same distance; the goalkeeper counts, 1.1, and is named ``GOALKEEPER``).  "The
    team which started the turn as a passive team, but got the ball control, can
    choose to move their second closest player if the goalkeeper is currently the
    closest player"."""
    dist = B.DIST[target]
    outfield = sorted((dist[a], a) for a in range(B.N_AREAS) if s.field[a])
    gk = dist[s.gk]
    near = outfield[0][0] if outfield else None
    if near is None or gk < near:
        second = tuple(a for d, a in outfield if d == near) if started_passive and near is not None else ()
        return (GOALKEEPER, *second)
    return tuple(a for d, a in outfield if d == near) + ((GOALKEEPER,) if gk == near else ())

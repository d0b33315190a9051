"""Rulebook 2.0's set-ups: kick-off (3.2, 3.2.1), free kick (5.1.1), corner
kick (5.2.1) and penalty kick (5.5.1), as checks of a side's placement.

A ``*_problem`` function returns None for a legal placement and otherwise the
reason, quoting the chapter.  How many players a side has (red cards,
injuries) is the flow's to check.
"""

from __future__ import annotations

from typing import Final

from .. import board as B
from .offside import Side
from .problems import illegal

KICK_OFF_CENTRE: Final = 2  # 3.2.1: "The controlling team must place two players in the middle area"
ADJUSTMENTS: Final = 2  # 3.2: "moving 0-2 players up to one area from their initial starting area"


def kick_off_chooser(home_die: int, away_die: int) -> int | None:
    """3.1: "Both teams roll a die. The team with the higher result chooses which
    team will start with the ball"; None on equal dice: rolled again (I2-13)."""
    for d in (home_die, away_die):
        if not 1 <= d <= 6:
            raise illegal(f"3.1: a die shows 1-6, not {d}")
    if home_die == away_die:
        return None
    return B.HOME if home_die > away_die else B.AWAY


def second_half_kick_off(first_half: int) -> int:
    """4.3.2: "The team that started the first half as the controlling team now
    starts as the passive team"."""
    return 1 - first_half


def kick_off_problem(s: Side, kicking: bool) -> str | None:
    """3.2.1: outfield players "in any area that is at least partly in the team's
    half", "The goalkeeper is placed in the team's penalty area", and the
    controlling team's two players "in the middle area (the centre circle)"."""
    if s.gk != B.PEN[s.team]:
        return "3.2.1: the goalkeeper is set up in its own penalty area"
    for area in range(B.N_AREAS):
        if s.field[area] and not B.in_own_half_partly(s.team, area):
            return f"3.2.1: {B.NAMES[area]} is not in the team's half"
    if kicking and s.field[B.CENTRE] < KICK_OFF_CENTRE:
        return "3.2.1: the team kicking off places two players in the centre area"
    return None


def adjustment_problem(before: Side, after: Side) -> str | None:
    """3.2: after the passive team's set-up the controlling team may move "0-2
    players up to one area ... The players new position must still fill the
    setup rules" (checked with the set-up's own function)."""
    if after.gk != before.gk:
        return "3.2: the goalkeeper stays in its penalty area"
    gone = [a for a in range(B.N_AREAS) for _ in range(max(0, before.field[a] - after.field[a]))]
    came = [a for a in range(B.N_AREAS) for _ in range(max(0, after.field[a] - before.field[a]))]
    if len(gone) != len(came):
        return "3.2: the adjustment moves players, it does not add or remove them"
    if len(came) > ADJUSTMENTS:
        return "3.2: at most two players are moved after the passive team's set-up"
    if not _one_area_each(gone, came):
        return "3.2: each adjusted player moves to an adjacent area"
    return None


def _one_area_each(gone: list[int], came: list[int]) -> bool:
    """Can the moved players be paired so that each goes to an adjacent area (at most two pairs)?"""
    if not gone:
        return True
    first = gone[0]
    for i, dest in enumerate(came):
        if dest in B.ADJ_SET[first] and _one_area_each(gone[1:], came[:i] + came[i + 1 :]):
            return True
    return False


def free_kick_problem(ct: Side, pt: Side, area: int) -> str | None:
    """5.1.1: "One player must be placed in the area where the free kick is
    awarded" and "The passive team must set up at least one player in an area
    that is closer to their own goal line than the area from which the free
    kick will be taken (if possible)" (impossible only from its goal-line areas)."""
    if ct.players(area) == 0:
        return f"5.1.1: a player of the team taking the free kick stands in {B.NAMES[area]}"
    behind = [a for a in range(B.N_AREAS) if B.beyond(1 - pt.team, a, area)]
    if behind and not any(pt.players(a) for a in behind):
        return f"5.1.1: the passive team sets up a player closer to its goal line than {B.NAMES[area]}"
    return None


def corner_problem(ct: Side, spot: int, taker_in_spot: bool) -> str | None:
    """5.2.1: "One player from the controlling team must be placed in the corner
    to take the corner kick" (a spot of the passive team's end, 5.2)."""
    if spot not in B.attack_corner_spots(ct.team):
        return "5.2: the corner kick is taken from a corner of the passive team's end"
    return None if taker_in_spot else "5.2.1: one player stands in the corner to take the corner kick"


def penalty_problem(ct: Side, pt: Side) -> str | None:
    """5.5.1: the controlling team "sets up the ball and one player on the
    penalty spot. The passive team sets up the goalkeeper on the goal line. No
    other players can be placed or moved into the passive team's penalty area"."""
    pen = B.PEN[pt.team]
    if ct.players(pen) != 1:
        return "5.5.1: one player of the team taking the penalty stands on the penalty spot"
    if pt.gk != pen or pt.field[pen]:
        return "5.5.1: only the passive team's goalkeeper stands in its penalty area"
    return None

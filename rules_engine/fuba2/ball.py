"""The ball in rulebook 2.0: the target area (4.1), the control check (4.4),
the new ball value (4.5), the ball value adjustment (4.9) and pressing (4.9.1).

Every function is a pure computation; the turn's flow asks the decisions and
rolls the dice.
"""

from __future__ import annotations

from typing import Final

from .. import board as B
from .offside import Side, offside_position, second_last_area
from .problems import illegal

MIN_VALUE: Final = 1
MAX_VALUE: Final = 6


def target_areas(ct: Side, pt: Side, start: int, offside_applies: bool, free_kick: bool) -> tuple[int, ...]:
    """4.1: the areas the controlling team may play the ball into: ``target_area_ok`` of every
    area, as bit masks of areas (the team's players, the offside positions of 4.1.1)."""
    n_areas = B.N_AREAS
    cf, cg = ct.field, ct.gk
    ours = 0  # the areas with a player of the controlling team (ct.players)
    for a in range(n_areas):
        if cf[a] or cg == a:
            ours |= 1 << a
    team = ct.team
    # offside_position(pt, a, start) of every area, the second-last area found once
    off = 0
    if offside_applies:
        sl = second_last_area(pt)
        if sl is not None:
            at = 1 - pt.team
            beyond = _BEYOND[at]
            off = _OFFSIDE_AREAS[at] & beyond[B.CORNER_OF_SPOT.get(start, start)] & beyond[sl]
    own_half = _OWN_HALF[team]
    out: list[int] = []
    for area in range(n_areas):
        if free_kick and area == start and cf[start] + (1 if cg == start else 0) < 2:
            continue  # (also when no player is near: refused either way)
        near = ours & (_NEAR[area])
        if not near:
            continue
        if offside_applies and not own_half[area]:
            if ours >> area & 1:
                if off >> area & 1:
                    continue
            elif not near & ~off:
                continue  # every player next to it is offside
        out.append(area)
    return tuple(out)


# the area and its adjacent playing areas, as a bit mask (target_areas)
_NEAR: Final[tuple[int, ...]] = tuple(
    1 << s | sum(1 << a for a in B.ADJ[s] if a < B.N_AREAS) for s in range(B.N_AREAS)
)
# for the team attacking: the areas an offside position can be in (not the centre, in the
# opponent's half entirely), and by area b the areas beyond b
_OFFSIDE_AREAS: Final[tuple[int, ...]] = tuple(
    sum(1 << a for a in range(B.N_AREAS) if a != B.CENTRE and B.in_opp_half_entirely(t, a)) for t in (0, 1)
)
_BEYOND: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sum(1 << a for a in range(B.N_AREAS) if B.beyond(t, a, b)) for b in range(B.N_AREAS))
    for t in (0, 1)
)
# _own_half(team, area) of every area
_OWN_HALF: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(B.in_opp_half_entirely(1 - t, a) for a in range(B.N_AREAS)) for t in (0, 1)
)


def target_area_ok(ct: Side, pt: Side, start: int, area: int, offside_applies: bool, free_kick: bool) -> bool:
    """4.1: may the controlling team play the ball into `area`?

    "any area where the team has a player or an area adjacent to such an area";
    not "a target area where it has a player in an offside position or where it
    has no players and all its players in adjacent areas are in offside
    positions".  ``offside_applies`` is False at a goal kick and a corner kick
    (4.1.1); the offside rule also does not apply to a target "fully in the
    controlling team's own half".  After a free kick the start area is a target
    only with two of the team's players in it (5.1).
    """
    near = [a for a in (area, *B.ADJ[area]) if a < B.N_AREAS and ct.players(a)]
    if not near or (free_kick and area == start and ct.players(start) < 2):
        return False
    if offside_applies and not _own_half(ct.team, area):
        if ct.players(area):
            return not offside_position(pt, area, start)
        return not all(offside_position(pt, a, start) for a in near)
    return True


def _own_half(team: int, area: int) -> bool:
    return B.in_opp_half_entirely(1 - team, area)


class ControlCheck:
    """4.4: whether the controlling team keeps the ball, and whether a special event is rolled first.

    Read-only; a plain class rather than a frozen dataclass: one is made every turn and the
    compiled engine (mypyc) builds a native class's own ``__init__`` many times faster."""

    __slots__ = (
        "kept",
        "special_event",
    )

    def __init__(self, kept: bool, special_event: bool) -> None:
        self.kept: Final = kept
        self.special_event: Final = special_event

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ControlCheck):
            return NotImplemented
        return (
            self.kept,
            self.special_event,
        ) == (
            other.kept,
            other.special_event,
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.kept,
                self.special_event,
            )
        )

    def __repr__(self) -> str:
        return f"ControlCheck(kept={self.kept!r}, special_event={self.special_event!r})"


def control_check(ct_die: int, value: int, automatic: bool) -> ControlCheck:
    """4.4: "If the die value is higher than the ball die value, the controlling
    team remains in control"; lower turns the ball over; equal rolls a special
    event, after which "The controlling team retains ball control ... unless
    otherwise noted" (4.4.3).  ``automatic``: the target area holds the
    controlling team's players and none of the passive team's (4.4.1), or the
    opponent's pressing failed last turn (4.9.1); "Special events might occur".
    """
    _check_value(value)
    if ct_die == value:
        return ControlCheck(True, True)
    return ControlCheck(automatic or ct_die > value, False)


def automatic_pass(ct: Side, pt: Side, target: int) -> bool:
    """4.4.1: "If the passive team has no player in the target area and the
    controlling team has at least one player"."""
    return pt.players(target) == 0 and ct.players(target) > 0


def long_pass_areas(start: int, target: int) -> int:
    """4.5.2: "each area between the area where the ball starts and the target
    area"; a corner spot is an area of its own for a corner kick (5.2)."""
    d = B.DIST[start][target]
    return d - 1 if d > 1 else 0


class NewValue:
    """4.5: the ball value after the control check, and whether the ball changed hands.

    Read-only; a plain class rather than a frozen dataclass: one is made every turn and the
    compiled engine (mypyc) builds a native class's own ``__init__`` many times faster."""

    __slots__ = (
        "turnover",
        "value",
    )

    def __init__(self, value: int, turnover: bool) -> None:
        self.value: Final = value
        self.turnover: Final = turnover

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NewValue):
            return NotImplemented
        return (
            self.value,
            self.turnover,
        ) == (
            other.value,
            other.turnover,
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.value,
                self.turnover,
            )
        )

    def __repr__(self) -> str:
        return f"NewValue(value={self.value!r}, turnover={self.turnover!r})"


def new_ball_value(
    ct_die: int,
    pt_die: int,
    kept: bool,
    between: int,
    pt_in_start: bool,
    set_piece: bool,
    special: int,
) -> NewValue:
    """4.5.1-4.5.4: the new ball value.

    Kept: the passive team's die, +1 per area between start and target
    (4.5.2), -1 when the passive team has nobody in the start area unless a
    free kick, corner kick or goal kick is taken (4.5.3), plus the special
    event's ball value step (4.4.3), all "applied simultaneously".  Above 6 the
    ball goes to the passive team (4.5.4); whenever the ball changes hands the
    new value is the die of the new passive team, the former controlling team
    (4.5.1).  Not below 1: the ball die has no lower face (I2-4).
    """
    for d in (ct_die, pt_die):
        if not 1 <= d <= 6:
            raise illegal(f"4.2: a die shows 1-6, not {d}")
    if not kept:
        return NewValue(ct_die, True)
    v = pt_die + between + special - (0 if pt_in_start or set_piece else 1)
    if v > MAX_VALUE:
        return NewValue(ct_die, True)
    return NewValue(max(MIN_VALUE, v), False)


def adjusted_value(value: int, ct_players: int, pt_players: int) -> int:
    """4.9: after a team's moves, the controlling team's surplus of players in
    the ball area lowers the value by the difference "but only by a maximum of
    2 and not below 1"; a deficit raises it, at most 2 and not above 6.  The
    goalkeeper counts (1.1)."""
    _check_value(value)
    diff = ct_players - pt_players
    if diff > 0:
        return max(MIN_VALUE, value - min(diff, 2))
    if diff < 0:
        return min(MAX_VALUE, value + min(-diff, 2))
    return value


def can_press(pt_players_in_ball_area: int, before_goal_kick: bool) -> bool:
    """4.9.1: "The team must have at least one player in the area where the ball
    exists"; 5.3: before a goal kick is taken the passive team "cannot try to press"."""
    return pt_players_in_ball_area > 0 and not before_goal_kick


# A5: a goalkeeper out of its goal area "will give -1 modifier for pressing die rolls"
A5_PRESSING: Final = -1


def pressing_die(die: int, gk_outside_goal_area: bool) -> int:
    """A5: the pressing team's die with its goalkeeper outside the goal area
    (the sweeping keeper helps its own pressing, I2-14); a 1 stays 1."""
    return max(1, die + A5_PRESSING) if gk_outside_goal_area else die


def pressing_wins(die: int, value: int) -> bool:
    """4.9.1: "If the die value is lower than the ball value, then the team gets
    the ball control"; the die becomes the new ball value.  Otherwise the
    opponent passes its next control check automatically."""
    _check_value(value)
    if not 1 <= die <= 6:
        raise illegal(f"4.9.1: a die shows 1-6, not {die}")
    return die < value


def _check_value(value: int) -> None:
    if not MIN_VALUE <= value <= MAX_VALUE:
        raise illegal(f"4.5: a ball value is 1-6, not {value}")

"""Rulebook 2.0's advanced rules on the players' condition: A1 condition points
and tiredness, A2 the players' roles, A3 the fresh player, A4 the injury roll.

Points are per zone of the formation: (defence, midfield, forward), indexed
like ``board.ZONE_NAMES``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from .problems import bad_header, illegal

Points = tuple[int, int, int]

MAX_ZONE_POINTS: Final = 6  # A3 note **: "Condition points cannot be increased above 6 in any zone"
TIREDNESS_ROLLS: Final = 3  # A1.2: "A team can lose 0-3 points in one tiredness test"

# A2: the roles and the zone a point leaves -> the zone it joins; the most a team may name
ATTACKING_MIDFIELDER: Final = "attacking_midfielder"
DEFENDING_MIDFIELDER: Final = "defending_midfielder"
ATTACKING_CENTRE_BACK: Final = "attacking_centre_back"
WITHDRAWN_STRIKER: Final = "withdrawn_striker"
OFFENSIVE_WING_BACK: Final = "offensive_wing_back"
ROLE_SHIFT: Final[dict[str, tuple[int, int]]] = {
    # "one point is removed from the midfield condition and added to the forward condition" ...
    ATTACKING_MIDFIELDER: (1, 2),
    DEFENDING_MIDFIELDER: (1, 0),
    ATTACKING_CENTRE_BACK: (0, 1),
    WITHDRAWN_STRIKER: (2, 1),
    OFFENSIVE_WING_BACK: (0, 2),
}
ROLE_LIMIT: Final[dict[str, int]] = {ATTACKING_CENTRE_BACK: 1, WITHDRAWN_STRIKER: 1, OFFENSIVE_WING_BACK: 2}


def check_formation(formation: Points) -> None:
    """2.1: "The total number of outfield players must still be 10"."""
    if min(formation) < 0 or sum(formation) != 10:
        raise bad_header(f"2.1: a formation has 10 outfield players, not {'-'.join(map(str, formation))}")


def initial_points(formation: Points, roles: dict[str, int]) -> Points:
    """A1 and A2: at the start each zone has as many points as the formation has
    players in that line; each role moves one point between zones."""
    check_formation(formation)
    pts = list(formation)
    for role, n in roles.items():
        if role not in ROLE_SHIFT:
            raise bad_header(f"A2: no player role {role!r}")
        src, dst = ROLE_SHIFT[role]
        if n < 0 or n > ROLE_LIMIT.get(role, formation[src]):
            shape = "-".join(map(str, formation))
            raise bad_header(f"A2: {n} {role.replace('_', ' ')}s is not allowed in a {shape}")
        pts[src] -= n
        pts[dst] += n
    # a line's players can take one role each (a midfielder attacks or defends, a defender is one back)
    from_line = [0, 0, 0]
    for role, n in roles.items():
        from_line[ROLE_SHIFT[role][0]] += n
    for line, n in enumerate(from_line):
        if n > formation[line]:
            raise bad_header(f"A2: {n} roles named for the {formation[line]} players of one line")
    return pts[0], pts[1], pts[2]


@dataclass(frozen=True, slots=True)
class TirednessTest:
    """A1.2: the points a team loses in one tiredness test and the dice it rolled for it."""

    points_lost: int
    rolls_used: int


def tiredness_test(rolls: tuple[int, ...], game_minute: int, modifier: int) -> TirednessTest:
    """A1.2: "The die result is multiplied by 10. If the result is higher or equal
    to the current game time ... that team passes"; each failure loses a point
    and adds another die ("added to the previous result"), three at most.
    ``modifier`` is A6's +1/-1 "to each die" (aggressive/easy style of the
    target area's zone); ``rolls`` holds at least the dice the test uses.
    The text's ">=" is kept against the worked example's "79 is required" at
    the 78th minute (I2-3)."""
    total = 0
    for used, die in enumerate(rolls[:TIREDNESS_ROLLS], start=1):
        if not 1 <= die <= 6:
            raise illegal(f"A1.2: a tiredness die shows 1-6, not {die}")
        total += die + modifier
        if total * 10 >= game_minute:
            return TirednessTest(used - 1, used)
    if len(rolls) < TIREDNESS_ROLLS:
        raise illegal(f"A1.2: the tiredness test needs another die after {len(rolls)}")
    return TirednessTest(TIREDNESS_ROLLS, TIREDNESS_ROLLS)


def first_lost_point_zone(points: Points, target_zone: int) -> int | None:
    """A1.2: "The first point must be reduced from the zone ... in which the
    target area is located unless there are already no points any longer
    available for that zone"; None: the team chooses (I2-7)."""
    return target_zone if points[target_zone] > 0 else None


def tired_formation(formation: Points) -> Points:
    """A1.3: "One players is deducted from each position of the original
    formation" for the number of moves (4.8), e.g. 4-4-2 moves as 3-3-1."""
    return max(0, formation[0] - 1), max(0, formation[1] - 1), max(0, formation[2] - 1)


def condition_point_moves(die: int, zone_players: int) -> int:
    """A1.1: with a condition point the moves are "based on: the result of the
    die rolled; the number of players in the formation in the zone"; the table
    is missing from both texts: the lower of the two (I2-8)."""
    if not 1 <= die <= 6:
        raise illegal(f"A1.1: a die shows 1-6, not {die}")
    return min(die, zone_players)


def add_points(points: Points, zone: int, n: int) -> Points:
    """A3 note **: points are added up to 6 in a zone."""
    pts = list(points)
    pts[zone] = min(MAX_ZONE_POINTS, pts[zone] + n)
    return pts[0], pts[1], pts[2]


def fresh_player_points(die1: int, die2: int, game_minute: int) -> int:
    """A3 "Fresh player introduced onto the field": "Roll two dice and multiply
    the result by 10. If the result is higher than current game time, then add
    one point ... Otherwise add two points"."""
    for d in (die1, die2):
        if not 1 <= d <= 6:
            raise illegal(f"A3: a die shows 1-6, not {d}")
    return 1 if (die1 + die2) * 10 > game_minute else 2


INJURY_OUT_FOR_GOOD: Final = -1


def injury_turns_out(die: int, modifier: int) -> int:
    """A4 injury roll: the turns the player misses before he "returns to the
    game at the beginning of the ... movement stage" in the centre circle area:
    1 -> 0 (back next turn), 2 -> 1, 3 -> 2, 4+ -> INJURY_OUT_FOR_GOOD.
    ``modifier``: A6's +1 aggressive / -1 easy; a result below 1 reads as 1 (I2-6)."""
    if not 1 <= die <= 6:
        raise illegal(f"A4: a die shows 1-6, not {die}")
    result = max(1, die + modifier)
    return INJURY_OUT_FOR_GOOD if result >= 4 else result - 1


MAX_SUBSTITUTIONS: Final = 3  # A3: "up to three times during a game"
FORMATION_CHANGE: Final = "formation_change"
REMOVE_YELLOW: Final = "remove_yellow"
FRESH_PLAYER: Final = "fresh_player"
SUBSTITUTIONS: Final = (FORMATION_CHANGE, REMOVE_YELLOW, FRESH_PLAYER)


def substitution_problem(kind: str, made: int, yellows: int, after_injury: bool) -> str | None:
    """A3: "A team can perform a player substitution up to three times during a
    game" with one of three options; "Remove one yellow card" needs a booked
    player; after an injury "The substitution type must be a fresh player" (A4)."""
    if kind not in SUBSTITUTIONS:
        return f"A3: a substitution is one of {', '.join(SUBSTITUTIONS)}"
    if made >= MAX_SUBSTITUTIONS:
        return "A3: a team makes at most three substitutions"
    if kind == REMOVE_YELLOW and yellows == 0:
        return "A3: the team has no yellow card to remove"
    if after_injury and kind != FRESH_PLAYER:
        return "A4: the substitution after an injury brings on a fresh player"
    return None


def formation_change_points(points: Points, to_zone: int, second_half: bool) -> Points:
    """A3 note *: "A formation change does not affect the available number of
    condition points. If the change is done in the second half, then one
    condition point is added to the area where the formation is strengthened"."""
    return add_points(points, to_zone, 1) if second_half else points

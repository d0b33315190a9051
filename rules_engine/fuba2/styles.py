"""A6 playing styles of rulebook 2.0: a team attribute per line of its formation.

"Teams choose their playing style for each area of the formation: defence,
midfield and forwards.  Each of these areas must use one of following playing
styles: easy, normal or aggressive."  The style that counts is always the one
of the zone of the target area (seen from the team), so every function here
takes that style.
"""

from __future__ import annotations

from typing import Final

from .problems import bad_header, illegal

EASY: Final = "easy"
NORMAL: Final = "normal"
AGGRESSIVE: Final = "aggressive"
STYLES: Final = (EASY, NORMAL, AGGRESSIVE)


def check_style(style: str) -> None:
    if style not in STYLES:
        raise bad_header(f"A6: a playing style is one of {', '.join(STYLES)}, not {style!r}")


def special_event_dice(style: str) -> int:
    """How many dice the team rolls for its special event die (A6): two for an
    aggressive or easy style ("rolls two dice and ignores the result of the
    lowest/highest die"), one otherwise."""
    check_style(style)
    return 1 if style == NORMAL else 2


def special_event_die(style: str, dice: tuple[int, ...]) -> int:
    """The team's special event die (4.4.3) from the dice it rolled (A6):
    aggressive keeps the highest of two, easy the lowest, normal its one die."""
    want = special_event_dice(style)
    if len(dice) != want:
        raise illegal(f"A6: the {style} style rolls {want} special event dice, not {len(dice)}")
    if style == AGGRESSIVE:
        return max(dice)
    if style == EASY:
        return min(dice)
    return dice[0]


def die_modifier(style: str) -> int:
    """A6's modifier of the injury die and of each tiredness test die:
    "one is added" for aggressive, "one is reduced" for easy."""
    check_style(style)
    return {EASY: -1, NORMAL: 0, AGGRESSIVE: 1}[style]

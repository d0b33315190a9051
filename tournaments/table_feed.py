"""A knockout fed by a table's places (a league, Swiss rounds or a league phase), as pure functions.

A fed knockout takes a band of places (``from_place``..``to_place``) of its feeder's final table and
seeds them by place. A play-off band below it (the 2024/25 Champions League: places 1–8 direct,
9–24 to a two-legged play-off) sends its tie winners into the same bracket: the winner of the
play-off tie headed by place ``q`` takes seed ``q``. UEFA draws within pairs of places (regulations
2024/25, art. 19.02–19.03: 9 or 10 v 23 or 24, and 1 or 2 v the winner of 15/16 v 17/18); here
the pairs are folded instead of drawn (9 v 24, 10 v 23 … 16 v 17; 1 v the winner of 16 v 17,
2 v the winner of 15 v 18 … 8 v the winner of 9 v 24), which is one of UEFA's possible outcomes
and needs no draw (docs/rules-interpretations.md, "Knockout fed by a table").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tournaments.fixtures import is_power_of_two, seeded_bracket_order


@dataclass(frozen=True)
class Band:
    """Places ``first``..``last`` (1-based, inclusive) of a table."""

    first: int
    last: int

    @property
    def size(self) -> int:
        return self.last - self.first + 1

    def __contains__(self, place: object) -> bool:
        return isinstance(place, int) and self.first <= place <= self.last


def band_problem(*, band: Band, table_size: int | None) -> str | None:
    """Why the band cannot be taken from a table of ``table_size`` teams (None: it can)."""
    if band.first < 1:
        return "the first place is 1 or more"
    if band.last <= band.first:
        return f"places {band.first} to {band.last}: the last place comes after the first"
    if table_size is not None and table_size and band.last > table_size:
        return f"place {band.last} does not exist in a table of {table_size} teams"
    return None


def playoff_problem(*, direct: Band, playoff: Band, playoff_rounds: int) -> str | None:
    """Why a play-off band cannot send its winners into the bracket of the ``direct`` band."""
    if playoff.first != direct.last + 1:
        return (
            f"the play-off's places start right after the direct places: at {direct.last + 1}, "
            f"not {playoff.first}"
        )
    if playoff.size % 2:
        return f"the play-off takes an even number of places, not {playoff.size}"
    if playoff_rounds != 1:
        return "the play-off plays one round (set its rounds to 1)"
    bracket = direct.size + playoff.size // 2
    if not is_power_of_two(bracket):
        return (
            f"{direct.size} direct places + {playoff.size // 2} play-off winners = {bracket}, "
            "which is not a knockout of 2, 4, 8, 16 … teams"
        )
    return None


def playoff_pairs(band: Band) -> list[tuple[int, int]]:
    """The play-off's ties by place, the seeded (higher) place first: first v last, and so in."""
    return [(band.first + i, band.last - i) for i in range(band.size // 2)]


def bracket_places(*, direct: Band, playoff: Band | None) -> list[tuple[int, int]]:
    """The first round's ties as (seed, seed), the higher seed first, in bracket order.

    Seeds are table places counted from the direct band's first place; a play-off winner is named
    by the place that headed its tie. Without a play-off the band is one seeded bracket, and the
    top seeds have byes when it is not a power of two (a seed beyond the field is 0: a bye).
    """
    field = direct.size + (playoff.size // 2 if playoff else 0)
    size = 2
    while size < field:
        size *= 2
    order = seeded_bracket_order(size)
    seeds = [s if s <= field else 0 for s in order]
    places = [direct.first + s - 1 if s else 0 for s in seeds]
    return [(places[i], places[i + 1]) for i in range(0, size, 2)]


def cut_ties(
    *, positions: Sequence[tuple[int, bool]], cuts: Sequence[int], seeded: Band | None = None
) -> list[tuple[int, int]]:
    """Pairs of places (p, p + 1) still level where it matters.

    ``positions`` are the table's (place, level with the place above) in order; ``cuts`` the
    places after which the table is cut (8: places 8 and 9 go different ways). Within ``seeded``
    (the fed places) every pair matters, since the place decides the opponent and the home leg.
    """
    out = []
    for place, level in positions:
        if not level or place < 2:
            continue
        above = place - 1
        if above in cuts or (seeded is not None and above in seeded and place in seeded):
            out.append((above, place))
    return out


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"

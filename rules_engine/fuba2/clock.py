"""Rulebook 2.0 stages 2 and 3: the two teams' dice (4.2) and the time (4.3, 4.3.1, 4.3.2).

The time track: square 1 starts the first half and square 46 the second
(3.3, 4.3.2); the 45th/90th minute is followed by the stoppage squares +1..+5
(the "yellow numbers").  A position is (minute, stoppage): ``stoppage`` is 0
before the stoppage time and 1..5 on the yellow squares, where ``minute``
stays at the half's last minute (45 or 90).
"""

from __future__ import annotations

from typing import Final

from .problems import illegal

HALF_MINUTES: Final = 45
LAST_STOPPAGE: Final = 5  # "When the time marker reaches the +5 square the half is finished"
TIREDNESS_MINUTES: Final = 5  # "moved 5 or more squares in a turn" (4.3, A1.2)


def first_square(half: int) -> int:
    """Where the time marker starts a half (3.3: "square 1 ... square 46 in the second half")."""
    if half not in (1, 2):
        raise illegal(f"4.3.2: a match has halves 1 and 2, not {half}")
    return 1 if half == 1 else HALF_MINUTES + 1


def last_minute(half: int) -> int:
    """The half's last minute before its stoppage time (4: "45 minutes plus a random stoppage")"""
    first_square(half)
    return HALF_MINUTES * half


class TimeStep:
    """What stage 3 (4.3) does with the time marker in one turn.

    Read-only; a plain class rather than a frozen dataclass: one is made every turn and the
    compiled engine (mypyc) builds a native class's own ``__init__`` many times faster."""

    __slots__ = (
        "carried",
        "half_ends_after_turn",
        "half_ends_now",
        "minute",
        "moved",
        "stoppage",
        "tiredness_test",
    )

    def __init__(
        self,
        minute: int,
        stoppage: int,
        moved: int,
        carried: int,
        half_ends_now: bool,
        half_ends_after_turn: bool,
        tiredness_test: bool,
    ) -> None:
        self.minute: Final = minute  # the marker's minute after the move
        self.stoppage: Final = stoppage  # 0, or the yellow square 1..5 the marker stands on
        self.moved: Final = moved  # squares moved this turn (extra minutes included)
        self.carried: Final = carried  # extra minutes owed to the next turn with a difference above 0
        self.half_ends_now: Final = (
            half_ends_now  # 4.3.1: "the half ends immediately. The rest of the stages are not played"
        )
        self.half_ends_after_turn: Final = (
            half_ends_after_turn  # 4.3.1: the +5 square: "the half is finished at the end of turn"
        )
        self.tiredness_test: Final = tiredness_test  # 4.3 / A1.2: moved 5 or more squares

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TimeStep):
            return NotImplemented
        return (
            self.minute,
            self.stoppage,
            self.moved,
            self.carried,
            self.half_ends_now,
            self.half_ends_after_turn,
            self.tiredness_test,
        ) == (
            other.minute,
            other.stoppage,
            other.moved,
            other.carried,
            other.half_ends_now,
            other.half_ends_after_turn,
            other.tiredness_test,
        )

    def __hash__(self) -> int:
        return hash(
            (
                self.minute,
                self.stoppage,
                self.moved,
                self.carried,
                self.half_ends_now,
                self.half_ends_after_turn,
                self.tiredness_test,
            )
        )

    def __repr__(self) -> str:
        fields = (
            self.minute,
            self.stoppage,
            self.moved,
            self.carried,
            self.half_ends_now,
            self.half_ends_after_turn,
        )
        return f"TimeStep{(*fields, self.tiredness_test)!r}"


def dice_difference(ct_die: int, pt_die: int) -> int:
    """4.3: "the difference of the teams dice scores"."""
    for d in (ct_die, pt_die):
        if not 1 <= d <= 6:
            raise illegal(f"4.2: a die shows 1-6, not {d}")
    return abs(ct_die - pt_die)


def advance_time(half: int, minute: int, stoppage: int, carried: int, ct_die: int, pt_die: int) -> TimeStep:
    """Stage 3 of a turn (4.3, 4.3.1).

    Before the stoppage time the marker moves by the dice difference; a
    difference of 0 moves nothing and owes one extra minute to the next turn
    whose difference is above 0 ("If the dice differences are 0 more than once
    in a row, then all extra minutes are added").  The marker stops on the first
    stoppage square however far it should go.  In the stoppage time it moves one
    square a turn, and a difference below the yellow number of its square ends
    the half at once (interpretation I2-2: the owed minutes no longer count).
    """
    diff = dice_difference(ct_die, pt_die)
    end = last_minute(half)
    if not first_square(half) <= minute <= end or not 0 <= stoppage <= LAST_STOPPAGE or carried < 0:
        raise illegal(f"4.3: no time square {minute}+{stoppage} in half {half} (carrying {carried})")
    if stoppage == LAST_STOPPAGE:
        raise illegal("4.3.1: the half is over on the +5 square")
    if stoppage:
        if diff < stoppage:
            return TimeStep(minute, stoppage, 0, 0, True, False, False)
        return TimeStep(minute, stoppage + 1, 1, 0, False, stoppage + 1 == LAST_STOPPAGE, False)
    if diff == 0:
        return TimeStep(minute, 0, 0, carried + 1, False, False, False)
    squares = diff + carried
    if minute + squares > end:
        # the first stoppage square is one square after the half's last minute
        moved = end + 1 - minute
        return TimeStep(end, 1, moved, 0, False, False, moved >= TIREDNESS_MINUTES)
    return TimeStep(minute + squares, 0, squares, 0, False, False, squares >= TIREDNESS_MINUTES)


def game_time(minute: int, stoppage: int) -> int:
    """The minute a tiredness test (A1.2) or a fresh player (A3) is compared with:
    in the stoppage time the minutes after the 45th/90th (interpretation I2-3)."""
    return minute + stoppage

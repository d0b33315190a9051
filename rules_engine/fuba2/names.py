"""The names of rulebook 2.0's rolls (``Pending.name`` of a roll, the ``"roll"`` of a log event).

Its decisions are named in ``rules_engine.decisions`` with FUBA 3's (the FUBA 2 section there):
a decision keeps FUBA 3's name where its meaning is the same.
"""

from __future__ import annotations

from typing import Final

KICK_OFF: Final = "kick_off"  # 3.1: both teams' die (home, away)
TURN_DICE: Final = "turn_dice"  # 4.2: the controlling team's die, the passive team's die
SPECIAL_EVENT: Final = "special_event"  # 4.4.3, A6: the controlling team's dice, then the passive team's
YELLOW_CARD: Final = "yellow_card"  # 4.4.3 footnote
RED_CARD: Final = "red_card"  # 5.4
INJURY: Final = "injury"  # A4
TIREDNESS: Final = "tiredness"  # A1.2: one die at a time, at most three
CONDITION_POINT: Final = "condition_point"  # A1.1
GOAL_ATTEMPT: Final = "goal_attempt"  # 4.7
DIFFICULT_ATTEMPT: Final = "difficult_attempt"  # 4.7.1: the second die after a 6
REBOUND: Final = "rebound"  # 4.7.3: the controlling team's die, the passive team's die
PRESSING: Final = "pressing"  # 4.9.1
FRESH_PLAYER: Final = "fresh_player"  # A3: two dice
PENALTY: Final = "penalty"  # 5.5.2

ROLLS: Final = frozenset(
    {
        KICK_OFF,
        TURN_DICE,
        SPECIAL_EVENT,
        YELLOW_CARD,
        RED_CARD,
        INJURY,
        TIREDNESS,
        CONDITION_POINT,
        GOAL_ATTEMPT,
        DIFFICULT_ATTEMPT,
        REBOUND,
        PRESSING,
        FRESH_PLAYER,
        PENALTY,
    }
)

# how a turn starts (4.6, 5.x): the set piece given at its beginning, or an ordinary turn
KICK_OFF_START: Final = "kick_off"
FREE_KICK_START: Final = "free_kick"
CORNER_START: Final = "corner"
GOAL_KICK_START: Final = "goal_kick"
PENALTY_START: Final = "penalty"

# A5: where the goalkeeper stands in its penalty area
INSIDE: Final = "inside"
OUTSIDE: Final = "outside"

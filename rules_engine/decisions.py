"""The name of every decision the engine asks for (``Pending.name`` and the
``"decide"`` field of a log event), and the groups of them that the engine,
the log format and the coaches treat alike.

Every module that asks for, answers or skips a decision uses these constants;
a new decision is added here first.
"""

from __future__ import annotations

from typing import Final

# match preparation and halves (3, 2.2, 4.2.1.3)
KICK_OFF_TEAM: Final = "kick_off_team"
SETUP: Final = "setup"
HALF_TIME_FORMATION: Final = "half_time_formation"
EXTRA_TIME: Final = "extra_time"

# stage 1 and 2 (4.1, 4.2)
TARGET_AREA: Final = "target_area"
GOALKEEPER_CHARGE: Final = "goalkeeper_charge"
CLOSEST_PLAYER: Final = "closest_player"

# action stage (4.3-4.7)
ACTION: Final = "action"
SECOND_ACTIONS: Final = "second_actions"

# set pieces (5.2-5.5)
CORNER_SPOT: Final = "corner_spot"
FREE_KICK_ATTEMPT: Final = "free_kick_attempt"
PENALTY_KEEPER: Final = "penalty_keeper"
PENALTY_SHOT: Final = "penalty_shot"

# cards and injuries (5.6, A4)
SENT_OFF_PLAYER: Final = "sent_off_player"
INJURED_PLAYER: Final = "injured_player"
INJURED_PLAYER_INSTEAD: Final = "injured_player_instead"
INJURY_SUBSTITUTION: Final = "injury_substitution"

# advanced rules: condition points (A1), substitutions (A3), slow play (A8)
USE_CP: Final = "use_cp"
SUBSTITUTIONS: Final = "substitutions"
SUBSTITUTION: Final = "substitution"
SLOW_PLAY: Final = "slow_play"

# skills (A11)
USE_SKILL: Final = "use_skill"
SKILL_BALL_AREA: Final = "skill_ball_area"
GEGENPRESSING_AGGRESSIVE: Final = "gegenpressing_aggressive"
FORMATION_CHANGE: Final = "formation_change"
PLAY_FIERY_COACH: Final = "play_fiery_coach"

# single player moves (module ``moves``): one decision per moved player, ended by ``DONE``
MOVE: Final = "move"
FREE_MOVE: Final = "free_move"
EASY_SITUATION_MOVE: Final = "easy_situation_move"
SPECIAL_EVENT_MOVE: Final = "special_event_move"
QUICK_FREE_KICK_MOVE: Final = "quick_free_kick_move"
GOAL_KICK_MOVE: Final = "goal_kick_move"
SETUP_ADJUST: Final = "setup_adjust"
SKILL_MOVE: Final = "skill_move"

# FUBA rulebook 2.0 (ruleset fuba-2, rules_engine.fuba2): its own decisions; it asks the ones
# above whose meaning is the same under their FUBA 3 names (target_area, setup, move, use_cp...)
SLOW_GOAL_KICK: Final = "slow_goal_kick"  # 5.3.1
GOAL_ATTEMPT: Final = "goal_attempt"  # 4.7 (optional, the controlling team)
MOVEMENT_OPTION: Final = "movement_option"  # 4.8: defence, midfield or forward
PRESSING: Final = "pressing"  # 4.9.1 (optional, the passive team)
TIREDNESS_ZONE: Final = "tiredness_zone"  # A1.2, I2-7
GOALKEEPER_POSITION: Final = "goalkeeper_position"  # A5: inside or outside the goal area
FUBA2: Final = frozenset(
    {SLOW_GOAL_KICK, GOAL_ATTEMPT, MOVEMENT_OPTION, PRESSING, TIREDNESS_ZONE, GOALKEEPER_POSITION}
)

# the answer that ends a sequence of optional moves
DONE: Final = "done"

MOVE_DECISIONS: Final = frozenset(
    {
        MOVE,
        FREE_MOVE,
        EASY_SITUATION_MOVE,
        SPECIAL_EVENT_MOVE,
        QUICK_FREE_KICK_MOVE,
        GOAL_KICK_MOVE,
        SETUP_ADJUST,
        SKILL_MOVE,
    }
)
# the move decisions whose sequences may be longer than one move (the others move one player)
MULTI_MOVE_DECISIONS: Final = frozenset({MOVE, FREE_MOVE, GOAL_KICK_MOVE, QUICK_FREE_KICK_MOVE, SETUP_ADJUST})

# yes/no decisions whose "no" a compact log leaves out (the replay takes it by default)
DEFAULT_NO_DECISIONS: Final = frozenset(
    {
        USE_CP,
        USE_SKILL,
        SECOND_ACTIONS,
        SLOW_PLAY,
        GOALKEEPER_CHARGE,
        FREE_KICK_ATTEMPT,
        INJURY_SUBSTITUTION,
        GEGENPRESSING_AGGRESSIVE,
    }
)
# yes/no decisions whose "yes" a compact log leaves out: logs written before the question
# existed go straight on as if "yes" had been answered (the fiery coach was always played)
DEFAULT_YES_DECISIONS: Final = frozenset({PLAY_FIERY_COACH})

ALL: Final = frozenset(
    {
        KICK_OFF_TEAM,
        SETUP,
        HALF_TIME_FORMATION,
        EXTRA_TIME,
        TARGET_AREA,
        GOALKEEPER_CHARGE,
        CLOSEST_PLAYER,
        ACTION,
        SECOND_ACTIONS,
        CORNER_SPOT,
        FREE_KICK_ATTEMPT,
        PENALTY_KEEPER,
        PENALTY_SHOT,
        SENT_OFF_PLAYER,
        INJURED_PLAYER,
        INJURED_PLAYER_INSTEAD,
        INJURY_SUBSTITUTION,
        USE_CP,
        SUBSTITUTIONS,
        SUBSTITUTION,
        SLOW_PLAY,
        USE_SKILL,
        SKILL_BALL_AREA,
        GEGENPRESSING_AGGRESSIVE,
        FORMATION_CHANGE,
        PLAY_FIERY_COACH,
        *MOVE_DECISIONS,
    }
)
# every decision a FUBA 2 match asks (rules_engine.fuba2): its own and the shared ones
ALL_FUBA2: Final = frozenset(
    {
        *FUBA2,
        KICK_OFF_TEAM,
        SETUP,
        SETUP_ADJUST,
        HALF_TIME_FORMATION,
        EXTRA_TIME,
        TARGET_AREA,
        CLOSEST_PLAYER,
        SPECIAL_EVENT_MOVE,
        FREE_KICK_ATTEMPT,
        USE_CP,
        MOVE,
        FREE_MOVE,
        SUBSTITUTION,
        CORNER_SPOT,
        PENALTY_KEEPER,
        PENALTY_SHOT,
        INJURED_PLAYER,
        SENT_OFF_PLAYER,
    }
)

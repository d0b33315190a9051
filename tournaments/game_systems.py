"""What each game system the league hosts allows: the one place every service asks.

The league runs competitions of four board games. Only FUBA 3 (rulebook 3, seed 002) is backed by
the rules engine; the others are recorded at the level of results, with the rules their own
rulebooks state:

- FUBA 3 (seed 002): turn logs validated and forfeits simulated by the engine's ``fuba-3`` ruleset,
  advanced rules A1-A13 and A11 skills, team cards (rulebook 3 books the team, not a player). Extra
  time and the shoot-out of knockout ties are house rules (docs/rules-interpretations.md, I-38).
- FUBA 2 (seeds 000/001): turn logs validated and forfeits simulated by the engine's ``fuba-2``
  ruleset (docs/fuba2-engine.md), team cards, rulebook 2.0's advanced rules A1-A6 (A5 the advanced
  goalkeeper, A6 the playing styles: a team attribute per line) and no skills, weather or V.A.R.
- Soccer City (seed 003): cards per player by shirt number. "Booking area, numbered from 1 to 9";
  "Numbers 12 and 14 are only used in Cup mode"; "Two players sent off from the same side ends the
  match with a 5-0 loss for the team" (Match Progress, Red card); its shoot-out: "Each team shoots
  5 penalties. Each team will shoot an extra penalty if draw continue after the first 5, until the
  draw is broken" (Penalty Shootout). The Cup mode: "In case of a tie on aggregate, away goals rule
  applies" (The Cup).
- Super Team (seed 004): no cards in the game; "The game ends ... when the Time Track Token reaches
  the space 90' and the winner or draw is determined by the goals scored" (Full Time): no extra
  time, no shoot-out.

Pure: it takes the game system's code (``Competition.game_system``) and the Cup mode flag, so every
layer of the league may ask it (competition rules, see CONTRIBUTING.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Final, Literal, Protocol

FUBA_3: Final = "fuba-3"
FUBA_2: Final = "fuba-2"
SOCCER_CITY: Final = "soccer-city"
SUPER_TEAM: Final = "super-team"

# Card kinds as stored on matches.Card (CardKind values).
YELLOW: Final = "yellow"
SECOND_YELLOW: Final = "second_yellow"
RED: Final = "red"
YELLOW_RED: Final = "yellow_red"
ALL_CARD_KINDS: Final = (YELLOW, SECOND_YELLOW, RED, YELLOW_RED)
SENT_OFF_KINDS: Final = frozenset({SECOND_YELLOW, RED, YELLOW_RED})

ADVANCED_RULES_3: Final = tuple(f"A{i}" for i in range(1, 14))
ADVANCED_RULES_2: Final = tuple(f"A{i}" for i in range(1, 7))  # rulebook 2.0, "ADVANCED RULES"
# A2 player roles as the log header names them: rulebook 2.0 has the same five roles, and a FUBA 2
# header names them with FUBA 3's keys (docs/turn-log-format.md, docs/fuba2-engine.md).
ROLE_KEYS_3: Final = (
    "attacking_midfielders",
    "defending_midfielders",
    "attacking_centre_back",
    "withdrawn_striker",
    "offensive_wing_backs",
)
# Rulebook 2.0, A6: "Teams choose their playing style for each area of the formation: defence,
# midfield and forwards. Each of these areas must use one of following playing styles: easy, normal
# or aggressive."
STYLE_LINES: Final = ("defence", "midfield", "forward")
PLAYING_STYLES: Final = ("easy", "normal", "aggressive")
SHOOTOUT_KICKS: Final = 5

ShootoutKind = Literal["football", "five_then_sudden_death"]
ChancesModel = Literal["engine", "score"]


@dataclass(frozen=True)
class CardRules:
    """The cards a result of this game may record."""

    kinds: tuple[str, ...]  # empty: the game has no cards
    per_player: bool  # booked by shirt number (Soccer City) or the team as a whole (FUBA)
    shirt_numbers: tuple[int, ...]  # the numbers a booked player can wear (per_player only)
    send_offs_lose: int | None = None  # that many players of one side sent off end the match ...
    send_off_loss: tuple[int, int] = (5, 0)  # ... as this loss (goals of the other side, of that side)

    @property
    def allowed(self) -> bool:
        return bool(self.kinds)

    def shirt_range_text(self) -> str:
        """The shirt numbers as people write them: "1-9, 12, 14"."""
        runs: list[list[int]] = []
        for n in sorted(self.shirt_numbers):
            if runs and n == runs[-1][-1] + 1:
                runs[-1].append(n)
            else:
                runs.append([n])
        return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}-{r[-1]}" for r in runs)


@dataclass(frozen=True)
class ShootoutRules:
    """How a penalty shoot-out of this game is played, and so which final scores are real."""

    kind: ShootoutKind
    source: str  # where the rule comes from

    def possible(self, home: int, away: int) -> bool:
        if home == away or home < 0 or away < 0:
            return False
        if self.kind == "five_then_sudden_death":
            # Every side takes its five kicks whatever the score (003 says nothing of stopping early),
            # so any unequal score within five is real; after five level, one kick each until one
            # side scores and the other misses: one goal apart.
            return (home <= SHOOTOUT_KICKS and away <= SHOOTOUT_KICKS) or abs(home - away) == 1
        return (home, away) in _BEST_OF_FIVE_ENDS or abs(home - away) == 1

    def explain(self) -> str:
        if self.kind == "five_then_sudden_death":
            return "each side takes all five kicks, then one each until one scores and the other misses"
        return "five kicks each, stopped once one side cannot catch up, then sudden death"


def _best_of_five_ends() -> frozenset[tuple[int, int]]:
    """Every score a football shoot-out can stop at within its first five kicks each."""
    ends: set[tuple[int, int]] = set()
    states = [(0, 0, 0, 0)]  # kicks of the side kicking first, of the other, goals of each
    while states:
        k1, k2, g1, g2 = states.pop()
        left1, left2 = SHOOTOUT_KICKS - k1, SHOOTOUT_KICKS - k2
        if g1 + left1 < g2 or g2 + left2 < g1:
            ends.update({(g1, g2), (g2, g1)})
            continue
        if left1 == 0 and left2 == 0:
            continue  # level after five each: sudden death follows
        for scored in (0, 1):
            states.append((k1 + 1, k2, g1 + scored, g2) if k1 == k2 else (k1, k2 + 1, g1, g2 + scored))
    return frozenset(ends)


_BEST_OF_FIVE_ENDS: Final = _best_of_five_ends()


@dataclass(frozen=True)
class GameSystemRules:
    code: str
    name: str
    rulebook: str  # the seed the rules come from
    cards: CardRules
    extra_time: bool  # a level knockout tie may go to extra time
    shootout: ShootoutRules | None  # None: the game has no shoot-out
    away_goals: bool  # two-legged ties count away goals unless the stage says otherwise
    advanced_rules: tuple[str, ...]  # advanced rules a competition may put in force
    skills: bool  # A11 skills are offered
    role_keys: tuple[str, ...] = ()  # the A2 player roles of its rulebook, as the log header names them
    playing_styles: bool = False  # a team has a playing style per line (rulebook 2.0, A6)
    # The engine ruleset that validates turn logs and simulates matches; None: results only.
    engine_ruleset: str | None = None
    cup_mode_allowed: bool = False
    cup_mode: bool = False

    @property
    def engine_backed(self) -> bool:
        return self.engine_ruleset is not None

    @property
    def chances_model(self) -> ChancesModel:
        """Where the chances' match model gets the set-ups' strength: a game with an engine plays
        its own ruleset's matches (chances.estimates: FUBA 3 with ``fuba-3``, FUBA 2 with
        ``fuba-2``, never another game's); a game without one has the score model alone, fitted
        on its recorded results and the coaches' ratings (chances.score_model)."""
        return "engine" if self.engine_backed else "score"

    @property
    def rating_pool(self) -> str:
        """Coach ratings are kept per game system: a FUBA 3 win says nothing of Soccer City."""
        return self.code

    @property
    def decides_ties(self) -> bool:
        """Whether a level knockout tie can be decided on the pitch (extra time or shoot-out)."""
        return self.extra_time or self.shootout is not None

    def forfeit_simulated(self, policy: str) -> bool:
        """Whether a forfeit or missed deadline is simulated; otherwise it is awarded by the policy.

        Only the game's own engine may play a match nobody played: another game's engine would
        invent a result of a different game.
        """
        return policy == "simulate" and self.engine_backed

    def as_dict(self) -> dict[str, object]:
        """What the API and the organiser's console show of the game system."""
        return {
            "code": self.code,
            "name": self.name,
            "rulebook": self.rulebook,
            "engine_ruleset": self.engine_ruleset,
            "cards": {
                "kinds": list(self.cards.kinds),
                "per_player": self.cards.per_player,
                "shirt_numbers": list(self.cards.shirt_numbers),
                "send_offs_lose": self.cards.send_offs_lose,
            },
            "extra_time": self.extra_time,
            "shootout": self.shootout.kind if self.shootout else None,
            "away_goals": self.away_goals,
            "advanced_rules": list(self.advanced_rules),
            "skills": self.skills,
            "role_keys": list(self.role_keys),
            "playing_styles": list(PLAYING_STYLES) if self.playing_styles else [],
            "chances_model": self.chances_model,
            "cup_mode_allowed": self.cup_mode_allowed,
            "cup_mode": self.cup_mode,
        }


_TEAM_CARDS: Final = CardRules(kinds=ALL_CARD_KINDS, per_player=False, shirt_numbers=())
_HOUSE_SHOOTOUT: Final = ShootoutRules("football", "house rule (docs/rules-interpretations.md, I-42)")
_SOCCER_CITY_SHOOTOUT: Final = ShootoutRules("five_then_sudden_death", "Soccer City, Penalty Shootout")

GAME_SYSTEMS: Final[Mapping[str, GameSystemRules]] = {
    FUBA_3: GameSystemRules(
        code=FUBA_3,
        name="FUBA 3",
        rulebook="FUBA rulebook 3 (seed 002)",
        cards=_TEAM_CARDS,
        extra_time=True,
        shootout=_HOUSE_SHOOTOUT,
        away_goals=False,
        advanced_rules=ADVANCED_RULES_3,
        skills=True,
        role_keys=ROLE_KEYS_3,
        engine_ruleset="fuba-3",
    ),
    FUBA_2: GameSystemRules(
        code=FUBA_2,
        name="FUBA 2",
        rulebook="FUBA rulebook 2.0 (seeds 000/001)",
        cards=_TEAM_CARDS,
        extra_time=True,
        shootout=_HOUSE_SHOOTOUT,
        away_goals=False,
        advanced_rules=ADVANCED_RULES_2,
        skills=False,
        role_keys=ROLE_KEYS_3,
        playing_styles=True,
        engine_ruleset="fuba-2",
    ),
    SOCCER_CITY: GameSystemRules(
        code=SOCCER_CITY,
        name="Soccer City",
        rulebook="Soccer City rulebook v3.0 (seed 003)",
        cards=CardRules(
            kinds=ALL_CARD_KINDS, per_player=True, shirt_numbers=tuple(range(1, 10)), send_offs_lose=2
        ),
        extra_time=True,
        shootout=_SOCCER_CITY_SHOOTOUT,
        away_goals=False,
        advanced_rules=(),
        skills=False,
        cup_mode_allowed=True,
    ),
    SUPER_TEAM: GameSystemRules(
        code=SUPER_TEAM,
        name="Super Team",
        rulebook="Super Team rulebook (seed 004)",
        cards=CardRules(kinds=(), per_player=False, shirt_numbers=()),
        extra_time=False,
        shootout=None,
        away_goals=False,
        advanced_rules=(),
        skills=False,
    ),
}

# Soccer City, The Cup: "Additional players (12 & 14) are one Defender and one Striker"; "In case
# of a tie on aggregate, away goals rule applies".
_SOCCER_CITY_CUP: Final = replace(
    GAME_SYSTEMS[SOCCER_CITY],
    cards=replace(GAME_SYSTEMS[SOCCER_CITY].cards, shirt_numbers=(*range(1, 10), 12, 14)),
    away_goals=True,
    cup_mode=True,
)


class HasGameSystem(Protocol):
    game_system: str
    cup_mode: bool


def game_system_rules(code: str, *, cup_mode: bool = False) -> GameSystemRules:
    """The rules of a game system; raises KeyError for an unknown code (checked where it is stored)."""
    if code == SOCCER_CITY and cup_mode:
        return _SOCCER_CITY_CUP
    return GAME_SYSTEMS[code]


def rules_of(competition: HasGameSystem) -> GameSystemRules:
    """The rules in force in a competition (its game system, and Soccer City's Cup mode)."""
    return game_system_rules(competition.game_system, cup_mode=bool(competition.cup_mode))


def send_off_loss(
    rules: GameSystemRules, *, home_sent_off: int, away_sent_off: int
) -> tuple[int, int] | None:
    """The score a game's send-off rule imposes (home, away), or None when it does not apply.

    Soccer City: "Two players sent off from the same side ends the match with a 5-0 loss for the
    team". Both sides reaching the limit cannot happen in one match: the first ends it.
    """
    limit = rules.cards.send_offs_lose
    if limit is None:
        return None
    win, loss = rules.cards.send_off_loss
    if home_sent_off >= limit and away_sent_off < limit:
        return loss, win
    if away_sent_off >= limit and home_sent_off < limit:
        return win, loss
    return None

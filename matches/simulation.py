"""Turn a fixture's registered teams into a simulated match through the rules engine, by the
ruleset of the competition's game system (FUBA 3: ``fuba-3``; FUBA 2: ``fuba-2``, rulebook 2.0).

The engine is pure Python; this module is the only place that translates Django rows (teams,
skill rosters, suspensions, the competition's advanced rules) into the engine's header, and the
engine's derived result back into the card kinds the results workflow stores.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.utils.text import slugify

from kernel.errors import ApplicationError
from matches.knockout import tie_needs_decider
from matches.models import CardKind
from matches.services import CardInput
from matchplay import engine_door
from tournaments.game_systems import GameSystemRules, rules_of
from tournaments.models import Fixture, Team
from tournaments.selectors import fixture_first_leg, fixture_players_short
from tournaments.skills import fixture_roster_skills


@dataclass(frozen=True)
class SimulatedMatch:
    log: dict[str, Any]
    result: dict[str, Any]
    seed: int

    @property
    def score(self) -> tuple[int, int]:
        return self.result["score"]["home"], self.result["score"]["away"]


def skill_code(name: str) -> str:
    """The engine's name of an A11 skill ("Box-to-box midfielder" -> "box_to_box_midfielder")."""
    return slugify(name).replace("-", "_")


def fixture_seed(fixture: Fixture) -> int:
    """A seed fixed by the fixture, so a re-run (retry, redelivery) simulates the same match."""
    digest = hashlib.sha256(f"{fixture.competition_id}:{fixture.id}".encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def team_engine_setup(
    *, team: Team, fixture: Fixture, advanced_rules: list[str], game: GameSystemRules | None = None
) -> dict[str, Any]:
    """The team's header entry of a fuba-log/1 document for this fixture (FUBA 3 unless ``game``
    says otherwise: FUBA 2 names its A2 roles in the singular and has the A6 playing styles)."""
    game = game or rules_of(fixture.competition)
    setup: dict[str, Any] = {"name": team.name, "formation": team.default_formation or "4-4-2"}
    if "A2" in advanced_rules:
        keys = game.role_keys or engine_door.ROLE_KEYS
        roles = {k: v for k, v in (team.player_roles or {}).items() if k in keys and v}
        if roles:
            setup["roles"] = roles
    if game.playing_styles and "A6" in advanced_rules and team.playing_styles:
        setup["styles"] = dict(team.playing_styles)
    if game.skills and "A11" in advanced_rules:
        setup["skills"] = [skill_code(s.name) for s in fixture_roster_skills(team=team, fixture=fixture)]
    short = fixture_players_short(fixture=fixture, team=team)
    if short:
        # A house rule, not rulebook 3 (docs/rules-interpretations.md, "House rules"): a suspended
        # team starts one player short; the engine models at most one.
        setup["players_short"] = 1
    return setup


def balance_skills(home: dict[str, Any], away: dict[str, Any]) -> None:
    """Trim the richer roster until both sides bring the same skill weight (A11).

    A11 lets each team bring the same number of skill choices; a roster can be larger than the
    other side's after skills were lost ("Injured star player") or gained ("New talent"). The
    richer side drops skills from the end of its alphabetical list, so the choice is
    reproducible (docs/forfeits.md).
    """
    if "skills" not in home and "skills" not in away:
        return
    home.setdefault("skills", [])
    away.setdefault("skills", [])
    for side in (home, away):
        side["skills"] = sorted(side["skills"])
    while engine_door.skill_weight(home["skills"]) != engine_door.skill_weight(away["skills"]):
        richer = (
            home
            if engine_door.skill_weight(home["skills"]) > engine_door.skill_weight(away["skills"])
            else away
        )
        richer["skills"].pop()


def fixture_simulate(*, fixture: Fixture, seed: int | None = None) -> SimulatedMatch:
    """Play the fixture with AI coaches on both sides; the returned log validates by construction."""
    if fixture.home_team is None or fixture.away_team is None:
        raise ApplicationError(f"{fixture}: both teams must be known before the match can be simulated.")
    game = rules_of(fixture.competition)
    if game.engine_ruleset is None:
        raise ApplicationError(
            f"{fixture}: {game.name} matches are not simulated (no rules engine plays {game.name})."
        )
    rules = list(fixture.competition.advanced_rules or [])
    seed = fixture_seed(fixture) if seed is None else seed
    home = team_engine_setup(team=fixture.home_team, fixture=fixture, advanced_rules=rules, game=game)
    away = team_engine_setup(team=fixture.away_team, fixture=fixture, advanced_rules=rules, game=game)
    balance_skills(home, away)
    options = engine_door.SimulationOptions(
        advanced_rules=tuple(rules),
        meta=(("competition", fixture.competition.name), ("fixture", str(fixture.id)), ("simulated", "yes")),
        extra_time=_extra_time_rule(fixture),
        ruleset=game.engine_ruleset,
    )
    try:
        log = engine_door.simulate_match(
            engine_door.TeamSetup.from_dict(home), engine_door.TeamSetup.from_dict(away), options, seed
        )
    except engine_door.HeaderError as exc:
        # The engine cannot play this set-up (e.g. a ruleset it cannot read yet): never let another
        # ruleset's engine invent the result instead.
        raise ApplicationError(
            f"{fixture}: the rules engine cannot simulate this {game.name} match "
            f"(ruleset {game.engine_ruleset!r}): {exc.reason}",
            code="simulation_unavailable",
        ) from None
    report = engine_door.validate_log(log)
    if not report.valid:
        # A simulator bug must never become a stored result: fail loudly with the engine's words.
        first = report.errors[0]
        raise ApplicationError(
            f"{fixture}: the simulated log does not validate: {first}", code="simulation_invalid"
        )
    if report.result is None:
        raise ApplicationError(
            f"{fixture}: the rules engine judged the simulated log without a result.",
            code="simulation_invalid",
        )
    return SimulatedMatch(log=log, result=report.result.to_dict(), seed=seed)


def _extra_time_rule(fixture: Fixture) -> Callable[[int, int], bool] | None:
    """The competition's answer to the engine's extra_time question, given the 90 minutes: a
    knockout stage that plays extra time does so when the tie is level (a second leg counts the
    first; docs/rules-interpretations.md I-38)."""
    stage = fixture.stage
    if stage is None or not stage.extra_time:
        return None

    first_leg = fixture_first_leg(fixture=fixture)

    def level(home_goals: int, away_goals: int) -> bool:
        return tie_needs_decider(
            fixture=fixture, first_leg=first_leg, home_goals=home_goals, away_goals=away_goals
        )

    return level


def shootout_simulate(*, seed: int, home_saver: bool = False, away_saver: bool = False) -> tuple[int, int]:
    """A penalty shoot-out played with rulebook 3's penalty kicks (5.5.2).

    Rulebook 3 has no shoot-out of its own (docs/rules-interpretations.md): each kick is a 5.5.2
    penalty where the keeper and the taker each pick a side at random and the kick scores when
    the die reaches the table's number; a keeper with "Penalty saver" (A11) makes the taker roll
    two dice and keep the lower. Five kicks each, then sudden death.
    """
    import random

    rng = random.Random(f"shootout:{seed}")

    def kick(keeper_saves_skill: bool) -> int:
        need = engine_door.PENALTY_TABLE[rng.choice(engine_door.PENALTY_SIDES)][
            rng.choice(engine_door.PENALTY_SIDES)
        ]
        die = min(rng.randint(1, 6) for _ in range(2 if keeper_saves_skill else 1))
        return int(die >= need)

    def decided(home_left: int, away_left: int) -> bool:
        return home > away + away_left or away > home + home_left

    home = away = 0
    for taken in range(1, 6):
        home += kick(away_saver)
        if decided(5 - taken, 6 - taken):
            break
        away += kick(home_saver)
        if decided(5 - taken, 5 - taken):
            break
    while home == away:  # sudden death, a pair of kicks at a time
        home += kick(away_saver)
        away += kick(home_saver)
    return home, away


def cards_from_result(result: dict[str, Any]) -> list[CardInput]:
    """Card rows (one per booked player's final outcome) from the engine's per-team counts.

    The engine counts team cards (5.6): every yellow shown and, per red, whether it came from a
    second yellow (the red-card test of 5.6.2 tells them apart) or was direct. A second-yellow
    red consumed two of the yellows shown.
    """
    cards: list[CardInput] = []
    for side in ("home", "away"):
        team = result["teams"][side]
        reds = list(team.get("red_cards_detail", []))
        second = reds.count("second_yellow")
        direct = len(reds) - second
        plain_yellows = max(0, int(team.get("yellow_cards", 0)) - 2 * second)
        cards += [CardInput(side, CardKind.YELLOW)] * plain_yellows
        cards += [CardInput(side, CardKind.SECOND_YELLOW)] * second
        cards += [CardInput(side, CardKind.RED)] * direct
    return cards

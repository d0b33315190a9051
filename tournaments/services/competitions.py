"""Competitions: their settings (game system, advanced rules, points, forfeits, discipline, tie-breaks),
create, update and delete while unplayed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction

from kernel.errors import ApplicationError, Conflict
from tournaments.game_systems import (
    ADVANCED_RULES_3,
    FUBA_3,
    GameSystemRules,
    game_system_rules,
)
from tournaments.models import (
    Competition,
    Fixture,
    TiebreakPreset,
)
from tournaments.services.roles import competition_organiser_set
from tournaments.services.shared import any_played, invalid
from tournaments.standings.criteria import validate_order

# FUBA rulebook 3, advanced rules A1–A13 (A12 is referred to but missing from the text; the
# engine accepts it as another name of A13).
ADVANCED_RULES = ADVANCED_RULES_3


def advanced_rules_check(rules: object, *, game: GameSystemRules | None = None) -> list[str]:
    """The advanced rules in force: chapter codes of the game system's rulebook (FUBA 3: A1–A13 of
    rulebook 3; FUBA 2: A1–A6 of rulebook 2.0), each once, and only in a game system that has them
    (``tournaments.game_systems``)."""
    game = game or game_system_rules(FUBA_3)
    if not isinstance(rules, list | tuple) or not all(isinstance(r, str) for r in rules):
        raise invalid(
            f'Advanced rules must be a list of chapter codes such as ["A1", "A11"]; got {rules!r}.',
            "advanced_rules",
        )
    unknown = [r for r in rules if r not in game.advanced_rules]
    if unknown and not game.advanced_rules:
        raise invalid(
            f"{game.name} has no advanced rules ({game.rulebook}); got {unknown}.",
            "advanced_rules",
        )
    if unknown:
        raise invalid(
            f"unknown advanced rules {unknown}; {game.name} ({game.rulebook}) has "
            f"{', '.join(game.advanced_rules)}.",
            "advanced_rules",
        )
    if len(set(rules)) != len(rules):
        raise invalid("An advanced rule is listed twice.", "advanced_rules")
    return list(rules)


def tiebreak_check(*, preset: object, order: object) -> list[str]:
    """A tie-break preset, and for "custom" an order of known criteria starting with `points`.

    The standings cannot rank with an order that is not a list of known criteria starting with
    points (e.g. ["goal_difference", "points"], or the string "points"): every writer (API,
    admin, commands) checks it here first.
    """
    if preset not in TiebreakPreset.values:
        raise invalid(
            f"Unknown tie-break preset {preset!r}; choose one of {', '.join(TiebreakPreset.values)}.",
            "tiebreak_preset",
        )
    if not isinstance(order, list | tuple) or not all(isinstance(c, str) for c in order):
        raise invalid(
            f'The tie-break order must be a list of criteria such as ["points", "goal_difference"]; '
            f"got {order!r}.",
            "tiebreak_order",
        )
    if preset != TiebreakPreset.CUSTOM:
        if order:
            raise invalid(
                f"A tie-break order is only read with the preset 'custom' (the preset is '{preset}'); "
                "choose 'custom' or leave the order empty.",
                "tiebreak_order",
            )
        return []
    try:
        validated = validate_order(order)
    except ValueError as exc:
        raise invalid(f"Tie-break order: {exc}.", "tiebreak_order") from None
    if len(set(validated)) != len(validated):
        raise invalid("Tie-break order: a criterion is listed twice.", "tiebreak_order")
    return validated


def competition_settings_check(values: Mapping[str, Any]) -> None:
    """Every rule on a competition's settings, for create, update and the admin form alike."""
    if "game_system" in values and values["game_system"] not in Competition.GameSystem.values:
        raise invalid(f"Unknown game system '{values['game_system']}'.", "game_system")
    if "forfeit_policy" in values and values["forfeit_policy"] not in Competition.ForfeitPolicy.values:
        raise invalid(f"Unknown forfeit policy '{values['forfeit_policy']}'.", "forfeit_policy")
    for field, (low, high) in SETTING_RANGES.items():
        value = values.get(field)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise invalid(f"{SETTING_WORDS[field]} must be a whole number; got {value!r}.", field)
        if not low <= value <= high:
            raise invalid(f"{SETTING_WORDS[field]} must be from {low} to {high}; got {value}.", field)
    game = game_system_rules(values.get("game_system", FUBA_3))
    if "advanced_rules" in values:
        advanced_rules_check(values["advanced_rules"], game=game)
    if "tiebreak_preset" in values or "tiebreak_order" in values:
        tiebreak_check(preset=values.get("tiebreak_preset"), order=values.get("tiebreak_order", []))
    if not values.get("points_win", 3) > values.get("points_draw", 1) >= values.get("points_loss", 0):
        raise invalid("Points must satisfy win > draw >= loss.", "points_win")
    if values.get("award_goals_for", 3) <= values.get("award_goals_against", 0):
        raise invalid("An awarded match must have a winner (e.g. 3-0).", "award_goals_for")
    if values.get("cup_mode") and not game.cup_mode_allowed:
        raise invalid("The Cup mode bans players by shirt number: it is a Soccer City mode.", "cup_mode")


DISCIPLINE_SETTINGS = ("yellow_card_threshold", "red_card_ban_matches", "cup_mode")


COMPETITION_SETTINGS = (
    "name",
    "game_system",
    "advanced_rules",
    "is_world_cup",
    "points_win",
    "points_draw",
    "points_loss",
    "forfeit_policy",
    "award_goals_for",
    "award_goals_against",
    "skill_limit",
    "tiebreak_preset",
    "tiebreak_order",
    "yellow_card_threshold",
    "red_card_ban_matches",
    "cup_mode",
)

# The numbers among them, with the range every writer (API, console, admin, commands) accepts: the
# API's input serializer and the console's forms read their bounds from here.
SETTING_RANGES: dict[str, tuple[int, int]] = {
    "points_win": (0, 100),
    "points_draw": (0, 100),
    "points_loss": (0, 100),
    "award_goals_for": (0, 99),
    "award_goals_against": (0, 99),
    "skill_limit": (0, 30),
    "yellow_card_threshold": (0, 20),
    "red_card_ban_matches": (0, 20),
}
SETTING_WORDS = {
    "points_win": "Points for a win",
    "points_draw": "Points for a draw",
    "points_loss": "Points for a loss",
    "award_goals_for": "Goals awarded to the winner of a forfeit",
    "award_goals_against": "Goals awarded to the loser of a forfeit",
    "skill_limit": "The skill limit",
    "yellow_card_threshold": "Yellow cards for a ban",
    "red_card_ban_matches": "Matches banned after a red card",
}


def competition_create(
    *,
    name: str,
    slug: str,
    game_system: str = Competition.GameSystem.FUBA_3,
    advanced_rules: Sequence[str] = (),
    is_world_cup: bool = False,
    points_win: int = 3,
    points_draw: int = 1,
    points_loss: int = 0,
    forfeit_policy: str = Competition.ForfeitPolicy.SIMULATE,
    award_goals_for: int = 3,
    award_goals_against: int = 0,
    skill_limit: int = 5,
    tiebreak_preset: str = TiebreakPreset.FIFA_WORLD_CUP,
    tiebreak_order: Sequence[str] = (),
    yellow_card_threshold: int = 2,
    red_card_ban_matches: int = 1,
    cup_mode: bool = False,
    creator: Any = None,
) -> Competition:
    """A new competition; its creator (a signed-in user, when given) becomes its organiser."""
    values: dict[str, Any] = {
        "name": name,
        "game_system": game_system,
        "advanced_rules": list(advanced_rules) if isinstance(advanced_rules, tuple) else advanced_rules,
        "is_world_cup": is_world_cup,
        "points_win": points_win,
        "points_draw": points_draw,
        "points_loss": points_loss,
        "forfeit_policy": forfeit_policy,
        "award_goals_for": award_goals_for,
        "award_goals_against": award_goals_against,
        "skill_limit": skill_limit,
        "tiebreak_preset": tiebreak_preset,
        "tiebreak_order": list(tiebreak_order) if isinstance(tiebreak_order, tuple) else tiebreak_order,
        "yellow_card_threshold": yellow_card_threshold,
        "red_card_ban_matches": red_card_ban_matches,
        "cup_mode": cup_mode,
    }
    try:
        competition_settings_check(values)
    except ApplicationError as exc:
        raise ApplicationError(f"Competition '{name}': {exc.message}", details=exc.details) from None
    if Competition.objects.filter(slug=slug).exists():
        raise Conflict(f"A competition with the slug '{slug}' already exists.", details={"field": "slug"})
    with transaction.atomic():
        competition = Competition.objects.create(slug=slug, **values)
        if creator is not None and creator.is_authenticated:
            competition_organiser_set(competition=competition, user=creator)
    return competition


@transaction.atomic
def competition_update(*, competition: Competition, **changes: Any) -> Competition:
    """Change a competition's settings; scoring settings are frozen once a result counts."""
    discipline = set(changes) & set(DISCIPLINE_SETTINGS)
    if discipline:
        # Discipline changes recompute every ban: matches.discipline.competition_discipline_set does both.
        raise invalid(
            f"Set {', '.join(sorted(discipline))} with the discipline settings (…/discipline), "
            "which recompute the bans.",
            sorted(discipline)[0],
        )
    unknown = set(changes) - set(COMPETITION_SETTINGS)
    if unknown:
        raise ApplicationError(f"Cannot change {', '.join(sorted(unknown))} here.")
    competition = Competition.objects.select_for_update().get(id=competition.id)
    values = {f: getattr(competition, f) for f in COMPETITION_SETTINGS} | changes
    preset_changed = "tiebreak_preset" in changes and changes["tiebreak_preset"] != TiebreakPreset.CUSTOM
    if preset_changed and "tiebreak_order" not in changes:
        # Leaving "custom" drops the custom order rather than refusing the change.
        values["tiebreak_order"] = []
    competition_settings_check(values)
    scoring = {"game_system", "points_win", "points_draw", "points_loss"}
    if any(changes.get(f, getattr(competition, f)) != getattr(competition, f) for f in scoring) and (
        any_played(Fixture.objects.filter(competition=competition))
    ):
        raise Conflict(
            f"'{competition}': results already count; the game system and points cannot change now."
        )
    for field, value in values.items():
        setattr(competition, field, value)
    competition.save()
    return competition


@transaction.atomic
def competition_delete(*, competition: Competition) -> None:
    """Delete a competition set up by mistake: only while nothing has been played."""
    if any_played(competition.fixtures.all()):
        raise Conflict(f"'{competition}' has results; it cannot be deleted (set it to finished instead).")
    competition.fixtures.all().delete()
    competition.delete()


@transaction.atomic
def competition_tiebreak_set(
    *, competition: Competition, preset: str, order: Sequence[str] = ()
) -> Competition:
    order = tiebreak_check(preset=preset, order=list(order) if isinstance(order, tuple) else order)
    competition.tiebreak_preset = preset
    competition.tiebreak_order = order
    competition.save(update_fields=["tiebreak_preset", "tiebreak_order"])
    return competition

"""Services for setting up competitions and generating their fixtures.

Results and what follows from them have their own modules (matches.services, matches.progress,
matches.discipline), as do standings and skills (tournaments.standings, tournaments.skills); the
most used skills entry points are re-exported at the bottom of this module.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count, Max, Q

from kernel.errors import ApplicationError, Conflict, NotFound
from matches.engine import parse as parse_log
from tournaments.draws import Cap, DrawImpossible, draw_bracket, draw_groups
from tournaments.fixtures import (
    Slot,
    group_letter,
    groups_to_knockout_slots,
    round_name,
    round_robin_rounds,
    seeded_bracket_order,
)
from tournaments.game_systems import (
    ADVANCED_RULES_3,
    FUBA_2,
    FUBA_3,
    GameSystemRules,
    game_system_rules,
    rules_of,
)
from tournaments.models import (
    Bye,
    Club,
    Coach,
    Competition,
    Draw,
    Fixture,
    Group,
    Skill,
    Stage,
    Team,
    TiebreakPreset,
)
from tournaments.skills import team_skills_set
from tournaments.standings.criteria import validate_order
from tournaments.standings.tally import Row
from tournaments.swiss import PairingImpossible, swiss_pair

# FUBA rulebook 3, advanced rules A1–A13 (A12 is referred to but missing from the text; the
# engine accepts it as another name of A13).
ADVANCED_RULES = ADVANCED_RULES_3


def club_create(*, name: str, country: str = "") -> Club:
    return Club.objects.create(name=name, country=country)


def coach_create(
    *,
    name: str,
    country: str,
    ranking_id: str = "",
    club: Club | None = None,
    played_world_cup_2019: bool = False,
) -> Coach:
    return Coach.objects.create(
        name=name,
        country=country,
        ranking_id=ranking_id,
        club=club,
        played_world_cup_2019=played_world_cup_2019,
    )


def _invalid(message: str, field: str) -> ApplicationError:
    """A refusal that names the field to fix (the API puts it in `details.field`)."""
    return ApplicationError(message, code="invalid", details={"field": field})


def advanced_rules_check(rules: object, *, game: GameSystemRules | None = None) -> list[str]:
    """The advanced rules in force: chapter codes of rulebook 3 (A1–A13), each once, and only in a
    game system that has them (``tournaments.game_systems``: FUBA 3)."""
    game = game or game_system_rules(FUBA_3)
    if not isinstance(rules, list | tuple) or not all(isinstance(r, str) for r in rules):
        raise _invalid(
            f'Advanced rules must be a list of chapter codes such as ["A1", "A11"]; got {rules!r}.',
            "advanced_rules",
        )
    unknown = [r for r in rules if r not in game.advanced_rules]
    if unknown and not game.advanced_rules:
        raise _invalid(
            f"{game.name} has no advanced rules of FUBA rulebook 3 ({game.rulebook}); got {unknown}.",
            "advanced_rules",
        )
    if unknown:
        raise _invalid(
            f"unknown advanced rules {unknown}; rulebook 3 has {', '.join(game.advanced_rules)}.",
            "advanced_rules",
        )
    if len(set(rules)) != len(rules):
        raise _invalid("An advanced rule is listed twice.", "advanced_rules")
    return list(rules)


def tiebreak_check(*, preset: object, order: object) -> list[str]:
    """A tie-break preset, and for "custom" an order of known criteria starting with `points`.

    An order stored unchecked (e.g. ["goal_difference", "points"], or the string "points") made
    every standings page answer 500; every writer (API, admin, commands) checks it here first.
    """
    if preset not in TiebreakPreset.values:
        raise _invalid(
            f"Unknown tie-break preset {preset!r}; choose one of {', '.join(TiebreakPreset.values)}.",
            "tiebreak_preset",
        )
    if not isinstance(order, list | tuple) or not all(isinstance(c, str) for c in order):
        raise _invalid(
            f'The tie-break order must be a list of criteria such as ["points", "goal_difference"]; '
            f"got {order!r}.",
            "tiebreak_order",
        )
    if preset != TiebreakPreset.CUSTOM:
        if order:
            raise _invalid(
                f"A tie-break order is only read with the preset 'custom' (the preset is '{preset}'); "
                "choose 'custom' or leave the order empty.",
                "tiebreak_order",
            )
        return []
    try:
        validated = validate_order(order)
    except ValueError as exc:
        raise _invalid(f"Tie-break order: {exc}.", "tiebreak_order") from None
    if len(set(validated)) != len(validated):
        raise _invalid("Tie-break order: a criterion is listed twice.", "tiebreak_order")
    return validated


def competition_settings_check(values: Mapping[str, Any]) -> None:
    """Every rule on a competition's settings, for create, update and the admin form alike."""
    if "game_system" in values and values["game_system"] not in Competition.GameSystem.values:
        raise _invalid(f"Unknown game system '{values['game_system']}'.", "game_system")
    if "forfeit_policy" in values and values["forfeit_policy"] not in Competition.ForfeitPolicy.values:
        raise _invalid(f"Unknown forfeit policy '{values['forfeit_policy']}'.", "forfeit_policy")
    game = game_system_rules(values.get("game_system", FUBA_3))
    if "advanced_rules" in values:
        advanced_rules_check(values["advanced_rules"], game=game)
    if "tiebreak_preset" in values or "tiebreak_order" in values:
        tiebreak_check(preset=values.get("tiebreak_preset"), order=values.get("tiebreak_order", []))
    if not values.get("points_win", 3) > values.get("points_draw", 1) >= values.get("points_loss", 0):
        raise _invalid("Points must satisfy win > draw >= loss.", "points_win")
    if values.get("award_goals_for", 3) <= values.get("award_goals_against", 0):
        raise _invalid("An awarded match must have a winner (e.g. 3-0).", "award_goals_for")
    if values.get("skill_limit", 5) < 0:
        raise _invalid("The skill limit cannot be negative.", "skill_limit")
    if values.get("cup_mode") and not game.cup_mode_allowed:
        raise _invalid("The Cup mode bans players by shirt number: it is a Soccer City mode.", "cup_mode")


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
) -> Competition:
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
    return Competition.objects.create(slug=slug, **values)


@transaction.atomic
def competition_update(*, competition: Competition, **changes: Any) -> Competition:
    """Change a competition's settings; scoring settings are frozen once a result counts."""
    discipline = set(changes) & set(DISCIPLINE_SETTINGS)
    if discipline:
        # Discipline changes recompute every ban: matches.discipline.competition_discipline_set does both.
        raise _invalid(
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
        _played(Fixture.objects.filter(competition=competition))
    ):
        raise Conflict(
            f"'{competition}': results already count; the game system and points cannot change now."
        )
    for field, value in values.items():
        setattr(competition, field, value)
    competition.save()
    return competition


def _played(fixtures: Any) -> bool:
    """Whether any of these fixtures has a result (counted or on its way)."""
    return bool(fixtures.exclude(status=Fixture.Status.SCHEDULED).exists())


@transaction.atomic
def competition_delete(*, competition: Competition) -> None:
    """Delete a competition set up by mistake: only while nothing has been played."""
    if _played(competition.fixtures.all()):
        raise Conflict(f"'{competition}' has results; it cannot be deleted (set it to finished instead).")
    competition.fixtures.all().delete()
    competition.delete()


def team_create(
    *,
    competition: Competition,
    name: str,
    coach: Coach | None = None,
    club: Club | None = None,
    country: str = "",
    confederation: str = "",
    seed: int | None = None,
    default_formation: str = "4-4-2",
    player_roles: Mapping[str, Any] | None = None,
) -> Team:
    if competition.teams.filter(name=name).exists():
        raise Conflict(f"'{competition}' already has a team named '{name}'.")
    if not name.strip():
        raise _invalid("A team needs a name.", "name")
    team_fields_check(
        competition=competition,
        default_formation=default_formation,
        player_roles=player_roles or {},
        coach=coach,
        club=club,
        where=f"Team '{name}'",
    )
    return Team.objects.create(
        competition=competition,
        name=name,
        coach=coach,
        club=club if club is not None else (coach.club if coach else None),
        country=country,
        confederation=confederation,
        seed=seed,
        default_formation=default_formation,
        player_roles=dict(player_roles or {}),
    )


def formation_check(formation: object, *, where: str) -> None:
    # FUBA 2.1: ten outfield players in defence, midfield and attack, written "D-M-F".
    parts = formation.split("-") if isinstance(formation, str) else []
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or sum(int(p) for p in parts) != 10:
        raise _invalid(
            f"{where}: formation '{formation}' must be defenders-midfielders-forwards summing to 10 "
            "outfield players (e.g. 4-4-2).",
            "default_formation",
        )


def _roles_check(formation: object, roles: Mapping[str, Any], where: str) -> None:
    """A2 roles as the rules engine will read them from the team's log header, checked on entry."""
    team = {"name": "x", "formation": formation, "roles": dict(roles)}
    away = {"name": "y", "formation": "4-4-2"}
    header = {
        "format": "fuba-log/1",
        "ruleset": "fuba-3",
        "advanced_rules": ["A2"],
        "teams": {"home": team, "away": away},
    }
    _header, _events, errors = parse_log({**header, "events": []})
    mine = [e for e in errors if (e.path or "").startswith("$.teams.home")]
    if mine:
        path = (mine[0].path or "").replace("$.teams.home.", "")
        field = "player_roles" if path.startswith("roles") else "default_formation"
        raise _invalid(f"{where}: {path}: {mine[0].reason}.", field)


def team_fields_check(
    *,
    competition: Competition,
    default_formation: object,
    player_roles: object,
    coach: Coach | None,
    club: Club | None,
    where: str,
) -> None:
    """The checks on a team's entry shared by the API, the admin and the commands."""
    if rules_of(competition).code in (FUBA_3, FUBA_2):  # the formations of rulebooks 2 and 3
        formation_check(default_formation, where=where)
    if not isinstance(player_roles, Mapping):
        raise _invalid(
            f'{where}: player roles must be an object such as {{"attacking_midfielders": 1}}.',
            "player_roles",
        )
    if player_roles:
        _roles_check(default_formation, player_roles, where)
    if coach is not None and club is not None and coach.club_id not in (None, club.id):
        raise _invalid(f"{where}: coach {coach.name} plays for another club than {club.name}.", "club")


def teams_check(competition: Competition, teams: Sequence[Team], where: str, field: str = "teams") -> None:
    """The teams belong to the competition, each listed once (admin pickers and the API alike)."""
    foreign = [t.name for t in teams if t.competition_id != competition.id]
    if foreign:
        raise _invalid(f"{where}: {', '.join(foreign)} not entered in '{competition}'.", field)
    if len({t.id for t in teams}) != len(teams):
        raise _invalid(f"{where}: a team is listed twice.", field)


STAGE_SETTINGS = (
    "name",
    "legs",
    "away_goals_rule",
    "extra_time",
    "penalties",
    "third_place_match",
    "advance_per_group",
    "best_thirds",
    "thirds_placing",
    "swiss_rounds",
    "knockout_rounds",
    "feeder",
    "feed",
)


# What shapes a stage's fixtures: frozen once they are generated (the admin asks the same list).
STAGE_FROZEN_FIELDS = (
    "legs",
    "advance_per_group",
    "best_thirds",
    "thirds_placing",
    "knockout_rounds",
    "feeder",
    "feed",
    "swiss_rounds",
    "teams",
)


def stage_settings_check(competition: Competition, kind: str, values: Mapping[str, Any], where: str) -> None:
    """The rules on a stage's settings, for create, update and the admin form alike."""
    if kind not in Stage.Kind.values:
        raise _invalid(
            f"{where}: unknown kind '{kind}'; choose one of {', '.join(Stage.Kind.values)}.", "kind"
        )
    if values.get("legs", 1) not in (1, 2):
        raise _invalid(f"{where}: legs must be 1 (single) or 2 (double / two-legged).", "legs")
    if kind == Stage.Kind.SWISS and values.get("swiss_rounds", 0) < 1:
        raise _invalid(f"{where}: give the number of Swiss rounds.", "swiss_rounds")
    if kind == Stage.Kind.GROUPS and not 1 <= values.get("advance_per_group", 2) <= 2:
        raise _invalid(
            f"{where}: one or two teams per group can go through (plus best thirds).", "advance_per_group"
        )
    game = rules_of(competition)
    for key, allowed in (("extra_time", game.extra_time), ("penalties", game.shootout is not None)):
        if values.get(key) and not allowed:
            raise _invalid(
                f"{where}: {game.name} has no extra time or penalty shoot-out ({game.rulebook}).", key
            )
    if values.get("thirds_placing", Stage.ThirdsPlacing.EURO_2024) not in Stage.ThirdsPlacing.values:
        raise _invalid(
            f"{where}: the thirds are placed by one of {', '.join(Stage.ThirdsPlacing.values)}.",
            "thirds_placing",
        )
    if values.get("feed", "winners") not in ("winners", "losers"):
        raise _invalid(f"{where}: feed must be 'winners' or 'losers'.", "feed")
    feeder = values.get("feeder")
    if feeder is not None:
        if kind != Stage.Kind.KNOCKOUT:
            raise _invalid(f"{where}: only a knockout stage is fed by another stage.", "feeder")
        if feeder.competition_id != competition.id:
            raise _invalid(f"{where}: {feeder} is not a stage of '{competition}'.", "feeder")
        if feeder.kind not in (Stage.Kind.GROUPS, Stage.Kind.KNOCKOUT):
            raise _invalid(f"{where}: a knockout is fed by a group or knockout stage.", "feeder")
    if values.get("feed") == "losers" and feeder is not None and feeder.kind != Stage.Kind.KNOCKOUT:
        raise _invalid(f"{where}: only a knockout stage has losers to feed another stage.", "feed")


@transaction.atomic
def stage_create(
    *,
    competition: Competition,
    name: str,
    kind: str,
    order: int | None = None,
    legs: int = 1,
    away_goals_rule: bool | None = None,
    extra_time: bool | None = None,
    penalties: bool | None = None,
    third_place_match: bool = False,
    advance_per_group: int = 2,
    best_thirds: int = 0,
    thirds_placing: str = Stage.ThirdsPlacing.EURO_2024,
    swiss_rounds: int = 0,
    knockout_rounds: int = 0,
    feeder: Stage | None = None,
    feed: str = "winners",
    teams: Sequence[Team] = (),
    groups: Mapping[str, Sequence[Team]] | None = None,
) -> Stage:
    """Create a stage. A group stage's groups may start empty, to be drawn from pots.

    Away goals, extra time and the shoot-out default to what the game system plays
    (``tournaments.game_systems``): Soccer City's Cup counts away goals, Super Team has neither.
    """
    where = f"Stage '{name}' of '{competition}'"
    game = rules_of(competition)
    if away_goals_rule is None:
        away_goals_rule = game.away_goals and legs == 2
    if extra_time is None:
        extra_time = game.extra_time
    if penalties is None:
        penalties = game.shootout is not None
    values: dict[str, Any] = {
        "extra_time": extra_time,
        "penalties": penalties,
        "legs": legs,
        "advance_per_group": advance_per_group,
        "swiss_rounds": swiss_rounds,
        "thirds_placing": thirds_placing,
        "feeder": feeder,
        "feed": feed,
    }
    stage_settings_check(competition, kind, values, where)
    if kind == Stage.Kind.GROUPS:
        if not groups:
            raise _invalid(f"{where}: a group stage needs its groups.", "groups")
        all_teams = [t for g in groups.values() for t in g]
        teams_check(competition, all_teams, where, "groups")
        if any(len(g) == 1 for g in groups.values()):
            raise _invalid(f"{where}: every group needs at least two teams (or none yet, to draw).", "groups")
        bad = [g for g in groups if not isinstance(g, str) or not 0 < len(g) <= 10]
        if bad:
            raise _invalid(f"{where}: group names are 1 to 10 characters: {bad}.", "groups")
    else:
        teams_check(competition, teams, where)
        if kind in (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS) and len(teams) < 2:
            raise _invalid(f"{where}: needs at least two teams.", "teams")
    if order is None:
        order = (competition.stages.aggregate(m=Max("order"))["m"] or 0) + 1
    if competition.stages.filter(order=order).exists():
        raise Conflict(
            f"{where}: '{competition}' already has a stage number {order}.", details={"field": "order"}
        )
    stage = Stage.objects.create(
        competition=competition,
        name=name,
        kind=kind,
        order=order,
        legs=legs,
        away_goals_rule=away_goals_rule,
        extra_time=extra_time,
        penalties=penalties,
        third_place_match=third_place_match,
        advance_per_group=advance_per_group,
        best_thirds=best_thirds,
        thirds_placing=thirds_placing,
        swiss_rounds=swiss_rounds,
        knockout_rounds=knockout_rounds,
        feeder=feeder,
        feed=feed,
    )
    if teams:
        stage.teams.set(teams)
    for group_name, group_teams in (groups or {}).items():
        group = Group.objects.create(stage=stage, name=group_name)
        group.teams.set(group_teams)
    return stage


# --- updates and deletes for the set-up API (each refuses what would rewrite played history) ---


def club_update(*, club: Club, name: str | None = None, country: str | None = None) -> Club:
    if name is not None:
        if not name.strip():
            raise _invalid("A club needs a name.", "name")
        if Club.objects.filter(name=name).exclude(id=club.id).exists():
            raise Conflict(f"A club named '{name}' already exists.", details={"field": "name"})
        club.name = name
    if country is not None:
        club.country = country
    club.save()
    return club


def club_delete(*, club: Club) -> None:
    if club.teams.exists():
        raise Conflict(f"{club} has teams in competitions; it cannot be deleted.")
    club.delete()


def coach_update(*, coach: Coach, **changes: Any) -> Coach:
    allowed = {"name", "country", "ranking_id", "club", "played_world_cup_2019"}
    unknown = set(changes) - allowed
    if unknown:
        raise ApplicationError(f"Cannot change {', '.join(sorted(unknown))} here.")
    ranking_id = changes.get("ranking_id")
    if ranking_id and Coach.objects.filter(ranking_id=ranking_id).exclude(id=coach.id).exists():
        raise Conflict(f"Another coach has the ranking id '{ranking_id}'.", details={"field": "ranking_id"})
    for field, value in changes.items():
        setattr(coach, field, value)
    coach.save()
    return coach


def coach_delete(*, coach: Coach) -> None:
    if coach.teams.exists():
        raise Conflict(f"{coach} coaches teams in competitions; it cannot be deleted.")
    coach.delete()


TEAM_SETTINGS = (
    "name",
    "coach",
    "club",
    "country",
    "confederation",
    "seed",
    "default_formation",
    "player_roles",
    "withdrawn",
)


@transaction.atomic
def team_update(*, team: Team, skills: Sequence[Skill] | None = None, **changes: Any) -> Team:
    unknown = set(changes) - set(TEAM_SETTINGS)
    if unknown:
        raise ApplicationError(
            f"Cannot change {', '.join(sorted(unknown))} here (a team stays in its competition)."
        )
    team = Team.objects.select_for_update().select_related("competition").get(id=team.id)
    values = {f: getattr(team, f) for f in TEAM_SETTINGS} | changes
    where = f"Team '{values['name']}'"
    if not str(values["name"]).strip():
        raise _invalid("A team needs a name.", "name")
    if "name" in changes and team.competition.teams.filter(name=values["name"]).exclude(id=team.id).exists():
        raise Conflict(
            f"'{team.competition}' already has a team named '{values['name']}'.", details={"field": "name"}
        )
    team_fields_check(
        competition=team.competition,
        default_formation=values["default_formation"],
        player_roles=values["player_roles"],
        coach=values["coach"],
        club=values["club"],
        where=where,
    )
    for field, value in changes.items():
        setattr(team, field, value)
    team.save()
    if skills is not None:
        team_skills_set(team=team, skills=skills)
    return team


def team_delete(*, team: Team) -> None:
    if Fixture.objects.filter(Q(home_team=team) | Q(away_team=team)).exists():
        raise Conflict(f"{team} is in generated fixtures; withdraw it instead of deleting it.")
    team.delete()


@transaction.atomic
def teams_bulk_create(*, competition: Competition, rows: Sequence[Mapping[str, Any]]) -> list[Team]:
    """Enter many teams at once (a CSV or JSON list); all or nothing, errors name the row.

    A row's `club` and `coach` are names: an unknown club is created, an unknown coach too (with the
    row's country), so a list of entries from a spreadsheet sets the whole field up in one call.
    """
    created: list[Team] = []
    names = [str(r.get("name", "")) for r in rows]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        raise ApplicationError(
            f"Team names listed twice: {', '.join(dupes)}.",
            details={"field": f"teams[{names.index(dupes[0])}].name"},
        )
    skills_by_name = {s.name.lower(): s for s in Skill.objects.all()} | {
        s.code: s for s in Skill.objects.all()
    }
    for index, row in enumerate(rows):
        try:
            club = None
            if row.get("club"):
                club, _ = Club.objects.get_or_create(
                    name=str(row["club"]), defaults={"country": row.get("country", "")}
                )
            coach = None
            if row.get("coach"):
                coach = Coach.objects.filter(name=str(row["coach"])).first() or Coach.objects.create(
                    name=str(row["coach"]), country=str(row.get("country", "")), club=club
                )
            seed = row.get("seed")
            if seed in ("", None):
                seed = None
            elif not str(seed).isdigit():
                raise _invalid(f"seed must be a whole number, not '{seed}'.", "seed")
            team = team_create(
                competition=competition,
                name=str(row.get("name", "")),
                coach=coach,
                club=club,
                country=str(row.get("country", "")),
                confederation=str(row.get("confederation", "")),
                seed=int(seed) if seed is not None else None,
                default_formation=str(row.get("default_formation") or row.get("formation") or "4-4-2"),
                player_roles=row.get("player_roles") or {},
            )
            skill_names = row.get("skills") or []
            if isinstance(skill_names, str):
                skill_names = [n.strip() for n in skill_names.replace(";", ",").split(",") if n.strip()]
            unknown = [n for n in skill_names if str(n).lower() not in skills_by_name]
            if unknown:
                raise _invalid(f"unknown skills {unknown} (see /api/v1/skills).", "skills")
            if skill_names:
                team_skills_set(team=team, skills=[skills_by_name[str(n).lower()] for n in skill_names])
        except ApplicationError as exc:
            field = exc.details.get("field", "") if isinstance(exc.details, dict) else ""
            path = f"teams[{index}]" + (f".{field}" if field else "")
            raise type(exc)(
                f"Row {index + 1} ({row.get('name', '?')}): {exc.message}", details={"field": path}
            ) from None
        created.append(team)
    return created


def _stage_frozen(stage: Stage) -> bool:
    return stage.fixtures.exists()


@transaction.atomic
def stage_update(*, stage: Stage, teams: Sequence[Team] | None = None, **changes: Any) -> Stage:
    """Change a stage; what shapes its fixtures (teams, legs, rounds, feeder) only before they exist."""
    unknown = set(changes) - set(STAGE_SETTINGS) - {"order"}
    if unknown:
        raise ApplicationError(
            f"Cannot change {', '.join(sorted(unknown))} here (create a new stage instead)."
        )
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    competition = stage.competition
    where = f"Stage '{stage.name}' of '{competition}'"
    values = {f: getattr(stage, f) for f in STAGE_SETTINGS} | changes
    stage_settings_check(competition, stage.kind, values, where)
    changed = [f for f in STAGE_FROZEN_FIELDS if f in changes and changes[f] != getattr(stage, f)]
    if teams is not None:
        changed.append("teams")
    if changed and _stage_frozen(stage):
        raise Conflict(
            f"{where}: fixtures were generated; {', '.join(sorted(changed))} can no longer change.",
            details={"field": sorted(changed)[0]},
        )
    if "order" in changes and competition.stages.filter(order=changes["order"]).exclude(id=stage.id).exists():
        raise Conflict(
            f"{where}: '{competition}' already has a stage number {changes['order']}.",
            details={"field": "order"},
        )
    if teams is not None:
        if stage.kind == Stage.Kind.GROUPS:
            raise _invalid(f"{where}: a group stage's teams are on its groups.", "teams")
        teams_check(competition, teams, where)
        stage.teams.set(teams)
    for field, value in changes.items():
        setattr(stage, field, value)
    stage.save()
    return stage


@transaction.atomic
def stage_delete(*, stage: Stage) -> None:
    if _played(stage.fixtures.all()):
        raise Conflict(f"{stage} has results; it cannot be deleted.")
    fed = list(stage.fed_stages.values_list("name", flat=True))
    if fed:
        raise Conflict(f"{stage} feeds {', '.join(fed)}; delete or re-point those first.")
    stage.fixtures.all().delete()
    stage.delete()


def _group_check(stage: Stage, name: str, teams: Sequence[Team], group: Group | None) -> None:
    where = f"Group {name} of {stage.name}"
    if stage.kind != Stage.Kind.GROUPS:
        raise _invalid(f"{stage} is not a group stage.", "stage")
    if not isinstance(name, str) or not 0 < len(name) <= 10:
        raise _invalid(f"{where}: a group name is 1 to 10 characters.", "name")
    others = stage.groups.filter(name=name)
    if group is not None:
        others = others.exclude(id=group.id)
    if others.exists():
        raise Conflict(f"{stage.name} already has a group {name}.", details={"field": "name"})
    teams_check(stage.competition, teams, where)
    elsewhere = Team.objects.filter(groups__stage=stage, id__in=[t.id for t in teams])
    if group is not None:
        elsewhere = elsewhere.exclude(groups=group)
    if elsewhere.exists():
        raise _invalid(
            f"{where}: {', '.join(t.name for t in elsewhere)} already in another group of {stage.name}.",
            "teams",
        )
    if _stage_frozen(stage):
        raise Conflict(f"{stage}: fixtures were generated; its groups can no longer change.")


@transaction.atomic
def group_create(*, stage: Stage, name: str, teams: Sequence[Team] = ()) -> Group:
    _group_check(stage, name, teams, None)
    group = Group.objects.create(stage=stage, name=name)
    group.teams.set(teams)
    return group


@transaction.atomic
def group_update(*, group: Group, name: str | None = None, teams: Sequence[Team] | None = None) -> Group:
    name = group.name if name is None else name
    _group_check(group.stage, name, list(group.teams.all()) if teams is None else teams, group)
    group.name = name
    group.save()
    if teams is not None:
        group.teams.set(teams)
    return group


def group_delete(*, group: Group) -> None:
    if _stage_frozen(group.stage):
        raise Conflict(f"{group.stage}: fixtures were generated; its groups can no longer change.")
    group.delete()


def _seed_order(teams: Sequence[Team]) -> list[Team]:
    return sorted(teams, key=lambda t: (t.seed is None, t.seed or 0, t.id))


class _Numbering:
    def __init__(self, competition: Competition) -> None:
        self.next = (competition.fixtures.aggregate(m=Max("match_number"))["m"] or 0) + 1

    def take(self) -> int:
        number = self.next
        self.next += 1
        return number


class _Schedule:
    """Kick-off and deadline by round: round 1 at `start`, then every `interval`."""

    def __init__(self, start: datetime | None, interval: timedelta | None, deadline_after: timedelta | None):
        self.start, self.interval, self.deadline_after = start, interval or timedelta(days=7), deadline_after

    def kickoff(self, rnd: int) -> datetime | None:
        try:
            return self.start + self.interval * (rnd - 1) if self.start else None
        except OverflowError:
            raise self._past_the_calendar(rnd) from None

    def deadline(self, rnd: int) -> datetime | None:
        kickoff = self.kickoff(rnd)
        try:
            return kickoff + self.deadline_after if kickoff and self.deadline_after else None
        except OverflowError:
            raise self._past_the_calendar(rnd) from None

    @staticmethod
    def _past_the_calendar(rnd: int) -> ApplicationError:
        # A start near the year 9999 or a huge interval: datetime cannot hold the date (was a 500).
        return ApplicationError(
            f"Round {rnd} would kick off or be due after the last date there is (31 December 9999): "
            "choose an earlier start, a shorter interval or a shorter deadline.",
            details={"round": rnd},
        )


def _round_robin_fixtures(
    stage: Stage, teams: Sequence[Team], group: Group | None, schedule: _Schedule
) -> list[list[Fixture]]:
    rounds = round_robin_rounds(_seed_order(teams), legs=stage.legs)
    out = []
    for i, pairs in enumerate(rounds, start=1):
        out.append(
            [
                Fixture(
                    competition=stage.competition,
                    stage=stage,
                    group=group,
                    round=i,
                    round_name=f"Matchday {i}",
                    home_team=home,
                    away_team=away,
                    kickoff=schedule.kickoff(i),
                    deadline=schedule.deadline(i),
                )
                for home, away in pairs
            ]
        )
    return out


Side = tuple[Team | None, str, dict[str, Any] | None]
_BYE: Side = (None, "bye", None)


def _knockout_feeder(stage: Stage) -> Stage | None:
    if stage.feeder_id is not None:
        return stage.feeder
    return stage.competition.stages.filter(order__lt=stage.order).order_by("-order").first()


def _drawn_bracket(stage: Stage) -> list[Team] | None:
    """The teams in the order of the stage's latest knockout draw, if it was drawn."""
    draw = stage.draws.filter(kind=Draw.Kind.KNOCKOUT).order_by("-drawn_at", "-id").first()
    if draw is None:
        return None
    teams = {t.id: t for t in stage.teams.all()}
    if sorted(teams) != sorted(draw.result):
        raise Conflict(f"{stage}: the teams changed after the knockout draw; draw again.")
    return [teams[i] for i in draw.result]


def _knockout_first_round(stage: Stage) -> tuple[list[tuple[Side, Side]], list[int]]:
    """The first round's ties, and the feeding semi-finals (for a third-place match) if any."""
    teams = list(stage.teams.all())
    if teams:
        if len(teams) < 2:
            raise ApplicationError(
                f"{stage}: a knockout needs at least two teams.", details={"field": "teams"}
            )
        drawn = _drawn_bracket(stage)
        if drawn is not None:
            # An unseeded draw: the first teams drawn get the byes (if any), the rest meet in pairs.
            size = 2
            while size < len(drawn):
                size *= 2
            byes = size - len(drawn)
            bye_ties: list[tuple[Side, Side]] = [((t, "", None), _BYE) for t in drawn[:byes]]
            rest = drawn[byes:]
            real = [((rest[i], "", None), (rest[i + 1], "", None)) for i in range(0, len(rest), 2)]
            # Alternate them so that a team with a bye meets a winner, not another bye team.
            ties: list[tuple[Side, Side]] = []
            while bye_ties or real:
                ties += [bye_ties.pop(0)] if bye_ties else []
                ties += [real.pop(0)] if real else []
            return ties, []
        teams = _seed_order(teams)
        size = 2
        while size < len(teams):
            size *= 2
        order = seeded_bracket_order(size)
        # Seeds beyond the field are byes: the top seeds go straight through to round 2.
        seeded = [(teams[s - 1], "", None) if s <= len(teams) else _BYE for s in order]
        return [(seeded[i], seeded[i + 1]) for i in range(0, size, 2)], []
    feeder = _knockout_feeder(stage)
    if feeder is None:
        raise ApplicationError(
            f"{stage}: give the knockout its teams, or put it after a group or knockout stage.",
            details={"field": "teams"},
        )
    if feeder.competition_id != stage.competition_id or feeder.order >= stage.order:
        raise ApplicationError(f"{stage}: it can only be fed by an earlier stage of its competition.")
    if feeder.kind == Stage.Kind.KNOCKOUT:
        return _fed_by_knockout(stage, feeder)
    if feeder.kind != Stage.Kind.GROUPS:
        raise ApplicationError(
            f"{stage}: a knockout after a {feeder.get_kind_display().lower()} stage needs its teams "
            "(the qualifiers of a league are not placed automatically); give them.",
            details={"field": "teams"},
        )
    if stage.feed == "losers":
        raise ApplicationError(f"{stage}: only a knockout stage has losers to feed another stage.")
    names = list(feeder.groups.order_by("name").values_list("name", flat=True))
    if not names:
        raise ApplicationError(f"{stage}: the stage before it, {feeder.name}, has no groups yet.")
    try:
        slots = groups_to_knockout_slots(
            stage_id=feeder.id,
            group_names=names,
            advance=feeder.advance_per_group,
            best_thirds=feeder.best_thirds,
            thirds_table=feeder.thirds_placing,
        )
    except ValueError as exc:
        raise ApplicationError(f"{stage}: {exc}.") from None

    def side(slot: Slot) -> Side:
        return (None, slot.label, slot.source)

    return [(side(a), side(b)) for a, b in slots], []


def _fed_by_knockout(stage: Stage, feeder: Stage) -> tuple[list[tuple[Side, Side]], list[int]]:
    last = (
        feeder.fixtures.exclude(round_name="Third place")
        .order_by("-round")
        .values_list("round", flat=True)
        .first()
    )
    if last is None:
        raise Conflict(
            f"{stage}: generate the fixtures of {feeder.name} first; its winners play this stage.",
            details={"field": "feeder"},
        )
    numbers = sorted(
        {
            n
            for n in feeder.fixtures.filter(round=last)
            .exclude(round_name="Third place")
            .values_list("match_number", flat=True)
            if n is not None
        }
    )
    kind = "winner" if stage.feed == "winners" else "loser"
    label = "Winner" if kind == "winner" else "Loser"
    sides: list[Side] = [(None, f"{label} match {n}", {"type": kind, "match": n}) for n in numbers]
    if len(sides) < 2:
        raise ApplicationError(
            f"{stage}: {feeder.name} ends with its final; nothing is left to feed another knockout stage "
            f"(set its number of rounds so it stops before the final)."
        )
    if len(sides) % 2:
        raise ApplicationError(f"{stage}: {feeder.name} ends with an odd number of ties ({len(sides)}).")
    ties = [(sides[i], sides[i + 1]) for i in range(0, len(sides), 2)]
    return ties, numbers if (len(numbers) == 2 and kind == "winner") else []


def _tie(
    stage: Stage, number: int, rnd: int, name: str, home: Side, away: Side, schedule: _Schedule
) -> list[Fixture]:
    fixtures = []
    for leg in range(1, stage.legs + 1):
        h, a = (home, away) if leg == 1 else (away, home)
        fixtures.append(
            Fixture(
                competition=stage.competition,
                stage=stage,
                round=rnd,
                round_name=name,
                leg=leg,
                match_number=number,
                home_team=h[0],
                away_team=a[0],
                home_placeholder=h[1],
                away_placeholder=a[1],
                home_source=h[2],
                away_source=a[2],
                kickoff=schedule.kickoff(rnd * stage.legs - stage.legs + leg),
                deadline=schedule.deadline(rnd * stage.legs - stage.legs + leg),
            )
        )
    return fixtures


def _knockout_fixtures(stage: Stage, numbering: _Numbering, schedule: _Schedule) -> list[Fixture]:
    ties, semi_numbers = _knockout_first_round(stage)
    fixtures: list[Fixture] = []
    rnd = 1
    while ties and (not stage.knockout_rounds or rnd <= stage.knockout_rounds):
        size = len(ties) * 2
        name = round_name(size)
        numbers = []
        if size == 2 and stage.third_place_match and len(semi_numbers) == 2:
            third = numbering.take()
            loser = [(None, f"Loser match {n}", {"type": "loser", "match": n}) for n in semi_numbers]
            fixtures += _tie(stage, third, rnd, "Third place", loser[0], loser[1], schedule)
        winners: list[Side] = []
        for home, away in ties:
            if _BYE in (home, away):
                winners.append(away if home == _BYE else home)
                continue
            number = numbering.take()
            numbers.append(number)
            fixtures += _tie(stage, number, rnd, name, home, away, schedule)
            winners.append((None, f"Winner match {number}", {"type": "winner", "match": number}))
        if size == 4:
            semi_numbers = numbers
        ties = [(winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]
        rnd += 1
    return fixtures


@transaction.atomic
def fixture_generate(
    *,
    stage: Stage,
    start: datetime | None = None,
    interval: timedelta | None = None,
    deadline_after: timedelta | None = None,
) -> list[Fixture]:
    """Create the stage's fixtures (for Swiss: the first round). Kick-offs are optional."""
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    if stage.fixtures.exists():
        raise Conflict(f"{stage}: fixtures were already generated.")
    numbering = _Numbering(stage.competition)
    schedule = _Schedule(start, interval, deadline_after)
    fixtures: list[Fixture] = []
    _generation_check(stage)
    if stage.kind == Stage.Kind.ROUND_ROBIN:
        for rnd in _round_robin_fixtures(stage, list(stage.teams.all()), None, schedule):
            fixtures += rnd
    elif stage.kind == Stage.Kind.GROUPS:
        per_group = [
            _round_robin_fixtures(stage, list(g.teams.all()), g, schedule)
            for g in stage.groups.order_by("name")
        ]
        # Number matchday by matchday across the groups, as a World Cup schedule does.
        for matchday in range(max(len(r) for r in per_group)):
            for rounds in per_group:
                if matchday < len(rounds):
                    fixtures += rounds[matchday]
    elif stage.kind == Stage.Kind.KNOCKOUT:
        fixtures = _knockout_fixtures(stage, numbering, schedule)
    else:
        # Round 1: no results yet, so every team is level and the seeds decide.
        level = [Row(team=t.id) for t in stage.teams.all()]
        return swiss_round_create(
            stage=stage, table=level, schedule_start=start, deadline_after=deadline_after
        )
    for f in fixtures:
        if f.match_number is None:
            f.match_number = numbering.take()
    created = Fixture.objects.bulk_create(fixtures)
    if stage.competition.status == Competition.Status.DRAFT:
        Competition.objects.filter(id=stage.competition_id).update(status=Competition.Status.ACTIVE)
    return created


def _generation_check(stage: Stage) -> None:
    """An empty stage is refused with what to add (a group stage without groups was a 500)."""
    if stage.kind in (Stage.Kind.ROUND_ROBIN, Stage.Kind.SWISS):
        n = stage.teams.count()
        if n < 2:
            raise ApplicationError(
                f"{stage}: a {stage.get_kind_display().lower()} stage needs at least two teams; it has {n}. "
                "Add its teams first.",
                details={"field": "teams", "stage": stage.id},
            )
        if stage.kind == Stage.Kind.SWISS and stage.swiss_rounds < 1:
            raise ApplicationError(
                f"{stage}: give the number of Swiss rounds first.", details={"field": "swiss_rounds"}
            )
    elif stage.kind == Stage.Kind.GROUPS:
        groups = list(stage.groups.annotate(n=Count("teams")).order_by("name"))
        if not groups:
            raise ApplicationError(
                f"{stage}: the group stage has no groups; add them (or draw them from pots) first.",
                details={"field": "groups", "stage": stage.id},
            )
        short = [g.name for g in groups if g.n < 2]
        if short:
            raise ApplicationError(
                f"{stage}: group {', '.join(short)} needs at least two teams.",
                details={"field": "groups", "groups": short},
            )


def swiss_round_create(
    *,
    stage: Stage,
    table: Sequence[Row],
    schedule_start: datetime | None = None,
    deadline_after: timedelta | None = None,
) -> list[Fixture]:
    """Pair the next Swiss round of `stage` (locked by the caller) from its current `table`.

    The table is read by the caller (round 1: no results, every team level), which keeps this
    module below the standings: pairing a later round from the tables is results-driven progress
    (matches.progress.swiss_round_generate).
    """
    current = max(
        stage.fixtures.aggregate(m=Max("round"))["m"] or 0, stage.byes.aggregate(m=Max("round"))["m"] or 0
    )
    if current >= stage.swiss_rounds:
        raise Conflict(f"{stage}: all {stage.swiss_rounds} Swiss rounds are already paired.")
    if stage.fixtures.filter(round=current).exclude(status__in=Fixture.DONE_STATUSES).exists():
        raise Conflict(f"{stage}: round {current} is not finished yet.")
    seeds = {t.id: (t.seed is None, t.seed or 0, t.id) for t in stage.teams.all()}
    # Level teams are ranked by seed, so round 1 pairs the seeds in order.
    ranked = [r.team for r in sorted(table, key=lambda r: (-r.points, -r.buchholz, seeds[r.team]))]
    points = {r.team: r.points for r in table}
    played: set[frozenset[int]] = set()
    home_counts: dict[int, int] = {}
    for home, away in stage.fixtures.values_list("home_team_id", "away_team_id"):
        played.add(frozenset((home, away)))
        home_counts[home] = home_counts.get(home, 0) + 1
    had_bye = set(stage.byes.values_list("team_id", flat=True))
    try:
        pairing = swiss_pair(
            ranked=ranked, points=points, played=played, had_bye=had_bye, home_counts=home_counts
        )
    except PairingImpossible as exc:
        raise Conflict(f"{stage}, round {current + 1}: {exc}.") from None
    rnd = current + 1
    numbering = _Numbering(stage.competition)
    teams = {t.id: t for t in stage.teams.all()}
    fixtures = [
        Fixture(
            competition=stage.competition,
            stage=stage,
            round=rnd,
            round_name=f"Round {rnd}",
            home_team=teams[h],
            away_team=teams[a],
            match_number=numbering.take(),
            kickoff=schedule_start,
            deadline=schedule_start + deadline_after if schedule_start and deadline_after else None,
        )
        for h, a in pairing.pairs
    ]
    if pairing.bye is not None:
        Bye.objects.create(stage=stage, round=rnd, team=teams[pairing.bye])
    if stage.status == Stage.Status.PENDING:
        Stage.objects.filter(id=stage.id).update(status=Stage.Status.ACTIVE)
    return Fixture.objects.bulk_create(fixtures)


@transaction.atomic
def fixture_schedule(*, fixture_id: int, kickoff: datetime | None, deadline: datetime | None) -> Fixture:
    """Set when a fixture is played and by when its result must be in (forfeits follow the deadline)."""
    try:
        fixture = Fixture.objects.select_for_update().get(id=fixture_id)
    except Fixture.DoesNotExist:
        raise NotFound(f"No fixture {fixture_id}.") from None
    if fixture.status not in Fixture.OPEN_STATUSES:
        raise Conflict(
            f"{fixture}: its result is {fixture.get_status_display().lower()}; it cannot be rescheduled."
        )
    if kickoff is not None and deadline is not None and deadline < kickoff:
        raise ApplicationError(f"{fixture}: the result deadline cannot be before the kick-off.")
    fixture.kickoff, fixture.deadline = kickoff, deadline
    fixture.save(update_fields=["kickoff", "deadline", "updated_at"])
    return fixture


@transaction.atomic
def round_shift(*, stage: Stage, round: int, by: timedelta) -> list[Fixture]:
    """Move a whole round's kick-offs and deadlines (e.g. a holiday); played fixtures stay put."""
    stage = Stage.objects.select_for_update().get(id=stage.id)
    fixtures = list(stage.fixtures.select_for_update().filter(round=round).order_by("match_number", "leg"))
    if not fixtures:
        raise NotFound(f"{stage} has no round {round}.", details={"field": "round"})
    movable = [f for f in fixtures if f.status in Fixture.OPEN_STATUSES]
    if not movable:
        raise Conflict(f"{stage}, round {round}: every fixture already has a result.")
    if not any(f.kickoff or f.deadline for f in movable):
        raise Conflict(
            f"{stage}, round {round}: its fixtures have no kick-off or deadline to move; "
            "generate them with a schedule or set them one by one.",
        )
    for fixture in movable:
        try:
            fixture.kickoff = fixture.kickoff + by if fixture.kickoff else None
            fixture.deadline = fixture.deadline + by if fixture.deadline else None
        except OverflowError:
            raise ApplicationError(
                "The shift moves the round past the last date there is.", details={"field": "days"}
            ) from None
    Fixture.objects.bulk_update(movable, ["kickoff", "deadline", "updated_at"])
    return movable


def _draw_seed(seed: int | None) -> int:
    if seed is None:
        return secrets.randbits(62)
    if not 0 <= seed < 2**63:
        raise _invalid("The seed is a whole number from 0 to 2^63 - 1.", "seed")
    return seed


DRAW_ATTRIBUTES = ("confederation", "country", "club")


def draw_caps(constraints: Sequence[str | Mapping[str, Any]], where: str) -> list[Cap]:
    """A draw's constraints as caps per group; "club" / "country" alone keep those teams apart."""
    caps: list[Cap] = []
    for index, item in enumerate(constraints):
        field = f"constraints[{index}]"
        if isinstance(item, str):
            item = {"attribute": item, "at_most": 1}
        if not isinstance(item, Mapping):
            raise _invalid(f"{where}: a constraint is 'club', 'country' or an object.", field)
        unknown = set(item) - {"attribute", "value", "at_most", "at_least"}
        if unknown:
            raise _invalid(f"{where}: unknown keys {sorted(unknown)} in a constraint.", field)
        attribute, value = item.get("attribute"), item.get("value") or None
        at_most, at_least = item.get("at_most"), item.get("at_least")
        if attribute not in DRAW_ATTRIBUTES:
            raise _invalid(
                f"{where}: a constraint caps one of {', '.join(DRAW_ATTRIBUTES)}, not '{attribute}'.", field
            )
        for name, number in (("at_most", at_most), ("at_least", at_least)):
            if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
                raise _invalid(f"{where}: {name} is a whole number of at least 1.", field)
        if at_most is None and at_least is None:
            raise _invalid(f"{where}: give at_most and/or at_least per group.", field)
        if at_least is not None and value is None:
            raise _invalid(f"{where}: 'at least per group' needs the value (e.g. UEFA).", field)
        if at_most is not None and at_least is not None and at_least > at_most:
            raise _invalid(f"{where}: at_least {at_least} is more than at_most {at_most}.", field)
        caps.append(Cap(attribute=attribute, value=value, at_most=at_most, at_least=at_least))
    return caps


def _cap_json(cap: Cap) -> dict[str, Any]:
    out: dict[str, Any] = {"attribute": cap.attribute}
    for key in ("value", "at_most", "at_least"):
        if getattr(cap, key) is not None:
            out[key] = getattr(cap, key)
    out["text"] = cap.describe()
    return out


def _traits(team: Team) -> dict[str, str]:
    club = team.club.name if team.club else ""
    return {"confederation": team.confederation, "country": team.country, "club": club}


def _draw_groups_of(stage: Stage, group_count: int | None, where: str) -> list[Group]:
    groups = list(stage.groups.order_by("name"))
    if group_count is not None:
        if groups and len(groups) != group_count:
            raise Conflict(
                f"{where}: the stage already has {len(groups)} groups.", details={"field": "group_count"}
            )
        if not groups:
            if not 1 <= group_count <= 26:
                raise _invalid(f"{where}: 1 to 26 groups.", "group_count")
            groups = [Group.objects.create(stage=stage, name=group_letter(i)) for i in range(group_count)]
    if not groups:
        raise _invalid(f"{where}: the stage has no groups; give group_count.", "group_count")
    return groups


@transaction.atomic
def groups_draw(
    *,
    stage: Stage,
    pots: Sequence[Sequence[Team]],
    seed: int | None = None,
    constraints: Sequence[str | Mapping[str, Any]] = (),
    relax: bool = False,
    group_count: int | None = None,
    user: Any = None,
) -> Draw:
    """Draw a group stage's groups from pots; recorded with its seed, so it can be repeated.

    `constraints` cap the teams per group sharing a confederation, country or club (see
    draw_caps). A draw no group assignment can meet is refused, naming the pot and the group that
    cannot be filled, unless `relax`: then the pots that cannot be placed are drawn without the
    constraints and the draw records which and why. Without groups yet, `group_count` creates
    groups A, B, C ...
    """
    stage = Stage.objects.select_for_update().select_related("competition").get(id=stage.id)
    where = f"Draw for {stage}"
    if stage.kind != Stage.Kind.GROUPS:
        raise _invalid(f"{where}: only a group stage is drawn into groups.", "stage")
    if stage.fixtures.exists():
        raise Conflict(f"{where}: fixtures were generated; the groups can no longer be drawn.")
    caps = draw_caps(constraints, where)
    if not pots or not all(pots):
        raise _invalid(f"{where}: give the pots, each a non-empty list of teams.", "pots")
    all_teams = [t for pot in pots for t in pot]
    teams_check(stage.competition, all_teams, where, "pots")
    groups = _draw_groups_of(stage, group_count, where)
    if len(all_teams) < 2 * len(groups):
        raise _invalid(
            f"{where}: {len(all_teams)} teams cannot fill {len(groups)} groups of at least two.", "pots"
        )
    seed = _draw_seed(seed)
    ids = {t.id: t for t in all_teams}
    traits = {t.id: _traits(t) for t in Team.objects.filter(id__in=ids).select_related("club")}
    try:
        result = draw_groups(
            pots=[[t.id for t in pot] for pot in pots],
            group_names=[g.name for g in groups],
            seed=seed,
            caps=caps,
            traits=traits,
            relax=relax,
        )
    except DrawImpossible as exc:
        raise ApplicationError(
            f"{where}: the constraints cannot all be met: {exc}. Change them, or ask to relax them.",
            details={"field": "constraints", "pot": exc.pot, "group": exc.group},
        ) from None
    for group in groups:
        group.teams.set([ids[i] for i in result.groups[group.name]])
    return Draw.objects.create(
        stage=stage,
        kind=Draw.Kind.GROUPS,
        seed=seed,
        pots=[[t.id for t in pot] for pot in pots],
        constraints=[_cap_json(c) for c in caps],
        relax=relax,
        relaxed=[{"pot": r.pot, "group": r.group, "reason": r.reason} for r in result.relaxed],
        result=result.groups,
        drawn_by=user if getattr(user, "is_authenticated", False) else None,
    )


@transaction.atomic
def knockout_draw(*, stage: Stage, seed: int | None = None, user: Any = None) -> Draw:
    """Draw an unseeded knockout bracket among the stage's teams; recorded with its seed."""
    stage = Stage.objects.select_for_update().get(id=stage.id)
    if stage.kind != Stage.Kind.KNOCKOUT:
        raise _invalid(f"{stage} is not a knockout stage.", "stage")
    if stage.fixtures.exists():
        raise Conflict(f"{stage}: fixtures were generated; the bracket can no longer be drawn.")
    team_ids = sorted(stage.teams.values_list("id", flat=True))
    if len(team_ids) < 2:
        raise _invalid(f"{stage}: give the knockout at least two teams to draw.", "teams")
    seed = _draw_seed(seed)
    order = draw_bracket(teams=team_ids, seed=seed)
    return Draw.objects.create(
        stage=stage,
        kind=Draw.Kind.KNOCKOUT,
        seed=seed,
        pots=[team_ids],
        result=order,
        drawn_by=user if getattr(user, "is_authenticated", False) else None,
    )


@transaction.atomic
def competition_tiebreak_set(
    *, competition: Competition, preset: str, order: Sequence[str] = ()
) -> Competition:
    order = tiebreak_check(preset=preset, order=list(order) if isinstance(order, tuple) else order)
    competition.tiebreak_preset = preset
    competition.tiebreak_order = order
    competition.save(update_fields=["tiebreak_preset", "tiebreak_order"])
    return competition


# Entry points of the neighbouring service modules, importable from one place.
from tournaments.skills import (  # noqa: E402
    match_skills_select,
    skill_gain_record,
    skill_loss_record,
)

__all__ = [
    "ADVANCED_RULES",
    "STAGE_FROZEN_FIELDS",
    "club_create",
    "club_delete",
    "club_update",
    "coach_create",
    "coach_delete",
    "coach_update",
    "competition_create",
    "competition_delete",
    "competition_settings_check",
    "competition_tiebreak_set",
    "competition_update",
    "draw_caps",
    "fixture_generate",
    "fixture_schedule",
    "formation_check",
    "group_create",
    "group_delete",
    "group_update",
    "groups_draw",
    "knockout_draw",
    "match_skills_select",
    "round_shift",
    "skill_gain_record",
    "skill_loss_record",
    "stage_create",
    "stage_delete",
    "stage_settings_check",
    "stage_update",
    "swiss_round_create",
    "team_create",
    "team_delete",
    "team_fields_check",
    "team_skills_set",
    "team_update",
    "teams_bulk_create",
    "teams_check",
    "tiebreak_check",
]

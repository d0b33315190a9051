"""Clubs, coaches and the teams they enter: create, update, delete (while unplayed) and the checks every
writer of a team shares.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.db.models import Q

from kernel.errors import ApplicationError, Conflict
from matchplay.engine_door import parse as parse_log
from tournaments import announcements
from tournaments.game_systems import (
    FUBA_2,
    FUBA_3,
    PLAYING_STYLES,
    ROLE_KEYS_3,
    STYLE_LINES,
    GameSystemRules,
    rules_of,
)
from tournaments.models import (
    Club,
    Coach,
    Competition,
    Fixture,
    Skill,
    Team,
)

# FUBA rulebook 3, advanced rules A1–A13 (A12 is referred to but missing from the text; the
# engine accepts it as another name of A13).
from tournaments.services.shared import invalid, text_check
from tournaments.skills import team_skills_set


def club_create(*, name: str, country: str = "", members: Sequence[Any] | None = None) -> Club:
    if not name.strip():
        raise invalid("A club needs a name.", "name")
    if Club.objects.filter(name=name).exists():
        raise Conflict(f"A club named '{name}' already exists.", details={"field": "name"})
    club = Club.objects.create(name=name, country=country)
    if members:
        club.members.set(members)
    return club


def club_members_set(*, club: Club, members: Sequence[Any]) -> Club:
    """Who acts for the club (reports and confirms its results): the admin's list of its members."""
    club.members.set(members)
    return club


def coach_create(
    *,
    name: str,
    country: str,
    ranking_id: str = "",
    club: Club | None = None,
    played_world_cup_2019: bool = False,
    user: Any = None,
) -> Coach:
    if not name.strip():
        raise invalid("A coach needs a name.", "name")
    if ranking_id and Coach.objects.filter(ranking_id=ranking_id).exists():
        raise Conflict(f"Another coach has the ranking id '{ranking_id}'.", details={"field": "ranking_id"})
    return Coach.objects.create(
        user=user,
        name=name,
        country=country,
        ranking_id=ranking_id,
        club=club,
        played_world_cup_2019=played_world_cup_2019,
    )


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
    playing_styles: Mapping[str, Any] | None = None,
) -> Team:
    if competition.teams.filter(name=name).exists():
        raise Conflict(f"'{competition}' already has a team named '{name}'.")
    if not name.strip():
        raise invalid("A team needs a name.", "name")
    team_fields_check(
        competition=competition,
        default_formation=default_formation,
        player_roles=player_roles or {},
        playing_styles=playing_styles or {},
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
        playing_styles=dict(playing_styles or {}),
    )


def formation_check(formation: object, *, where: str) -> None:
    # FUBA 2.1: ten outfield players in defence, midfield and attack, written "D-M-F".
    parts = formation.split("-") if isinstance(formation, str) else []
    if len(parts) != 3 or not all(p.isdigit() for p in parts) or sum(int(p) for p in parts) != 10:
        raise invalid(
            f"{where}: formation '{formation}' must be defenders-midfielders-forwards summing to 10 "
            "outfield players (e.g. 4-4-2).",
            "default_formation",
        )


def _roles_check(game: GameSystemRules, formation: object, roles: Mapping[str, Any], where: str) -> None:
    """A2 roles as the rules engine will read them from the team's log header, checked on entry:
    the names of the game's rulebook (FUBA 3 and FUBA 2 name them differently), then the engine's
    own check of the header (how many of each a formation allows)."""
    keys = game.role_keys or ROLE_KEYS_3
    unknown = [k for k in roles if k not in keys]
    if unknown:
        raise invalid(
            f"{where}: unknown player roles {', '.join(map(str, unknown))} (A2 of the {game.rulebook}: "
            f"{', '.join(keys)}).",
            "player_roles",
        )
    _header_check(game, {"formation": formation, "roles": dict(roles)}, ["A2"], where)


def _styles_check(game: GameSystemRules, formation: object, styles: object, where: str) -> None:
    """Rulebook 2.0, A6: "Each of these areas must use one of following playing styles: easy,
    normal or aggressive"; a line left out plays normal."""
    if not isinstance(styles, Mapping):
        raise invalid(
            f'{where}: playing styles must be an object such as {{"midfield": "aggressive"}}.',
            "playing_styles",
        )
    if not styles:
        return
    if not game.playing_styles:
        raise invalid(
            f"{where}: {game.name} has no playing styles (they are advanced rule A6 of FUBA rulebook 2.0).",
            "playing_styles",
        )
    for line, style in styles.items():
        if line not in STYLE_LINES or style not in PLAYING_STYLES:
            raise invalid(
                f"{where}: playing styles (A6) are one of {', '.join(PLAYING_STYLES)} for each of "
                f"{', '.join(STYLE_LINES)}; got {line!r}: {style!r}.",
                "playing_styles",
            )
    _header_check(game, {"formation": formation, "styles": dict(styles)}, ["A6"], where)


def _header_check(game: GameSystemRules, team: dict[str, Any], rules: list[str], where: str) -> None:
    """The engine's reading of the team's entry in a log header of its game (an error about the
    header as a whole, e.g. a ruleset the engine cannot read yet, is not the team's)."""
    header = {
        "format": "fuba-log/1",
        "ruleset": game.engine_ruleset or FUBA_3,
        "advanced_rules": rules,
        "teams": {"home": {"name": "x", **team}, "away": {"name": "y", "formation": "4-4-2"}},
    }
    _header, _events, errors = parse_log({**header, "events": []})
    if any(e.path == "$.ruleset" for e in errors):
        return  # an engine that cannot read the game's ruleset has nothing to say of its teams
    mine = [e for e in errors if (e.path or "").startswith("$.teams.home")]
    if mine:
        path = (mine[0].path or "").replace("$.teams.home.", "")
        field = {"roles": "player_roles", "styles": "playing_styles"}.get(
            path.split(".")[0], "default_formation"
        )
        raise invalid(f"{where}: {path}: {mine[0].reason}.", field)


def team_fields_check(
    *,
    competition: Competition,
    default_formation: object,
    player_roles: object,
    coach: Coach | None,
    club: Club | None,
    where: str,
    playing_styles: object = None,
) -> None:
    """The checks on a team's entry shared by the API, the admin and the commands."""
    game = rules_of(competition)
    if game.code in (FUBA_3, FUBA_2):  # the formations of rulebooks 2 and 3
        formation_check(default_formation, where=where)
    if not isinstance(player_roles, Mapping):
        raise invalid(
            f'{where}: player roles must be an object such as {{"attacking_midfielders": 1}}.',
            "player_roles",
        )
    if player_roles:
        _roles_check(game, default_formation, player_roles, where)
    _styles_check(game, default_formation, playing_styles or {}, where)
    if coach is not None and club is not None and coach.club_id not in (None, club.id):
        raise invalid(f"{where}: coach {coach.name} plays for another club than {club.name}.", "club")


def teams_check(competition: Competition, teams: Sequence[Team], where: str, field: str = "teams") -> None:
    """The teams belong to the competition, each listed once (admin pickers and the API alike)."""
    foreign = [t.name for t in teams if t.competition_id != competition.id]
    if foreign:
        raise invalid(f"{where}: {', '.join(foreign)} not entered in '{competition}'.", field)
    if len({t.id for t in teams}) != len(teams):
        raise invalid(f"{where}: a team is listed twice.", field)


def club_update(*, club: Club, name: str | None = None, country: str | None = None) -> Club:
    renamed = name is not None and name != club.name
    if name is not None:
        if not name.strip():
            raise invalid("A club needs a name.", "name")
        if Club.objects.filter(name=name).exclude(id=club.id).exists():
            raise Conflict(f"A club named '{name}' already exists.", details={"field": "name"})
        club.name = name
    if country is not None:
        club.country = country
    club.save()
    if renamed:
        announcements.names_changed.send(sender=Club, club_id=club.id)
    return club


def club_delete(*, club: Club) -> None:
    if club.teams.exists():
        raise Conflict(f"{club} has teams in competitions; it cannot be deleted.")
    club.delete()


# What the public pages show of a coach: the teams list, a team's page and the ratings.
_COACH_SHOWN = ("name", "country", "club_id")


def coach_update(*, coach: Coach, **changes: Any) -> Coach:
    allowed = {"name", "country", "ranking_id", "club", "played_world_cup_2019", "user"}
    unknown = set(changes) - allowed
    if unknown:
        raise ApplicationError(f"Cannot change {', '.join(sorted(unknown))} here.")
    ranking_id = changes.get("ranking_id")
    if ranking_id and Coach.objects.filter(ranking_id=ranking_id).exclude(id=coach.id).exists():
        raise Conflict(f"Another coach has the ranking id '{ranking_id}'.", details={"field": "ranking_id"})
    shown = {f: getattr(coach, f) for f in _COACH_SHOWN}
    for field, value in changes.items():
        setattr(coach, field, value)
    coach.save()
    if any(getattr(coach, f) != before for f, before in shown.items()):
        announcements.names_changed.send(sender=Coach, coach_id=coach.id)
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
    "playing_styles",
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
        raise invalid("A team needs a name.", "name")
    if "name" in changes and team.competition.teams.filter(name=values["name"]).exclude(id=team.id).exists():
        raise Conflict(
            f"'{team.competition}' already has a team named '{values['name']}'.", details={"field": "name"}
        )
    team_fields_check(
        competition=team.competition,
        default_formation=values["default_formation"],
        player_roles=values["player_roles"],
        playing_styles=values["playing_styles"],
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


# A pasted row's text and the column it is stored in (checked before anything is written).
_ROW_TEXT = (
    ("name", Team, "name"),
    ("club", Club, "name"),
    ("coach", Coach, "name"),
    ("country", Team, "country"),
    ("confederation", Team, "confederation"),
    ("default_formation", Team, "default_formation"),
    ("formation", Team, "default_formation"),
)


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
            for field, model, column in _ROW_TEXT:
                if row.get(field):
                    text_check(row[field], model=model, column=column, field=field)
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
                raise invalid(f"seed must be a whole number, not '{seed}'.", "seed")
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
                playing_styles=row.get("playing_styles") or {},
            )
            skill_names = row.get("skills") or []
            if isinstance(skill_names, str):
                skill_names = [n.strip() for n in skill_names.replace(";", ",").split(",") if n.strip()]
            unknown = [n for n in skill_names if str(n).lower() not in skills_by_name]
            if unknown:
                raise invalid(f"unknown skills {unknown} (see /api/v1/skills).", "skills")
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

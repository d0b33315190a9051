"""A turn log must belong to its fixture: ruleset, teams, formations, roles, playing styles, skills,
players short, advanced rules and extra time as the fixture and its competition say.

The rules engine judges whether a log is a legal match; this module judges whether it is a record
of *this* match. Used by every way a log arrives (result submission through the API or the upload
form, and the live scorer, whose header is built by ``fixture_header``), so all of them name each
difference in the same words.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kernel.errors import ApplicationError
from tournaments.game_systems import FUBA_3, ROLE_KEYS_3, STYLE_LINES, GameSystemRules, rules_of
from tournaments.models import Fixture, MatchSkill, Skill, Stage, Team, TeamSkill
from tournaments.selectors import fixture_players_short, team_skills_unavailable

# "all" in a header means every advanced rule of its rulebook; in rulebook 3 A12 is another name of
# A13 (docs/turn-log-format.md, interpretation I-12).
ROLE_KEYS = ROLE_KEYS_3


class LogNotForFixture(ApplicationError):
    status_code = 422
    code = "log_not_for_fixture"


def _rules(value: Any, game: GameSystemRules) -> set[str] | None:
    if value == "all":
        return {r for r in game.advanced_rules if r != "A12"}
    if value is None:
        return set()
    if not isinstance(value, list):
        return None
    if game.code != FUBA_3:
        return {str(r) for r in value}
    return {"A13" if r == "A12" else str(r) for r in value}


def _game(fixture: Fixture) -> GameSystemRules:
    return rules_of(fixture.competition)


def _rule_sort(rules: set[str]) -> list[str]:
    return sorted(rules, key=lambda r: (len(r), r))


def competition_rules(fixture: Fixture) -> set[str]:
    return _rules(list(fixture.competition.advanced_rules or []), _game(fixture)) or set()


def plays_extra_time(fixture: Fixture) -> bool:
    """The log header's ``extra_time``: a knockout stage that plays extra time when a tie is level
    (the engine then asks at full time whether it is played, I-38)."""
    return bool(fixture.stage.kind == Stage.Kind.KNOCKOUT and fixture.stage.extra_time)


def _roles(value: Any, game: GameSystemRules) -> dict[str, int]:
    """The A2 roles by the names of the game's rulebook (FUBA 3's plural, FUBA 2's singular)."""
    if not isinstance(value, Mapping):
        return {}
    keys = game.role_keys or ROLE_KEYS
    return {k: v for k, v in value.items() if k in keys and v}


def _styles(value: Any) -> dict[str, str]:
    """Rulebook 2.0, A6: a style per line, "normal" where the entry leaves the line out."""
    given = value if isinstance(value, Mapping) else {}
    return {line: str(given.get(line, "normal")) for line in STYLE_LINES}


def _match_skills(fixture: Fixture, team: Team) -> list[Skill]:
    return [
        ms.skill
        for ms in MatchSkill.objects.filter(fixture=fixture, team=team).select_related("skill").order_by("id")
    ]


def _available_roster(fixture: Fixture, team: Team) -> list[Skill]:
    lost = team_skills_unavailable(team=team, fixture=fixture)
    return [
        ts.skill
        for ts in TeamSkill.objects.filter(team=team).select_related("skill").order_by("skill__name")
        if ts.skill_id not in lost
    ]


def fixture_header(fixture: Fixture) -> dict[str, Any]:
    """The fuba-log/1 header of this fixture, never typed by a club: names, formations and roles
    from the teams, skills chosen for the match (else the roster without skills lost, A13),
    players short from suspensions, the competition's advanced rules, extra time of knockout ties.

    When the rosters bring different skill weights (A11: "an equal number of skills"), the richer
    side drops skills from the end of its alphabetical list until both match and fit the
    competition's limit, as the simulator does (docs/forfeits.md)."""
    rules = competition_rules(fixture)
    game = _game(fixture)
    teams: dict[str, dict[str, Any]] = {}
    weights: dict[str, list[tuple[str, int]]] = {}
    for side, team in (("home", fixture.home_team), ("away", fixture.away_team)):
        assert team is not None
        entry: dict[str, Any] = {"name": team.name, "formation": team.default_formation or "4-4-2"}
        if "A2" in rules and _roles(team.player_roles, game):
            entry["roles"] = _roles(team.player_roles, game)
        if game.playing_styles and "A6" in rules:
            entry["styles"] = _styles(team.playing_styles)
        if "A11" in rules:
            skills = _match_skills(fixture, team) or _available_roster(fixture, team)
            weights[side] = sorted((s.code, s.weight) for s in skills)
        if fixture_players_short(fixture=fixture, team=team):
            entry["players_short"] = 1
        teams[side] = entry
    if weights:
        limit = fixture.competition.skill_limit

        def weight(side: str) -> int:
            return sum(w for _, w in weights[side])

        while weight("home") != weight("away") or weight("home") > limit:
            richer = "home" if weight("home") >= weight("away") else "away"
            weights[richer].pop()
        for side in ("home", "away"):
            teams[side]["skills"] = [code for code, _ in weights[side]]
    header: dict[str, Any] = {
        "format": "fuba-log/1",
        "ruleset": game.engine_ruleset or FUBA_3,
        "advanced_rules": _rule_sort(rules),
        "teams": teams,
    }
    if plays_extra_time(fixture):
        header["extra_time"] = True
    return header


def _difference(path: str, rule: str, reason: str) -> dict[str, Any]:
    return {"turn": None, "stage": None, "rule": rule, "path": path, "reason": reason}


def log_fixture_differences(fixture: Fixture, log: Any) -> list[dict[str, Any]]:
    """Every way the log's header disagrees with the fixture, one error per difference
    (``path``, ``rule``, ``reason``, with ``turn``/``stage`` None like the engine's header errors)."""
    if not isinstance(log, Mapping) or not isinstance(log.get("teams"), Mapping):
        return []  # not a readable header: the rules engine reports what is wrong with it
    rules = competition_rules(fixture)
    game = _game(fixture)
    if log.get("ruleset", FUBA_3) != game.engine_ruleset:
        # Another game's log: every other difference would follow from this one.
        return [
            _difference(
                "$.ruleset",
                "ruleset",
                f"{fixture.competition} plays {game.name} (ruleset {game.engine_ruleset!r}), "
                f"the log says {log.get('ruleset', FUBA_3)!r}",
            )
        ]
    errors = _competition_differences(fixture, log, rules)
    for side, team in (("home", fixture.home_team), ("away", fixture.away_team)):
        entry = log["teams"].get(side)
        if team is not None and isinstance(entry, Mapping):
            errors += _team_differences(fixture, team, entry, f"$.teams.{side}", side, rules)
            errors += _style_differences(team, entry, f"$.teams.{side}", rules, game)
            errors += _skill_differences(fixture, team, entry, f"$.teams.{side}", rules)
    return errors


def _competition_differences(
    fixture: Fixture, log: Mapping[str, Any], rules: set[str]
) -> list[dict[str, Any]]:
    """The advanced rules and the extra time the log's header declares."""
    errors = []
    declared = _rules(log.get("advanced_rules"), _game(fixture))
    if declared is not None and declared != rules:
        extra, missing = declared - rules, rules - declared
        parts = []
        if extra:
            parts.append(f"the log plays {', '.join(_rule_sort(extra))}, which the competition does not")
        if missing:
            parts.append(f"the competition plays {', '.join(_rule_sort(missing))}, which the log does not")
        errors.append(_difference("$.advanced_rules", "advanced rules", "; ".join(parts)))
    et_expected = plays_extra_time(fixture)
    # Outside knockout stages the question is asked and answered "no" at most (the simulator writes
    # extra_time: true for every stage that has extra time set); a result with extra time is
    # refused there by the results workflow anyway.
    knockout = fixture.stage.kind == Stage.Kind.KNOCKOUT
    if knockout and bool(log.get("extra_time")) != et_expected:
        errors.append(
            _difference(
                "$.extra_time",
                "I-38",
                "this knockout tie plays extra time when level, "
                "the log's header does not say extra_time: true"
                if et_expected
                else "this fixture plays no extra time, the log's header says extra_time: true",
            )
        )
    return errors


def _team_differences(
    fixture: Fixture, team: Team, entry: Mapping[str, Any], path: str, side: str, rules: set[str]
) -> list[dict[str, Any]]:
    """A team's name, formation, player roles (A2) and suspension as the log's header gives them."""
    errors = []
    if entry.get("name") != team.name:
        errors.append(
            _difference(
                f"{path}.name",
                "fixture",
                f"the {side} team is {team.name}, the log says {entry.get('name')!r}",
            )
        )
    formation = team.default_formation or "4-4-2"
    if entry.get("formation") != formation:
        errors.append(
            _difference(
                f"{path}.formation",
                "2.1",
                f"{team.name} plays {formation} in this competition, the log says {entry.get('formation')!r}",
            )
        )
    game = _game(fixture)
    roles = _roles(entry.get("roles"), game)
    expected_roles = _roles(team.player_roles, game) if "A2" in rules else {}
    if roles != expected_roles:
        errors.append(
            _difference(
                f"{path}.roles",
                "A2",
                f"{team.name}'s player roles are {_roles_text(expected_roles)}, "
                f"the log says {_roles_text(roles)}"
                if "A2" in rules
                else f"the competition does not play A2, the log gives {team.name} "
                f"roles {_roles_text(roles)}",
            )
        )
    short = 1 if fixture_players_short(fixture=fixture, team=team) else 0
    if entry.get("players_short", 0) != short:
        errors.append(
            _difference(
                f"{path}.players_short",
                "suspension",
                f"{team.name} serves a suspension here and starts one player short (players_short 1), "
                f"the log says {entry.get('players_short', 0)!r}"
                if short
                else f"{team.name} serves no suspension here, "
                f"the log says players_short {entry.get('players_short')!r}",
            )
        )
    return errors


def _style_differences(
    team: Team, entry: Mapping[str, Any], path: str, rules: set[str], game: GameSystemRules
) -> list[dict[str, Any]]:
    """A team's playing styles (rulebook 2.0, A6) as the log's header gives them."""
    given = entry.get("styles")
    if not game.playing_styles or "A6" not in rules:
        if not given:
            return []
        return [
            _difference(
                f"{path}.styles",
                "A6",
                f"the competition does not play the playing styles (A6), the log gives {team.name} "
                f"styles {_styles_text(_styles(given))}",
            )
        ]
    expected = _styles(team.playing_styles)
    if _styles(given) == expected:
        return []
    return [
        _difference(
            f"{path}.styles",
            "A6",
            f"{team.name}'s playing styles are {_styles_text(expected)}, "
            f"the log says {_styles_text(_styles(given))}",
        )
    ]


def _styles_text(styles: Mapping[str, str]) -> str:
    return ", ".join(f"{line} {style}" for line, style in styles.items())


def _skill_differences(
    fixture: Fixture, team: Team, entry: Mapping[str, Any], path: str, rules: set[str]
) -> list[dict[str, Any]]:
    """A team's skills (A11) as the log's header gives them: the ones chosen for the match, else
    the roster's still available."""
    skills = entry.get("skills") or []
    codes = [str(s) for s in skills] if isinstance(skills, list) else []
    if "A11" not in rules:
        if not codes:
            return []
        return [
            _difference(
                f"{path}.skills",
                "A11",
                f"the competition does not play A11, the log gives {team.name} skills {', '.join(codes)}",
            )
        ]
    chosen = sorted(s.code for s in _match_skills(fixture, team))
    if chosen and sorted(codes) != chosen:
        return [
            _difference(
                f"{path}.skills",
                "A11",
                f"{team.name} chose {', '.join(chosen)} for this match, "
                f"the log says {', '.join(codes) or 'none'}",
            )
        ]
    if not chosen and TeamSkill.objects.filter(team=team).exists():
        available = {s.code for s in _available_roster(fixture, team)}
        outside = [c for c in codes if c not in available]
        if outside:
            return [
                _difference(
                    f"{path}.skills",
                    "A11",
                    f"{', '.join(outside)} not among {team.name}'s skills for this match "
                    f"(roster without skills lost: {', '.join(sorted(available)) or 'none'})",
                )
            ]
    return []


def _roles_text(roles: Mapping[str, int]) -> str:
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in sorted(roles.items())) or "none"


def differences_message(fixture: Fixture, errors: list[dict[str, Any]]) -> str:
    return f"{fixture}: the turn log is not a log of this fixture: " + "; ".join(
        f"{e['path']}: {e['reason']}" for e in errors
    )


def check_log_fixture(fixture: Fixture, log: Any) -> None:
    """Raise LogNotForFixture (422) naming every difference, with them in ``details.errors``."""
    errors = log_fixture_differences(fixture, log)
    if errors:
        raise LogNotForFixture(differences_message(fixture, errors), details={"errors": errors})

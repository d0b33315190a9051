"""fuba-log/1: parse and serialize match logs.

The published JSON Schema is ``rules_engine/schema/fuba-log-1.schema.json``;
this module checks the same structure by hand (fast, and every problem is
reported with its JSON path instead of raising) and builds the engine objects.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, Final

from . import decisions as D
from .errors import FubaError, HeaderError, MalformedLogError
from .events import Decision, Event, Roll
from .skills import CATALOGUE, skill_weight
from .state import ADVANCED_ALIASES, ADVANCED_RULES, Header, Roles, TeamSpec

_json_loads: Callable[[str | bytes], Any]
try:
    from orjson import loads as _json_loads
except ImportError:  # pragma: no cover - the engine needs nothing beyond the standard library
    _json_loads = json.loads

FORMAT: Final = "fuba-log/1"
RULESET: Final = "fuba-3"
# rulebook 2.0 (rules_engine.fuba2, docs/fuba2-engine.md): advanced rules A1-A6, no skills, no
# weather; a team may name its A6 playing styles
RULESET_FUBA2: Final = "fuba-2"
RULESETS: Final = (RULESET, RULESET_FUBA2)
ADVANCED_RULES_FUBA2: Final = ("A1", "A2", "A3", "A4", "A5", "A6")
STYLE_LINES: Final = ("defence", "midfield", "forward")
STYLES: Final = ("easy", "normal", "aggressive")  # A6 (fuba2.styles.STYLES)
ROLE_KEYS: Final = tuple(Roles.__dataclass_fields__)
_EVENT_KEYS: Final = frozenset({"roll", "decide", "by", "dice", "choice", "check", "note"})
_CHECK_KEYS: Final = frozenset({"score", "minute", "ball", "area", "control", "half", "digest"})
_BY: Final = frozenset({"home", "away", "both"})
# each skill's name as the catalogue holds it: a team's skills are looked up by the rules' own
# literals all through a match, and the same object compares at once (a decoded one compares
# character by character)
_SKILL_NAMES: Final = {s: s for s in CATALOGUE}
_ABSENT: Final = object()  # a key the event does not have (a choice may be null)


def _decoded_key(name: str) -> str:
    """``name`` as the decoder hands it back as a key. orjson keeps one string object per key it
    has met and returns that very object in every document after, so looking an event's fields
    up by it finds them by identity, where an equal string of our own is compared character by
    character (4 look-ups per event). Any equal string would do: an evicted key only compares
    slower, and a log given as a dict looks its keys up as before."""
    return str(next(iter(loads(f'{{"{name}": 0}}')[0])))


def _err(reason: str, path: str, rule: str = "fuba-log/1") -> MalformedLogError:
    return MalformedLogError(reason, rule=rule, path=path)


def loads(text: str | bytes) -> tuple[Any, list[FubaError]]:
    """Decode the JSON text of a log.  orjson (a requirement of the service)
    decodes in half the time of the standard library; it is stricter (no NaN,
    integers within 64 bits), and without it the engine falls back to ``json``."""
    try:
        return _json_loads(text), []
    except (ValueError, UnicodeDecodeError) as e:
        return None, [_err(f"not valid JSON: {e}", "$")]


# the keys of an event's usual shapes, as decoded (_decoded_key)
_KEY_BY: Final = _decoded_key("by")
_KEY_DECIDE: Final = _decoded_key("decide")
_KEY_CHOICE: Final = _decoded_key("choice")
_KEY_ROLL: Final = _decoded_key("roll")
_KEY_DICE: Final = _decoded_key("dice")


def parse_formation(text: Any, path: str, errors: list[FubaError]) -> tuple[int, int, int] | None:
    if not isinstance(text, str):
        errors.append(_err('formation must be a string like "4-4-2"', path))
        return None
    parts = text.split("-")
    if len(parts) != 3 or not all(p.isdigit() for p in parts):
        errors.append(_err(f'formation {text!r} is not DEFENCE-MIDFIELD-FORWARD like "4-4-2"', path))
        return None
    d, mi, f = (int(p) for p in parts)
    if d + mi + f != 10:
        errors.append(
            HeaderError(f"formation {text} has {d + mi + f} outfield players, not 10", rule="2.1", path=path)
        )
        return None
    return d, mi, f


def parse_team(
    data: Any, path: str, advanced: frozenset[str], errors: list[FubaError], ruleset: str = RULESET
) -> TeamSpec | None:
    if not isinstance(data, dict):
        errors.append(_err("a team must be an object", path))
        return None
    n0 = len(errors)
    name = data.get("name")
    if not isinstance(name, str) or not name:
        errors.append(_err("team name must be a non-empty string", f"{path}.name"))
    fuba2 = ruleset == RULESET_FUBA2
    for k in data:
        if k not in ("name", "formation", "roles", "skills", "players_short") and not (
            fuba2 and k == "styles"
        ):
            errors.append(_err(f"unknown team field {k!r}", f"{path}.{k}"))
    form = parse_formation(data.get("formation"), f"{path}.formation", errors)
    roles = _parse_roles(data.get("roles", {}), form, path, advanced, errors)
    styles = _parse_styles(data.get("styles"), f"{path}.styles", advanced, errors) if fuba2 else None
    skills = _parse_skills(data.get("skills", []), path, advanced, errors, fuba2)
    short = data.get("players_short", 0)
    if type(short) is not int or not 0 <= short <= 1:
        errors.append(_err("players_short must be 0 or 1", f"{path}.players_short"))
        short = 0
    if len(errors) != n0 or form is None:
        return None
    if styles is not None:
        return TeamSpec(str(name), form, roles, tuple(skills), short, styles)
    return TeamSpec(str(name), form, roles, tuple(skills), short)


def _parse_roles(
    roles_raw: Any,
    form: tuple[int, int, int] | None,
    path: str,
    advanced: frozenset[str],
    errors: list[FubaError],
) -> Roles:
    """A2 player roles of a team: known roles, whole counts, that fit the formation."""
    roles = Roles()
    if not isinstance(roles_raw, dict):
        errors.append(_err("roles must be an object", f"{path}.roles"))
    else:
        vals = {}
        for k, v in roles_raw.items():
            if k not in ROLE_KEYS:
                errors.append(
                    _err(f"unknown player role {k!r}; known: {', '.join(ROLE_KEYS)}", f"{path}.roles.{k}")
                )
            elif type(v) is not int or v < 0:
                errors.append(_err("a role count must be a whole number >= 0", f"{path}.roles.{k}"))
            else:
                vals[k] = v
        roles = Roles(**vals)
        if any(vals.values()) and "A2" not in advanced:
            errors.append(HeaderError("player roles need advanced rule A2", rule="A2", path=f"{path}.roles"))
        if form is not None:
            _check_roles_fit(roles, form, path, errors)
    return roles


def _check_roles_fit(roles: Roles, form: tuple[int, int, int], path: str, errors: list[FubaError]) -> None:
    """A2: no more role players than the formation has players of their line."""
    d, mi, f = form
    if roles.attacking_midfielders + roles.defending_midfielders > mi:
        errors.append(
            HeaderError(
                "more attacking/defending midfielders than midfielders",
                rule="A2",
                path=f"{path}.roles",
            )
        )
    if roles.attacking_centre_back > 1 or roles.withdrawn_striker > 1 or roles.offensive_wing_backs > 2:
        errors.append(
            HeaderError(
                "at most one attacking centre-back, one withdrawn striker and two offensive wing backs",
                rule="A2",
                path=f"{path}.roles",
            )
        )
    if roles.attacking_centre_back + roles.offensive_wing_backs > d or roles.withdrawn_striker > f:
        errors.append(
            HeaderError("roles need players of that line in the formation", rule="A2", path=f"{path}.roles")
        )


def _parse_skills(
    skills_raw: Any, path: str, advanced: frozenset[str], errors: list[FubaError], fuba2: bool
) -> list[str]:
    """A11 skills of a team: known, each listed once (rulebook 2.0 has none)."""
    skills: list[str] = []
    if fuba2 and skills_raw != []:
        errors.append(
            HeaderError(
                "rulebook 2.0 has no skills (A11 is rulebook 3's)", rule="A1-A6", path=f"{path}.skills"
            )
        )
    elif not isinstance(skills_raw, list):
        errors.append(_err("skills must be a list", f"{path}.skills"))
    else:
        for i, s in enumerate(skills_raw):
            if type(s) is not str or s not in CATALOGUE:
                errors.append(HeaderError(f"unknown skill {s!r}", rule="A11", path=f"{path}.skills[{i}]"))
            elif s in skills:
                errors.append(
                    HeaderError(f"skill {s!r} listed twice", rule="A11", path=f"{path}.skills[{i}]")
                )
            else:
                skills.append(_SKILL_NAMES[s])
        if skills and "A11" not in advanced:
            errors.append(HeaderError("skills need advanced rule A11", rule="A11", path=f"{path}.skills"))
    return skills


def _parse_styles(
    raw: Any, path: str, advanced: frozenset[str], errors: list[FubaError]
) -> tuple[str, str, str] | None:
    """A6 of rulebook 2.0: "Each of these areas must use one of following playing styles: easy,
    normal or aggressive" (all normal when left out)."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        errors.append(_err("styles must be an object: {defence, midfield, forward}", path))
        return None
    out = ["normal", "normal", "normal"]
    for k, v in raw.items():
        if k not in STYLE_LINES:
            errors.append(_err(f"unknown line {k!r}; lines: {', '.join(STYLE_LINES)}", f"{path}.{k}"))
        elif v not in STYLES:
            errors.append(
                HeaderError(
                    f"a playing style is one of {', '.join(STYLES)}, not {v!r}", rule="A6", path=f"{path}.{k}"
                )
            )
        else:
            out[STYLE_LINES.index(k)] = str(v)
    if out != ["normal"] * 3 and "A6" not in advanced:
        errors.append(HeaderError("playing styles need advanced rule A6", rule="A6", path=path))
    return out[0], out[1], out[2]


def parse_header(data: Any, errors: list[FubaError]) -> Header | None:
    if not isinstance(data, dict):
        errors.append(_err("a log must be a JSON object", "$"))
        return None
    n0 = len(errors)
    if data.get("format") != FORMAT:
        errors.append(_err(f'"format" must be "{FORMAT}"', "$.format"))
    ruleset = data.get("ruleset")
    if ruleset not in RULESETS:
        errors.append(_err(f'"ruleset" must be "{RULESET}" or "{RULESET_FUBA2}"', "$.ruleset"))
        ruleset = RULESET
    known = ADVANCED_RULES_FUBA2 if ruleset == RULESET_FUBA2 else ADVANCED_RULES
    aliases = {} if ruleset == RULESET_FUBA2 else ADVANCED_ALIASES
    for k in data:
        if k not in ("format", "ruleset", "advanced_rules", "extra_time", "teams", "events", "meta"):
            errors.append(_err(f"unknown field {k!r}", f"$.{k}"))
    adv_raw = data.get("advanced_rules", [])
    adv: set[str] = set()
    if adv_raw == "all":
        adv = set(known)
    elif isinstance(adv_raw, list):
        for i, r in enumerate(adv_raw):
            r2 = aliases.get(r, r) if isinstance(r, str) else r
            if r2 not in known:
                errors.append(
                    _err(
                        f"unknown advanced rule {r!r}; known: {', '.join(known)}",
                        f"$.advanced_rules[{i}]",
                    )
                )
            else:
                adv.add(str(r2))
    else:
        errors.append(_err('"advanced_rules" must be a list of rule ids or "all"', "$.advanced_rules"))
    advanced = frozenset(adv)
    teams = data.get("teams")
    specs: list[TeamSpec | None] = []
    if not isinstance(teams, dict):
        errors.append(_err('"teams" must be an object with "home" and "away"', "$.teams"))
    else:
        for k in teams:
            if k not in ("home", "away"):
                errors.append(_err(f"unknown team key {k!r}", f"$.teams.{k}"))
        for side in ("home", "away"):
            if side not in teams:
                errors.append(_err(f"missing team {side!r}", f"$.teams.{side}"))
                specs.append(None)
            else:
                specs.append(parse_team(teams[side], f"$.teams.{side}", advanced, errors, str(ruleset)))
    if len(errors) != n0 or len(specs) != 2 or specs[0] is None or specs[1] is None:
        return None
    if "A11" in advanced and skill_weight(specs[0].skills) != skill_weight(specs[1].skills):
        errors.append(
            HeaderError("both teams must choose an equal number of skills (A11)", rule="A11", path="$.teams")
        )
        return None
    extra_time = data.get("extra_time", False)
    if type(extra_time) is not bool:
        errors.append(_err('"extra_time" must be true or false', "$.extra_time"))
        return None
    meta = data.get("meta", {})
    return Header(
        (specs[0], specs[1]), advanced, extra_time, str(ruleset), extra={"meta": meta} if meta else {}
    )


def parse_events(data: Any, errors: list[FubaError]) -> list[Event]:
    raw = data.get("events") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        errors.append(_err('"events" must be a list', "$.events"))
        return []
    out: list[Event] = []
    keys, check_keys, bys = _EVENT_KEYS, _CHECK_KEYS, _BY
    # an event's index is len(out) + refused: counted, not enumerated (no pair per event; the
    # index is needed only for a JSON path)
    refused = 0
    for e in raw:
        # fast path for well-formed events (the same tests as parse_event);
        # the JSON path is only built for an event that needs the full check
        if type(e) is dict and len(e) == 3:
            # the usual shapes: exactly {"decide", "by", "choice"} or {"roll", "by", "dice"}
            by = e.get(_KEY_BY)
            if type(by) is str:
                # compared, not looked up in _BY (a decoded string's hash is not computed yet), and
                # the literal kept: the match compares it with each request's actor, and the same
                # object compares at once
                who = "home" if by == "home" else "away" if by == "away" else "both" if by == "both" else ""
                if who:
                    name = e.get(_KEY_DECIDE)
                    if name is not None:
                        choice = e.get(_KEY_CHOICE, _ABSENT)  # (one look-up, not `in` then [])
                        if type(name) is str and choice is not _ABSENT:
                            out.append(Decision(name, who, choice))
                            continue
                    else:
                        name = e.get(_KEY_ROLL)
                        dice = e.get(_KEY_DICE)
                        if type(name) is str and type(dice) is list and dice:
                            for d in dice:
                                if type(d) is not int or d < 1:
                                    break
                            else:
                                out.append(Roll(name, who, tuple(dice)))
                                continue
        if type(e) is dict and e.keys() <= keys:
            by = e.get("by")
            check = e.get("check")
            if (
                type(by) is str
                and by in bys
                and (check is None or (type(check) is dict and check.keys() <= check_keys))
            ):
                name = e.get("roll")
                if name is not None:
                    dice = e.get("dice")
                    if (
                        type(name) is str
                        and "decide" not in e
                        and "choice" not in e
                        and type(dice) is list
                        and dice
                    ):
                        for d in dice:
                            if type(d) is not int or d < 1:
                                break
                        else:
                            out.append(Roll(name, by, tuple(dice), check))
                            continue
                else:
                    name = e.get("decide")
                    if type(name) is str and "dice" not in e and "choice" in e:
                        out.append(Decision(name, by, e["choice"], check))
                        continue
        ev = _parse_event_checked(e, f"$.events[{len(out) + refused}]", errors)
        if ev is not None:
            out.append(ev)
        else:
            refused += 1
    return out


def parse_event(e: Any, path: str, errors: list[FubaError]) -> Event | None:
    """One event; problems are appended to `errors` (with the JSON path)."""
    if type(e) is dict and e.keys() <= _EVENT_KEYS:  # fast path for well-formed events
        by = e.get("by")
        check = e.get("check")
        if (
            type(by) is str
            and by in _BY
            and (check is None or (type(check) is dict and check.keys() <= _CHECK_KEYS))
        ):
            name = e.get("roll")
            if type(name) is str and "decide" not in e and "choice" not in e:
                dice = e.get("dice")
                if type(dice) is list and dice and all(type(d) is int and d >= 1 for d in dice):
                    return Roll(name, by, tuple(dice), check)
            name = e.get("decide")
            if type(name) is str and "roll" not in e and "dice" not in e and "choice" in e:
                return Decision(name, by, e["choice"], check)
    return _parse_event_checked(e, path, errors)


def _parse_event_checked(e: Any, path: str, errors: list[FubaError]) -> Event | None:
    if not isinstance(e, dict):
        errors.append(_err("an event must be an object", path))
        return None
    bad = [k for k in e if k not in _EVENT_KEYS]
    if bad:
        errors.append(_err(f"unknown event field {bad[0]!r}", f"{path}.{bad[0]}"))
        return None
    by = e.get("by")
    if type(by) is not str or by not in _BY:
        errors.append(_err('"by" must be "home", "away" or "both"', f"{path}.by"))
        return None
    check = e.get("check")
    if check is not None and not _check_ok(check, f"{path}.check", errors):
        return None
    if "roll" in e:
        if "decide" in e or "choice" in e:
            errors.append(_err('an event is either a "roll" or a "decide"', path))
            return None
        name, dice = e["roll"], e.get("dice")
        if not isinstance(name, str):
            errors.append(_err("roll name must be a string", f"{path}.roll"))
            return None
        if not isinstance(dice, list) or not dice:
            errors.append(_err('"dice" must be a non-empty list of die results', f"{path}.dice"))
            return None
        for j, d in enumerate(dice):
            if type(d) is not int or d < 1:
                errors.append(_err(f"die result {d!r} is not a whole number >= 1", f"{path}.dice[{j}]"))
                return None
        return Roll(name, by, tuple(dice), check)
    if "decide" in e:
        name = e["decide"]
        if not isinstance(name, str):
            errors.append(_err("decision name must be a string", f"{path}.decide"))
            return None
        if "choice" not in e:
            errors.append(_err('a decision needs a "choice"', f"{path}.choice"))
            return None
        if "dice" in e:
            errors.append(_err('a decision has no "dice"', f"{path}.dice"))
            return None
        return Decision(name, by, e["choice"], check)
    errors.append(_err('an event needs "roll" or "decide"', path))
    return None


def _check_ok(c: Any, path: str, errors: list[FubaError]) -> bool:
    if not isinstance(c, dict):
        errors.append(_err('"check" must be an object', path))
        return False
    for k in c:
        if k not in _CHECK_KEYS:
            errors.append(_err(f"unknown check field {k!r}", f"{path}.{k}"))
            return False
    return True


def parse(data: Any) -> tuple[Header | None, list[Event], list[FubaError]]:
    """Parse a decoded JSON document; problems are returned, never raised."""
    errors: list[FubaError] = []
    header = parse_header(data, errors)
    events = parse_events(data, errors) if isinstance(data, dict) else []
    return header, events, errors


def header_to_dict(h: Header) -> dict[str, Any]:
    adv = sorted(h.advanced, key=lambda r: int(r[1:]))
    teams = {}
    for side, t in zip(("home", "away"), h.teams, strict=True):
        d: dict[str, Any] = {"name": t.name, "formation": t.formation_text}
        roles = {k: getattr(t.roles, k) for k in ROLE_KEYS if getattr(t.roles, k)}
        if roles:
            d["roles"] = roles
        if t.skills:
            d["skills"] = list(t.skills)
        if t.players_short:
            d["players_short"] = t.players_short
        if h.ruleset == RULESET_FUBA2 and t.styles != ("normal", "normal", "normal"):
            d["styles"] = dict(zip(STYLE_LINES, t.styles, strict=True))
        teams[side] = d
    known = ADVANCED_RULES_FUBA2 if h.ruleset == RULESET_FUBA2 else ADVANCED_RULES
    out: dict[str, Any] = {
        "format": FORMAT,
        "ruleset": h.ruleset,
        "advanced_rules": "all" if set(adv) == set(known) else adv,
        "teams": teams,
    }
    if h.extra_time:
        out["extra_time"] = True
    if h.extra.get("meta"):
        out["meta"] = h.extra["meta"]
    return out


def event_to_dict(ev: Event) -> dict[str, Any]:
    if isinstance(ev, Roll):
        d: dict[str, Any] = {"roll": ev.name, "by": ev.by, "dice": list(ev.dice)}
    else:
        d = {"decide": ev.name, "by": ev.by, "choice": ev.choice}
    if ev.check:
        d["check"] = ev.check
    return d


# Decisions a replay takes by default when a log leaves them out (Pending.default).
DEFAULT_CHOICES: Final[dict[str, str]] = {
    **{n: D.DONE for n in sorted(D.MOVE_DECISIONS)},
    **{n: "no" for n in sorted(D.DEFAULT_NO_DECISIONS)},
    **{n: "yes" for n in sorted(D.DEFAULT_YES_DECISIONS)},
}
# rulebook 2.0's (rules_engine.fuba2): its moves, its optional questions, its substitutions
DEFAULT_CHOICES_FUBA2: Final[dict[str, str]] = {
    **{n: D.DONE for n in (D.MOVE, D.FREE_MOVE, D.SPECIAL_EVENT_MOVE, D.SETUP_ADJUST, D.SUBSTITUTION)},
    **{n: "no" for n in (D.USE_CP, D.FREE_KICK_ATTEMPT, D.GOAL_ATTEMPT, D.PRESSING, D.SLOW_GOAL_KICK)},
}


def serialize(h: Header, events: list[Event], compact: bool = True) -> dict[str, Any]:
    """The log document; ``compact`` leaves out default answers ("done"/"no")
    that a replay supplies itself: those not followed by an event of the same
    decision by the same team, and without a written-down check."""
    out = header_to_dict(h)
    defaults = DEFAULT_CHOICES_FUBA2 if h.ruleset == RULESET_FUBA2 else DEFAULT_CHOICES
    kept: list[Event] = []
    nxt: Event | None = None  # the next event that stays in the log
    for i in range(len(events) - 1, -1, -1):  # (not reversed(): mypyc cannot compile that here)
        e = events[i]
        if (
            compact
            and isinstance(e, Decision)
            and not e.check
            and defaults.get(e.name) == e.choice
            and (nxt is None or nxt.name != e.name or nxt.by != e.by)
        ):
            continue  # the replay takes this default when it meets `nxt`
        kept.append(e)
        nxt = e
    kept.reverse()
    out["events"] = [event_to_dict(e) for e in kept]
    return out


def header_from_dict(data: dict[str, Any]) -> Header:
    """Build a Header from the header part of a log; raises HeaderError."""
    errors: list[FubaError] = []
    h = parse_header({**{"format": FORMAT, "ruleset": RULESET}, **data}, errors)
    if h is None:
        raise HeaderError("; ".join(e.message for e in errors), rule="2.1")
    return h

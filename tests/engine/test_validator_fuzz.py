"""Any JSON a club could send: the validator answers with a report, never an exception.

Each example takes a valid simulated log and puts an arbitrary JSON value (of any type,
nested or not) at a few places: a header field, a team field, a role or skill, an event,
an event field (the choice most often: a verify function sees it first), a die, a written-
down check.  The report must be JSON-serialisable and, when the log changed in a way the
rules care about, name where (a path, a turn or a rule).  Found by this test: unhashable
choices, skills and check values crashed set and dict lookups with TypeError (a 500 in
the API).  It did not find a set-up whose "gk" is an object (the area lookup hashed it) or a
float or boolean count of substitutions (``1.0 in (0, 1)`` is true, then ``range(1.0)`` fails):
it never changed a value *inside* a choice, nor a value into the same value of another JSON
type.  ``confusions`` does both, at random below and for every decision of a real log in
``test_type_confusion_in_every_choice_field``."""

from __future__ import annotations

import contextlib
import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules_engine.simulate import SimulationOptions, TeamSetup, simulate_match
from rules_engine.validator import validate_log

HOME = TeamSetup("Blues", "4-4-2", (("attacking_midfielders", 1),), ("runner", "tackler", "great_condition"))
AWAY = TeamSetup("Yellows", "3-5-2", skills=("catenaccio", "crossing", "fiery_coach"))
LOGS = [simulate_match(HOME, AWAY, SimulationOptions(advanced_rules="all"), seed) for seed in range(3)]

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "home", "away", "both", "done", "yes", "no", "A-PEN", "H-PEN>CENTRE", "GK>H-PEN"])
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=6,
)
EXAMPLE = json.loads((Path(__file__).resolve().parents[2] / "docs/examples/example-match.json").read_text())


def confusions(value: Any) -> list[Any]:
    """The same value as other JSON types, and the empty containers: what a sloppy client sends."""
    out: list[Any] = [None, {}, [], [value], {"value": value}]
    if isinstance(value, bool):
        out += [int(value), float(value), str(value).lower()]
    elif isinstance(value, int):
        out += [float(value), value + 0.5, str(value), value == 1, -1, 2**64]
    elif isinstance(value, float):
        out += [int(value), str(value)]
    elif isinstance(value, str):
        out += [0, 1, 1.0, True, value.encode().hex(), value.lower(), value + ">"]
    elif isinstance(value, dict):
        out += [list(value.values()), list(value), "H-PEN"]
    elif isinstance(value, list):
        out += [dict(enumerate(value)), ",".join(map(str, value))]
    return [v for v in out if type(v) is not type(value) or v != value]


def choice_parts(choice: Any, path: tuple[Any, ...] = ()) -> list[tuple[tuple[Any, ...], Any]]:
    """Every place inside a choice (the choice itself, each key's value, each item), as paths."""
    out: list[tuple[tuple[Any, ...], Any]] = [(path, choice)]
    if isinstance(choice, dict):
        for k, v in choice.items():
            out += choice_parts(v, (*path, k))
    elif isinstance(choice, list):
        for i, v in enumerate(choice):
            out += choice_parts(v, (*path, i))
    return out


def set_part(event: dict[str, Any], path: tuple[Any, ...], value: Any) -> None:
    if not path:
        event["choice"] = value
        return
    holder = event["choice"]
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = value


EVENT_FIELDS = ("choice", "choice", "choice", "by", "decide", "roll", "dice", "check", "note", "extra")
HEADER_FIELDS = ("advanced_rules", "format", "ruleset", "teams", "events", "meta")
TEAM_FIELDS = ("name", "formation", "roles", "skills", "players_short", "extra")
CHECK_KEYS = ("score", "minute", "ball", "area", "control", "half", "digest")


@st.composite
def mutations(draw: st.DrawFn) -> tuple[int, list[tuple[str, Any, Any]]]:
    log = draw(st.integers(0, len(LOGS) - 1))
    n_events = len(LOGS[log]["events"])
    out = []
    for _ in range(draw(st.integers(1, 3))):
        where = draw(
            st.sampled_from(
                ("event", "event", "confuse", "confuse", "die", "check", "team", "role", "header")
            )
        )
        if where == "confuse":
            # a value inside the choice of a decision, as another JSON type
            decisions = [i for i, e in enumerate(LOGS[log]["events"]) if "decide" in e]
            i = draw(st.sampled_from(decisions))
            path, value = draw(st.sampled_from(choice_parts(LOGS[log]["events"][i].get("choice"))))
            out.append((where, (i, path), draw(st.sampled_from(confusions(value)) | JSON_VALUES)))
            continue
        if where in ("event", "die", "check"):
            key: Any = (draw(st.integers(0, n_events - 1)), draw(st.sampled_from(EVENT_FIELDS)))
            if where == "check":
                key = (key[0], draw(st.sampled_from(CHECK_KEYS)))
        elif where in ("team", "role"):
            key = (draw(st.sampled_from(("home", "away"))), draw(st.sampled_from(TEAM_FIELDS)))
        else:
            key = draw(st.sampled_from(HEADER_FIELDS))
        out.append((where, key, draw(JSON_VALUES)))
    return log, out


def _mutate(doc: dict[str, Any], where: str, key: Any, value: Any) -> None:
    if where == "header":
        doc[key] = value
        return
    # an earlier change may have replaced the part this one goes into: then it is skipped
    if where in ("team", "role"):
        teams = doc.get("teams")
        team = teams.get(key[0]) if isinstance(teams, dict) else None
        if not isinstance(team, dict):
            return
        if where == "role":
            roles = team.setdefault("roles", {})
            if isinstance(roles, dict):
                roles["attacking_midfielders"] = value
        elif key[1] == "skills" and isinstance(value, (str, int)):
            team["skills"] = [value, "runner"]
        else:
            team[key[1]] = value
        return
    events = doc.get("events")
    if not isinstance(events, list) or key[0] >= len(events) or not isinstance(events[key[0]], dict):
        return
    ev = events[key[0]]
    if where == "confuse":
        # an earlier change may have replaced the choice this one goes into
        with contextlib.suppress(KeyError, IndexError, TypeError):
            set_part(ev, key[1], value)
        return
    if where == "die" and isinstance(ev.get("dice"), list):
        ev["dice"] = [value, *ev["dice"][1:]]
    elif where == "check":
        ev["check"] = {key[1]: value}
    else:
        ev[key[1]] = value


def _check(log: int, changes: list[tuple[str, Any, Any]]) -> None:
    doc = copy.deepcopy(LOGS[log])
    for where, key, value in changes:
        _mutate(doc, where, key, value)
    for data in (doc, json.dumps(doc)):
        report = validate_log(data)
        json.dumps(report.to_dict())  # the API returns it as is
        for e in report.errors:
            assert e.reason and (e.path or e.turn is not None or e.rule), e.to_dict()


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=mutations())
def test_any_json_at_any_place_gives_a_report_not_an_exception(m: tuple[int, list[Any]]) -> None:
    _check(*m)


@pytest.mark.slow
@settings(max_examples=5000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=mutations())
def test_any_json_at_any_place_long_run(m: tuple[int, list[Any]]) -> None:
    _check(*m)


def _first(decision: str) -> int:
    return next(i for i, e in enumerate(LOGS[0]["events"]) if e.get("decide") == decision)


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("choice", ["H-PEN"]),  # an unhashable choice reached the area-name lookup
        ("choice", {"area": "H-PEN"}),
        ("by", ["home"]),  # ... and an unhashable team the set of team names
    ],
)
def test_unhashable_target_area_answers_are_illegal_events(field: str, value: Any) -> None:
    i = _first("target_area")
    doc = copy.deepcopy(LOGS[0])
    doc["events"][i][field] = value
    report = validate_log(doc)
    assert not report.valid and report.errors[0].path is not None
    assert report.errors[0].path.startswith(f"$.events[{i}]")


def test_unhashable_header_and_check_values_are_reported() -> None:
    doc = copy.deepcopy(LOGS[0])
    doc["teams"]["home"]["skills"] = [["runner"], "tackler", "great_condition"]
    report = validate_log(doc)
    assert not report.valid and report.errors[0].path == "$.teams.home.skills[0]"

    doc = copy.deepcopy(LOGS[0])
    doc["events"][5]["check"] = {"control": ["home"]}
    report = validate_log(doc)
    assert not report.valid and report.errors[0].path.startswith("$.events[5].check")


def _confused_logs(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """For the first event of every decision name: each place in its choice, each confusion."""
    out = []
    seen: set[str] = set()
    for i, ev in enumerate(doc["events"]):
        name = ev.get("decide")
        if name is None or name in seen:
            continue
        seen.add(name)
        for path, value in choice_parts(ev.get("choice")):
            for wrong in confusions(value):
                changed = copy.deepcopy(doc)
                set_part(changed["events"][i], path, wrong)
                out.append((f"events[{i}].choice{''.join(f'[{p!r}]' for p in path)} = {wrong!r}", changed))
    return out


@pytest.mark.parametrize("source", ["example", "simulated"])
def test_type_confusion_in_every_choice_field(source: str) -> None:
    """No decision takes an answer of another JSON type, and none crashes on one."""
    doc = EXAMPLE if source == "example" else LOGS[0]
    names = {e["decide"] for e in doc["events"] if "decide" in e}
    cases = _confused_logs(doc)
    assert len(cases) > 5 * len(names)
    crashed, accepted = [], []
    for label, changed in cases:
        try:
            report = validate_log(changed)
        except Exception as exc:  # noqa: BLE001 - the point is to list every crash, not the first
            crashed.append(f"{label}: {type(exc).__name__}: {exc}")
            continue
        json.dumps(report.to_dict())
        if report.valid:
            accepted.append(label)
        else:
            assert report.errors[0].path is not None, (label, report.errors[0].to_dict())
    assert not crashed, crashed
    # a value of another type is never the same answer: 1.0 or true is not the count 1
    assert not accepted, accepted


@pytest.mark.parametrize(
    ("index", "part", "value"),
    [(2, "gk", {}), (2, "gk", []), (20, None, 1.0), (20, None, True)],
)
def test_the_two_reported_crashes_are_illegal_events(index: int, part: str | None, value: Any) -> None:
    """`events[2].choice.gk = {}` and `events[20].choice = 1.0` in the docs' example."""
    doc = copy.deepcopy(EXAMPLE)
    set_part(doc["events"][index], (part,) if part else (), value)
    report = validate_log(doc)
    assert not report.valid
    assert report.errors[0].path.startswith(f"$.events[{index}]"), report.errors[0].to_dict()

"""Any JSON a club could send: the validator answers with a report, never an exception.

Each example takes a valid simulated log and puts an arbitrary JSON value (of any type,
nested or not) at a few places: a header field, a team field, a role or skill, an event,
an event field (the choice most often: a verify function sees it first), a die, a written-
down check.  The report must be JSON-serialisable and, when the log changed in a way the
rules care about, name where (a path, a turn or a rule).  Found by this test: unhashable
choices, skills and check values crashed set and dict lookups with TypeError (a 500 in
the API)."""

from __future__ import annotations

import copy
import json
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
        where = draw(st.sampled_from(("event", "event", "event", "die", "check", "team", "role", "header")))
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

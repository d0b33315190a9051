"""The ruleset switch: ``"ruleset": "fuba-2"`` is read by ``logformat.parse_header`` (the FUBA 2
header: A1-A6, no skills, no weather, roles, A6 styles) and chooses the flow of ``Match``."""

from __future__ import annotations

from typing import Any

from rules_engine.fuba2.flow import match_flow as fuba2_flow
from rules_engine.logformat import header_from_dict, header_to_dict
from rules_engine.machine import FLOWS, Match
from rules_engine.validator import validate_log

TEAMS: dict[str, Any] = {
    "home": {"name": "a", "formation": "4-4-2"},
    "away": {"name": "b", "formation": "4-4-2"},
}


def _errors(**header: Any) -> list[str]:
    r = validate_log({"format": "fuba-log/1", "ruleset": "fuba-2", "teams": TEAMS, "events": [], **header})
    assert not r.valid
    return [e.message for e in r.errors]


def test_a_fuba2_log_is_replayed_by_the_fuba2_flow() -> None:
    h = header_from_dict({"ruleset": "fuba-2", "teams": TEAMS})
    assert h.ruleset == "fuba-2" and FLOWS["fuba-2"] is fuba2_flow
    p = Match(h).pending()
    # 3.1: "Both teams roll a die"
    assert p is not None and (p.kind, p.name, p.actor, p.dice, p.rule) == (
        "roll",
        "kick_off",
        "both",
        2,
        "3.1",
    )


def test_an_empty_fuba2_log_is_only_incomplete() -> None:
    (message,) = _errors()
    assert "the log ends before the final whistle" in message


def test_unknown_ruleset_names_the_ones_that_are_read() -> None:
    r = validate_log({"format": "fuba-log/1", "ruleset": "fuba-9", "teams": TEAMS, "events": []})
    assert next(e.message for e in r.errors if e.path == "$.ruleset").startswith(
        '"ruleset" must be "fuba-3" or "fuba-2"'
    )


def test_fuba2_knows_only_the_advanced_rules_a1_to_a6() -> None:
    # "ADVANCED RULES A1 CONDITION POINTS & TIREDNESS ... A6 PLAYING STYLES"
    h = header_from_dict({"ruleset": "fuba-2", "advanced_rules": "all", "teams": TEAMS})
    assert h.advanced == frozenset({"A1", "A2", "A3", "A4", "A5", "A6"})
    (message,) = _errors(advanced_rules=["A1", "A9"])
    assert "unknown advanced rule 'A9'; known: A1, A2, A3, A4, A5, A6" in message


def test_fuba2_teams_have_no_skills() -> None:
    teams = {**TEAMS, "home": {**TEAMS["home"], "skills": ["runner"]}}
    (message,) = _errors(teams=teams, advanced_rules="all")
    assert "rulebook 2.0 has no skills" in message


def test_playing_styles_are_easy_normal_or_aggressive_and_need_a6() -> None:
    # A6: "Each of these areas must use one of following playing styles: easy, normal or aggressive"
    styled = {**TEAMS, "home": {**TEAMS["home"], "styles": {"midfield": "aggressive", "forward": "easy"}}}
    h = header_from_dict({"ruleset": "fuba-2", "advanced_rules": ["A6"], "teams": styled})
    assert h.teams[0].styles == ("normal", "aggressive", "easy")
    assert header_to_dict(h)["teams"]["home"]["styles"] == {
        "defence": "normal",
        "midfield": "aggressive",
        "forward": "easy",
    }
    assert any("playing styles need advanced rule A6" in e for e in _errors(teams=styled))
    wild = {**TEAMS, "home": {**TEAMS["home"], "styles": {"defence": "wild"}}}
    assert any(
        "a playing style is one of easy, normal, aggressive" in e
        for e in _errors(teams=wild, advanced_rules="all")
    )


def test_styles_are_no_fuba3_field() -> None:
    styled = {**TEAMS, "home": {**TEAMS["home"], "styles": {"midfield": "easy"}}}
    r = validate_log({"format": "fuba-log/1", "ruleset": "fuba-3", "teams": styled, "events": []})
    assert any("unknown team field 'styles'" in e.message for e in r.errors)


def test_roles_need_a2_as_in_fuba3() -> None:
    # A2: "For each attacking midfielder one point is removed from the midfield condition"
    roled = {**TEAMS, "home": {**TEAMS["home"], "roles": {"attacking_midfielders": 1}}}
    assert any("player roles need advanced rule A2" in e for e in _errors(teams=roled))


def test_the_header_round_trips_with_its_ruleset() -> None:
    h = header_from_dict(
        {"ruleset": "fuba-2", "advanced_rules": ["A1", "A3"], "teams": TEAMS, "extra_time": True}
    )
    d = header_to_dict(h)
    assert d["ruleset"] == "fuba-2" and d["advanced_rules"] == ["A1", "A3"] and d["extra_time"] is True
    assert header_from_dict(d) == h


def test_the_published_schema_takes_fuba2_logs() -> None:
    import json
    from pathlib import Path

    import jsonschema

    from rules_engine.autoplay import play_random

    schema = json.loads(
        (Path(__file__).resolve().parents[3] / "rules_engine/schema/fuba-log-1.schema.json").read_text()
    )
    v = jsonschema.Draft202012Validator(schema)
    styled = {**TEAMS, "home": {**TEAMS["home"], "styles": {"midfield": "easy"}}}
    log = play_random({"ruleset": "fuba-2", "advanced_rules": "all", "teams": styled}, 3).to_log()
    assert not list(v.iter_errors(log))
    assert list(v.iter_errors({**log, "advanced_rules": ["A11"]}))
    assert list(v.iter_errors({**log, "ruleset": "fuba-3"}))  # styles are FUBA 2's
    skilled = {**TEAMS, "home": {**TEAMS["home"], "skills": ["runner"]}}
    assert list(v.iter_errors({**log, "teams": skilled}))

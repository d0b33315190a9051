"""validate_log: derived result, and every kind of error with turn/stage/rule/path."""

import copy
import gc
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from rules_engine.api import validate_log
from rules_engine.autoplay import play_random

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "example-match.json"
H: dict[str, Any] = {
    "advanced_rules": [],
    "teams": {
        "home": {"name": "Blue", "formation": "4-4-2"},
        "away": {"name": "Yellow", "formation": "3-5-2"},
    },
}


def _log(seed: int = 3, hdr: dict[str, Any] | None = None) -> dict[str, Any]:
    return play_random(hdr or H, seed).to_log()


def test_documented_example_match_is_valid() -> None:
    r = validate_log(EXAMPLE.read_text())
    assert r.valid, [e.message for e in r.errors]
    assert r.result is not None and r.result.to_dict()["finished"]
    assert r.result.to_dict()["final_minute"].startswith("90")
    assert sum(r.result.to_dict()["turns_per_half"]) == r.result.to_dict()["turns"]


def test_result_shape() -> None:
    r = validate_log(_log())
    assert r.valid and r.result is not None
    res = r.result.to_dict()
    assert set(res["score"]) == {"home", "away"}
    for side in ("home", "away"):
        t = res["teams"][side]
        for key in (
            "yellow_cards",
            "red_cards",
            "red_cards_detail",
            "injuries",
            "skills_lost",
            "skills_gained",
        ):
            assert key in t
    assert len(res["turns_per_half"]) == 2
    assert res["score"]["home"] == sum(1 for g in res["goals"] if g["team"] == "home")


def test_not_json_is_an_error_with_path() -> None:
    r = validate_log("{not json")
    assert not r.valid and r.unreadable
    assert r.errors[0].path == "$" and r.errors[0].kind == "malformed"


def test_schema_errors_are_collected_with_paths() -> None:
    log = _log()
    log["format"] = "fuba-log/2"
    log["teams"]["home"]["formation"] = "4-4-3"
    log["events"][3]["dice"] = [0]
    log["events"][5] = {"decide": "target_area", "by": "nobody", "choice": "CENTRE"}
    r = validate_log(log)
    assert not r.valid
    paths = {e.path for e in r.errors}
    assert "$.format" in paths
    assert "$.teams.home.formation" in paths
    assert any(p and p.startswith("$.events[5].by") for p in paths)
    formation_error = next(e for e in r.errors if e.path == "$.teams.home.formation")
    assert formation_error.rule == "2.1" and "11 outfield players" in formation_error.reason


def test_wrong_types_never_raise() -> None:
    for bad in (None, [], 3, "[]", {"events": 3}, {"teams": []}, {"format": "fuba-log/1", "events": [None]}):
        r = validate_log(bad)
        assert not r.valid and r.errors


def test_illegal_event_stops_replay_with_turn_stage_rule() -> None:
    log = _log()
    i = next(k for k, e in enumerate(log["events"]) if e.get("decide") == "target_area" and k > 40)
    log["events"][i]["choice"] = "H-PEN" if log["events"][i]["by"] == "away" else "A-PEN"
    r = validate_log(log)
    assert not r.valid
    e = r.errors[0]
    assert e.path == f"$.events[{i}]" and e.turn and e.stage == 1 and e.rule.startswith("4.1")
    assert "target area" in e.reason
    assert r.partial is not None


def test_annotation_mismatch_is_reported_and_replay_continues() -> None:
    log = _log()
    rolls = [k for k, e in enumerate(log["events"]) if e.get("roll") == "situation"]
    log["events"][rolls[3]]["check"] = {"minute": "99", "score": [7, 7]}
    log["events"][rolls[8]]["check"] = {"ball": 9}
    r = validate_log(log)
    kinds = [e.kind for e in r.errors]
    assert kinds == ["annotation", "annotation", "annotation"]
    assert r.errors[0].path == f"$.events[{rolls[3]}].check.score"


def test_correct_annotations_pass() -> None:
    m = play_random(H, 4, annotate=True)
    r = validate_log(m.to_log())
    assert r.valid


def test_incomplete_log() -> None:
    log = _log()
    log["events"] = log["events"][:100]
    r = validate_log(log)
    assert not r.valid and r.errors[-1].kind == "incomplete"
    assert "ends before the final whistle" in r.errors[-1].reason


def test_event_after_the_end() -> None:
    log = _log()
    log["events"].append(copy.deepcopy(log["events"][-1]))
    r = validate_log(log)
    assert not r.valid and r.errors[0].kind == "after_end"


def test_wrong_actor_and_wrong_kind() -> None:
    log = _log()
    log["events"][0]["by"] = "home"
    r = validate_log(log)
    assert "made by both, not home" in r.errors[0].reason
    log = _log()
    log["events"][0] = {"decide": "kick_off_team", "by": "home", "choice": "home"}
    r = validate_log(log)
    assert r.errors[0].kind == "unexpected" and "expected a 'kick_off' roll" in r.errors[0].reason


def test_out_of_range_die() -> None:
    log = _log()
    i = next(k for k, e in enumerate(log["events"]) if e.get("roll") == "situation")
    log["events"][i]["dice"] = [7, 1]
    r = validate_log(log)
    assert "die result 7 is not between 1 and 6" in r.errors[0].reason
    assert r.errors[0].rule == "4.2"


def test_report_to_dict_is_json() -> None:
    r = validate_log(_log())
    json.dumps(r.to_dict())
    bad = validate_log({"format": "x"})
    d = bad.to_dict()
    assert d["valid"] is False and all("path" in e for e in d["errors"])


def test_published_schema_accepts_logs_and_rejects_bad_ones() -> None:
    import jsonschema

    schema = json.loads(
        (
            Path(__file__).resolve().parents[2] / "rules_engine" / "schema" / "fuba-log-1.schema.json"
        ).read_text()
    )
    jsonschema.Draft202012Validator.check_schema(schema)
    v = jsonschema.Draft202012Validator(schema)
    assert not list(v.iter_errors(json.loads(EXAMPLE.read_text())))
    assert not list(v.iter_errors(_log()))
    bad = _log()
    bad["events"][0]["dice"] = "six"
    bad["teams"]["away"]["formation"] = "442"
    assert len(list(v.iter_errors(bad))) >= 2


def test_players_short_and_skill_balance_header() -> None:
    hdr = copy.deepcopy(H)
    hdr["teams"]["away"]["players_short"] = 1
    log = _log(5, hdr)
    r = validate_log(log)
    assert r.valid
    hdr2 = {
        "advanced_rules": ["A11"],
        "teams": {
            "home": {"name": "a", "formation": "4-4-2", "skills": ["runner"]},
            "away": {"name": "b", "formation": "4-4-2"},
        },
    }
    r = validate_log({**hdr2, "format": "fuba-log/1", "ruleset": "fuba-3", "events": []})
    assert not r.valid and r.errors[0].rule == "A11"


def test_compact_log_keeps_a_default_answer_followed_by_the_same_request() -> None:
    from rules_engine.events import Decision
    from rules_engine.logformat import header_from_dict, serialize

    h = header_from_dict(H)
    evs = [
        Decision("use_skill", "home", "no"),
        Decision("use_skill", "away", "no"),
        Decision("use_skill", "home", "midfield_general"),
        Decision("free_move", "home", "done"),
        Decision("action", "home", "movement"),
    ]
    out = serialize(h, evs)["events"]
    # home's "no" must stay: the next event kept after it is home's use_skill again
    assert [(e["decide"], e["by"], e["choice"]) for e in out] == [
        ("use_skill", "home", "no"),
        ("use_skill", "home", "midfield_general"),
        ("action", "home", "movement"),
    ]
    assert len(serialize(h, evs, compact=False)["events"]) == 5


def test_compact_logs_with_many_skills_validate() -> None:
    skills_home = ["midfield_general", "seconda_punta", "creative_midfielder", "catenaccio", "stopper"]
    skills_away = ["catenaccio", "creative_goalkeeper", "diver", "regista", "mezzala"]
    hdr = {
        "advanced_rules": "all",
        "teams": {
            "home": {"name": "H", "formation": "3-2-5", "skills": skills_home},
            "away": {"name": "A", "formation": "4-3-3", "skills": skills_away},
        },
    }
    for seed in range(6):
        m = play_random(hdr, seed)
        compact, full = m.to_log(), m.to_log(compact=False)
        assert len(compact["events"]) < len(full["events"])
        for log in (compact, full):
            r = validate_log(log)
            assert r.valid, [e.message for e in r.errors]
            assert r.result == m.result()


def test_events_read_whatever_their_key_order() -> None:
    log = _log()
    reordered = copy.deepcopy(log)
    reordered["events"] = [dict(reversed(list(e.items()))) for e in log["events"]]
    a, b = validate_log(log), validate_log(reordered)
    assert a.valid and b.valid and a.result == b.result
    # a log handed over as a dict may hold keys JSON cannot: refused, never raised
    bad = copy.deepcopy(log)
    bad["events"][0] = {1: "kick_off", "by": "both", "dice": [3, 4]}
    r = validate_log(bad)
    assert not r.valid and r.errors[0].path == "$.events[0].1"


def test_the_collector_is_paused_only_while_validating() -> None:
    text = json.dumps(_log())
    assert gc.isenabled()
    assert validate_log(text).valid
    assert gc.isenabled()
    # a complete replay leaves no cycles for the paused collector to find later
    gc.collect()
    gc.disable()
    try:
        report = validate_log(text)
        del report
        assert gc.collect() == 0
        # a caller that turned the collector off keeps it off
        assert validate_log(text).valid and not gc.isenabled()
    finally:
        gc.enable()
    # validations on several threads at once: the collector is on again once all have ended
    with ThreadPoolExecutor(4) as pool:
        assert all(r.valid for r in pool.map(validate_log, [text] * 16))
    assert gc.isenabled()

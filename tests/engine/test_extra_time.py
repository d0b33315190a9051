"""Extra time (interpretation I-38): a header flag, the home team's extra_time decision at full
time, two halves of 15 minutes without stoppage time."""

from __future__ import annotations

import copy
import json

from rules_engine.simulate import SimulationOptions, TeamSetup, play_match, simulate_match
from rules_engine.validator import validate_log

HOME = TeamSetup("Blues", "4-4-2")
AWAY = TeamSetup("Yellows", "3-5-2")
LEVEL = SimulationOptions(extra_time=lambda home, away: home == away)


def _level_seeds(n: int) -> list[int]:
    """Seeds whose 90 minutes end level (so that extra time is played)."""
    out = []
    for seed in range(200):
        m = play_match(HOME, AWAY, LEVEL, seed)
        if m.st.extra_time_played:
            out.append(seed)
            if len(out) == n:
                break
    return out


def test_no_extra_time_without_the_header_flag() -> None:
    log = simulate_match(HOME, AWAY, SimulationOptions(), 3)
    assert "extra_time" not in log
    assert not any(e.get("decide") == "extra_time" for e in log["events"])
    r = validate_log(log)
    assert r.valid and r.result is not None
    assert r.result.to_dict()["extra_time"] is False and len(r.result.to_dict()["turns_per_half"]) == 2
    assert r.result.to_dict()["score_after_90"] == r.result.to_dict()["score"]


def test_a_level_match_plays_two_halves_of_fifteen_minutes() -> None:
    seeds = _level_seeds(6)
    assert len(seeds) == 6
    decided = 0
    for seed in seeds:
        log = simulate_match(HOME, AWAY, LEVEL, seed)
        assert log["extra_time"] is True
        assert {"decide": "extra_time", "by": "home", "choice": "yes"} in log["events"]
        r = validate_log(json.dumps(log))
        assert r.valid and r.result is not None, r.errors[:1]
        res = r.result.to_dict()
        assert res["extra_time"] is True and res["final_minute"] == "120"  # no stoppage time
        assert len(res["turns_per_half"]) == 4 and all(3 <= t <= 12 for t in res["turns_per_half"][2:])
        after_90 = res["score_after_90"]
        assert after_90["home"] == after_90["away"]
        late = [g for g in res["goals"] if int(g["minute"].split("+")[0]) > 90]
        assert len(late) == res["score"]["home"] + res["score"]["away"] - 2 * after_90["home"]
        assert all(int(g["minute"]) <= 120 for g in late)
        decided += res["score"]["home"] != res["score"]["away"]
    assert decided >= 1  # extra time is real football: it decides some ties


def test_a_decided_match_ends_after_ninety_minutes() -> None:
    seed = next(s for s in range(50) if s not in _level_seeds(50))
    log = simulate_match(HOME, AWAY, LEVEL, seed)
    assert {"decide": "extra_time", "by": "home", "choice": "no"} in log["events"]
    r = validate_log(log)
    assert r.valid and r.result is not None and r.result.to_dict()["extra_time"] is False
    # "no" is the default: a log may leave it out
    short = copy.deepcopy(log)
    short["events"] = [e for e in log["events"] if e.get("decide") != "extra_time"]
    assert validate_log(short).valid


def test_the_extra_time_answer_is_checked_and_the_flag_must_be_boolean() -> None:
    seed = _level_seeds(1)[0]
    log = simulate_match(HOME, AWAY, LEVEL, seed)
    i = next(i for i, e in enumerate(log["events"]) if e.get("decide") == "extra_time")
    bad = copy.deepcopy(log)
    bad["events"][i]["choice"] = "maybe"
    r = validate_log(bad)
    assert not r.valid and r.errors[0].path == f"$.events[{i}]" and r.errors[0].rule == "I-38"
    # extra time events without the header flag: the match is over at 90 minutes
    no_flag = copy.deepcopy(log)
    del no_flag["extra_time"]
    r = validate_log(no_flag)
    assert not r.valid and r.errors[0].kind in ("after_end", "unexpected")
    wrong = copy.deepcopy(log)
    wrong["extra_time"] = "yes"
    r = validate_log(wrong)
    assert not r.valid and r.errors[0].path == "$.extra_time"


def test_plausibility_statistics_count_the_45_minute_halves_only() -> None:
    from rules_engine.simulate import SimulationStats, play_with_stats

    stats = SimulationStats()
    for seed in _level_seeds(2):
        play_with_stats(HOME, AWAY, LEVEL, seed, stats)
    assert stats.matches == 2 and len(stats.turns) == 4 and stats.shortest_half >= 45

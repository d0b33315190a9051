"""``MatchResult.to_dict()`` is the JSON the league stores and serves: the same
keys, order and values as the engine's result always had (built here from the
match state the way the engine built its dict before it had a result class)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules_engine import board as B
from rules_engine.api import Match, SimulationOptions, TeamSetup, play_match, validate_log

HOME = TeamSetup("Blues", "4-4-2", (("attacking_midfielders", 1),), ("runner", "tackler", "great_condition"))
AWAY = TeamSetup("Yellows", "3-5-2", skills=("catenaccio", "crossing", "fiery_coach"))


def _reference(m: Match) -> dict[str, Any]:
    st = m.st
    teams: dict[str, Any] = {}
    for i, ts in enumerate(st.teams):
        yellows_shown = sum(1 for n in m.log if n["kind"] == "yellow" and n["team"] == B.TEAM_NAMES[i])
        teams[B.TEAM_NAMES[i]] = {
            "name": ts.spec.name,
            "goals": ts.goals,
            "yellow_cards": yellows_shown,
            "yellow_cards_held": ts.yellows,
            "red_cards": len(ts.reds),
            "red_cards_detail": list(ts.reds),
            "injuries": list(ts.injuries),
            "skills_lost": list(ts.skills_lost),
            "skills_gained": list(ts.skills_gained),
            "substitutions": ts.subs_used,
            "condition_points": {z: ts.cp[k] for k, z in enumerate(B.ZONE_NAMES)},
            "tired": ts.tired,
        }
    return {
        "finished": st.over,
        "score": {"home": st.teams[0].goals, "away": st.teams[1].goals},
        "teams": teams,
        "turns_per_half": list(st.turns_per_half),
        "extra_time": st.extra_time_played,
        "score_after_90": (
            {"home": st.score_after_90[0], "away": st.score_after_90[1]} if st.score_after_90 else None
        ),
        "turns": st.turn,
        "final_minute": st.minute_label(),
        "weather": st.weather or None,
        "goals": [
            {"team": n["team"], "minute": n["minute"], "turn": n["turn"]}
            for n in m.log
            if n["kind"] == "goal"
        ],
    }


@pytest.mark.parametrize("seed", range(6))
def test_to_dict_is_the_engine_result_json(seed: int) -> None:
    opts = SimulationOptions(advanced_rules="all", extra_time=lambda home, away: home == away)
    m = play_match(HOME, AWAY, opts, seed)
    result = m.result()
    assert json.dumps(result.to_dict()) == json.dumps(_reference(m))  # same keys in the same order
    report = validate_log(m.to_log())
    assert report.result == result
    assert report.to_dict()["result"] == result.to_dict()
    assert result.score == (result.home.goals, result.away.goals)
    assert result.home.red_cards == len(result.home.red_cards_detail)


def test_the_result_is_frozen() -> None:
    result = play_match(HOME, AWAY, SimulationOptions(), 1).result()
    with pytest.raises(AttributeError):
        result.turns = 0  # type: ignore[misc]

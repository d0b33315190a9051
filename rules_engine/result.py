"""The derived result of a replayed match (issue 3, validator output)."""

from __future__ import annotations

from typing import Any

from . import board as B
from .context import MatchContext


def derive_result(m: MatchContext) -> dict[str, Any]:
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
        "turns_per_half": list(st.turns_per_half),  # four halves with extra time
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

"""The derived result of a replayed or simulated match: :class:`MatchResult`.

It is what validation reports and what the simulator stores; ``to_dict()``
gives its JSON form (the ``result`` of a validation report, kept by the
league with the submitted log).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import board as B
from .context import MatchContext


@dataclass(frozen=True, slots=True)
class TeamResult:
    """One team's part of the result."""

    name: str
    goals: int
    yellow_cards: int  # shown during the match
    yellow_cards_held: int  # still held at the end (substitutions, A3, give some back)
    red_cards_detail: tuple[str, ...]  # "second_yellow" | "direct", in order
    injuries: tuple[dict[str, Any], ...]  # as noted by the engine (A4)
    skills_lost: tuple[str, ...]
    skills_gained: tuple[str, ...]
    substitutions: int
    condition_points: tuple[tuple[str, int], ...]  # (zone name, points) for each zone (A1)
    tired: bool

    @property
    def red_cards(self) -> int:
        return len(self.red_cards_detail)

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "goals": self.goals,
            "yellow_cards": self.yellow_cards,
            "yellow_cards_held": self.yellow_cards_held,
            "red_cards": self.red_cards,
            "red_cards_detail": list(self.red_cards_detail),
            "injuries": [dict(i) for i in self.injuries],
            "skills_lost": list(self.skills_lost),
            "skills_gained": list(self.skills_gained),
            "substitutions": self.substitutions,
            "condition_points": dict(self.condition_points),
            "tired": self.tired,
        }


@dataclass(frozen=True, slots=True)
class GoalScored:
    team: str  # "home" | "away"
    minute: str  # as the clock shows it, e.g. "45+1"
    turn: int


@dataclass(frozen=True, slots=True)
class MatchResult:
    """The result of a match as far as it was played (``finished`` when over)."""

    finished: bool
    home: TeamResult
    away: TeamResult
    turns_per_half: tuple[int, ...]  # four halves with extra time
    extra_time: bool
    score_after_90: tuple[int, int] | None  # when extra time was played
    turns: int
    final_minute: str
    weather: str | None
    goals: tuple[GoalScored, ...]

    @property
    def score(self) -> tuple[int, int]:
        """(home goals, away goals)."""
        return self.home.goals, self.away.goals

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (the ``result`` of a validation report)."""
        after_90 = self.score_after_90
        return {
            "finished": self.finished,
            "score": {"home": self.home.goals, "away": self.away.goals},
            "teams": {"home": self.home.to_dict(), "away": self.away.to_dict()},
            "turns_per_half": list(self.turns_per_half),
            "extra_time": self.extra_time,
            "score_after_90": {"home": after_90[0], "away": after_90[1]} if after_90 else None,
            "turns": self.turns,
            "final_minute": self.final_minute,
            "weather": self.weather,
            "goals": [{"team": g.team, "minute": g.minute, "turn": g.turn} for g in self.goals],
        }


def derive_result(m: MatchContext) -> MatchResult:
    st = m.st
    teams: list[TeamResult] = []
    for i, ts in enumerate(st.teams):
        yellows_shown = sum(1 for n in m.log if n["kind"] == "yellow" and n["team"] == B.TEAM_NAMES[i])
        teams.append(
            TeamResult(
                name=ts.spec.name,
                goals=ts.goals,
                yellow_cards=yellows_shown,
                yellow_cards_held=ts.yellows,
                red_cards_detail=tuple(ts.reds),
                injuries=tuple(dict(i) for i in ts.injuries),
                skills_lost=tuple(ts.skills_lost),
                skills_gained=tuple(ts.skills_gained),
                substitutions=ts.subs_used,
                condition_points=tuple((z, ts.cp[k]) for k, z in enumerate(B.ZONE_NAMES)),
                tired=ts.tired,
            )
        )
    return MatchResult(
        finished=st.over,
        home=teams[0],
        away=teams[1],
        turns_per_half=tuple(st.turns_per_half),
        extra_time=st.extra_time_played,
        score_after_90=st.score_after_90,
        turns=st.turn,
        final_minute=st.minute_label(),
        weather=st.weather or None,
        goals=tuple(GoalScored(n["team"], n["minute"], n["turn"]) for n in m.log if n["kind"] == "goal"),
    )

"""Scenarios with a hand-made match model, so the Monte Carlo tests need no engine simulations."""

from __future__ import annotations

from typing import Any

from chances.scenario import competition_scenario
from tournaments.models import Competition


def scenario_with_model(
    competition: Competition,
    *,
    what_if: dict[int, Any] | None = None,
    strength: dict[int, float] | None = None,
    base: float = 1.3,
) -> dict[str, Any]:
    """The competition's scenario where every team scores ``base`` goals a match against an equal
    side, multiplied by its ``strength`` (attack) and divided by the opponent's (defence)."""
    scenario, teams = competition_scenario(competition=competition, what_if=what_if)
    strength = strength or {}
    scenario["model"] = {
        "base": base,
        "strength": {
            str(t.id): [base * strength.get(t.id, 1.0), base / strength.get(t.id, 1.0)] for t in teams
        },
        "direct": {},
        "mu": {},
        "gamma": 0.0,
    }
    return scenario

"""The FUBA engine's outcome distribution for a pairing of set-ups: the one module of the chances
app that runs the rules engine.

Both sides are played by the engine's heuristic AI coach, so the goals measure what the set-ups
(formation, A2 roles, A11 skills, FUBA 2's A6 playing styles) are worth against each other over 90
minutes; the coaches' own strength is added later from their ratings (chances.match_model). Each
game plays its own ruleset (``fuba-3`` or ``fuba-2``): a FUBA 2 pairing is never estimated by FUBA 3.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from matches.simulation import balance_skills

# The league's one door into the engine (matchplay.engine_door over rules_engine.api); of the chances
# app, only this module goes through it.
from matchplay.engine_door import SimulationOptions, TeamSetup, play_match

# The set-up every team's strength is measured against: a plain 4-4-2 without roles or skills.
REFERENCE: dict[str, Any] = {"formation": "4-4-2"}


def setup_key(setup: dict[str, Any], rules: list[str], ruleset: str = "fuba-3") -> str:
    data: dict[str, Any] = {"setup": setup, "rules": sorted(rules)}
    if ruleset != "fuba-3":
        data["ruleset"] = ruleset  # FUBA 3's keys stay those already cached
    text = json.dumps(data, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


@dataclass(frozen=True)
class PairOutcome:
    sims: int
    home_goals: int
    away_goals: int
    home_wins: int
    draws: int
    away_wins: int


def simulate_pair(
    home: dict[str, Any],
    away: dict[str, Any],
    rules: list[str],
    *,
    sims: int,
    seed: str,
    ruleset: str = "fuba-3",
) -> PairOutcome:
    """Play ``sims`` matches of the two set-ups under ``ruleset`` (90 minutes, seeded by ``seed``
    and the index)."""
    home_setup = {"name": "Home", **home}
    away_setup = {"name": "Away", **away}
    balance_skills(home_setup, away_setup)
    h, a = TeamSetup.from_dict(home_setup), TeamSetup.from_dict(away_setup)
    options = SimulationOptions(advanced_rules=tuple(rules), ruleset=ruleset)
    hg = ag = hw = dr = aw = 0
    for i in range(sims):
        x, y = play_match(h, a, options, seed=f"{seed}:{i}").result().score
        hg += x
        ag += y
        hw += x > y
        dr += x == y
        aw += x < y
    return PairOutcome(sims, hg, ag, hw, dr, aw)

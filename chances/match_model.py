"""The match model: expected goals from the engine's estimates, shifted by the coaches' ratings.

For a pairing of set-ups simulated directly, the 90-minute goal rates are the simulated means,
shrunk towards the factorised estimate by ``PRIOR_MATCHES`` pseudo-matches (a dozen simulations
are noisy). Any other pairing (a knockout tie that may or may not happen) uses the factorised
estimate: each set-up played against one reference set-up gives an attack rate (goals scored)
and a defence rate (goals conceded); ``rate(A v B) = attack(A) * defence(B) / base`` where base
is the reference's own rate against itself (a multiplicative Poisson model, Maher 1982).

Coaches and venue: the engine plays both sides with the same AI, so coach skill comes from the
ratings. A job's model carries the score model fitted on the game's recorded results
(``fitted``, chances.score_model): the engine's log-rates relative to its base enter with weight
eta, the coaches' rating difference with gamma per half μ point each way, and a home ground (a
stage of two legs) with ``home``; the level of goals is the game's own. A game without an engine
has no set-up term: goals by rating difference and venue. Jobs stored before the fitted model
have ``gamma`` alone (GAMMA = 0.05: a coach 10 μ better scores 28% more, concedes 22% less).
"""

from __future__ import annotations

import math
from typing import Any, Final

from chances.estimates import PairOutcome
from chances.score_model import Params, rates

PRIOR_MATCHES: Final = 8.0
GAMMA: Final = 0.05
# Guards against a set-up that never scored in its few simulations (a rate of 0 would make it
# certain never to score).
MIN_RATE: Final = 0.05


def shrunk_rates(direct: PairOutcome, prior: tuple[float, float]) -> tuple[float, float]:
    n = direct.sims
    return (
        max(MIN_RATE, (direct.home_goals + PRIOR_MATCHES * prior[0]) / (n + PRIOR_MATCHES)),
        max(MIN_RATE, (direct.away_goals + PRIOR_MATCHES * prior[1]) / (n + PRIOR_MATCHES)),
    )


def strength(vs_reference: PairOutcome) -> tuple[float, float]:
    """(attack, defence) of a set-up from its matches at home to the reference set-up."""
    n = max(1, vs_reference.sims)
    return max(MIN_RATE, vs_reference.home_goals / n), max(MIN_RATE, vs_reference.away_goals / n)


def base_rate(reference_pair: PairOutcome) -> float:
    n = max(1, reference_pair.sims)
    return max(MIN_RATE, (reference_pair.home_goals + reference_pair.away_goals) / (2 * n))


def factorised(att_h: float, def_h: float, att_a: float, def_a: float, base: float) -> tuple[float, float]:
    return att_h * def_a / base, att_a * def_h / base


def outcome_probabilities(
    home_rate: float, away_rate: float, max_goals: int = 12
) -> tuple[float, float, float]:
    """(home win, draw, away win) over 90 minutes for independent Poisson goals."""

    def pmf(rate: float) -> list[float]:
        return [math.exp(-rate) * rate**k / math.factorial(k) for k in range(max_goals + 1)]

    ph, pa = pmf(home_rate), pmf(away_rate)
    home = draw = away = 0.0
    for i, x in enumerate(ph):
        for j, y in enumerate(pa):
            if i > j:
                home += x * y
            elif i == j:
                draw += x * y
            else:
                away += x * y
    total = home + draw + away
    return home / total, draw / total, away / total


def pair_rates(model: dict[str, Any], home: int, away: int, home_ground: bool = False) -> tuple[float, float]:
    """Expected 90-minute goals of ``home`` and ``away`` under a job's model section;
    ``home_ground``: the fixture is played at the home side's ground (not a neutral venue)."""
    base = float(model.get("base", 1.0))
    direct = model.get("direct", {}).get(f"{home}:{away}")
    if direct is not None:
        lh, la = direct
    else:
        strengths = model.get("strength", {})
        att_h, def_h = strengths.get(str(home), (base, base))
        att_a, def_a = strengths.get(str(away), (base, base))
        lh, la = factorised(att_h, def_h, att_a, def_a, base)
    mu = model.get("mu", {})
    diff = (mu.get(str(home), 0.0) - mu.get(str(away), 0.0)) / 2
    fitted = model.get("fitted")
    if fitted is not None:
        p = Params(*fitted)
        return rates(p, math.log(lh / base), math.log(la / base), diff, 1.0 if home_ground else 0.0)
    shift = float(model.get("gamma", 0.0)) * diff
    return lh * math.exp(shift), la * math.exp(-shift)

"""Calibration of the match model against the engine itself (a simulated competition).

Six set-ups (five formations and a side one player short) play a double round robin with the
engine: 30 pairings, 12 matches each observed (360). The model's forecasts come from *other*
engine matches (the estimates a chances job makes: 12 per pairing plus each set-up against the
reference, other seeds). Printed: the Brier
score of the model's home/draw/away forecasts, that of the sample's own base rates
(climatology, which knows the observed frequencies in hindsight), the uniform forecast's 0.667,
and predicted against observed frequencies of each outcome.

Bounds, and why:
- Brier(model) <= Brier(climatology) + 0.04: a forecast that has to guess from a dozen matches
  per pairing may lose a little to hindsight base rates, not more (the per-match Brier spread is
  about 0.35, so with 360 matches the standard error of a paired difference is ~0.015: 0.04 is
  between two and three of them).
- Brier(model) < 0.667: better than saying one third each.
- |mean predicted - observed frequency| <= 0.07 for home win, draw, away win: with 360 matches
  the observed frequencies have a standard error of ~0.026; 0.07 is a bit under three.
"""

from __future__ import annotations

import pytest

from chances.estimates import REFERENCE, simulate_pair
from chances.match_model import base_rate, factorised, outcome_probabilities, shrunk_rates, strength

# Five formations, and a side a suspended player short (a house rule), which the engine should punish.
SETUPS = [{"formation": f} for f in ("4-4-2", "4-3-3", "3-5-2", "4-5-1", "5-3-2")] + [
    {"formation": "4-4-2", "players_short": 1}
]
RULES: list[str] = []
ESTIMATE_SIMS = 12  # the default of CHANCES_ENGINE_SIMS
OBSERVED = 12


def _brier(p: tuple[float, float, float], outcome: int) -> float:
    return sum((q - (1.0 if i == outcome else 0.0)) ** 2 for i, q in enumerate(p))


@pytest.mark.timeout(900)
def test_match_model_is_calibrated_against_the_engine() -> None:
    ref = simulate_pair(REFERENCE, REFERENCE, RULES, sims=ESTIMATE_SIMS, seed="cal-ref")
    base = base_rate(ref)
    strengths = [
        strength(simulate_pair(s, REFERENCE, RULES, sims=ESTIMATE_SIMS, seed=f"cal-s{i}"))
        for i, s in enumerate(SETUPS)
    ]
    forecasts: list[tuple[float, float, float]] = []
    outcomes: list[int] = []
    for i, home in enumerate(SETUPS):
        for j, away in enumerate(SETUPS):
            if i == j:
                continue
            estimate = simulate_pair(home, away, RULES, sims=ESTIMATE_SIMS, seed=f"cal-d{i}-{j}")
            rates = shrunk_rates(estimate, factorised(*strengths[i], *strengths[j], base))
            p = outcome_probabilities(*rates)
            observed = simulate_pair(home, away, RULES, sims=OBSERVED, seed=f"cal-o{i}-{j}")
            for outcome, n in enumerate((observed.home_wins, observed.draws, observed.away_wins)):
                forecasts += [p] * n
                outcomes += [outcome] * n
    n = len(outcomes)
    freq = tuple(outcomes.count(k) / n for k in range(3))
    model = sum(_brier(p, o) for p, o in zip(forecasts, outcomes, strict=True)) / n
    climatology = sum(_brier(freq, o) for o in outcomes) / n  # type: ignore[arg-type]
    predicted = tuple(sum(p[k] for p in forecasts) / n for k in range(3))
    print(
        f"\ncalibration over {n} engine matches: Brier model {model:.3f}, climatology {climatology:.3f}, "
        f"uniform 0.667; predicted home/draw/away {predicted[0]:.3f}/{predicted[1]:.3f}/{predicted[2]:.3f}, "
        f"observed {freq[0]:.3f}/{freq[1]:.3f}/{freq[2]:.3f}"
    )
    assert model <= climatology + 0.04
    assert model < 0.667
    for k in range(3):
        assert abs(predicted[k] - freq[k]) <= 0.07, (k, predicted, freq)

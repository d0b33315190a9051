"""The fitted score model (chances.score_model): the fit finds the numbers that made the goals,
the prior holds without results, the outcome probabilities and the scores are right."""

from __future__ import annotations

import math
import random

import pytest

from chances.score_model import PRIOR, Params, Sample, fit, outcome_probabilities, rates, score


def _poisson(rng: random.Random, rate: float) -> int:
    k, p, u = 0, math.exp(-rate), rng.random()
    c = p
    while u > c:
        k += 1
        p *= rate / k
        c += p
    return k


def _samples(truth: Params, n: int, seed: int = 1) -> list[Sample]:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        eh, ea, diff, venue = rng.gauss(0, 0.3), rng.gauss(0, 0.3), rng.gauss(0, 4), float(rng.random() < 0.5)
        lh, la = rates(truth, eh, ea, diff, venue)
        out.append(Sample(eh, ea, diff, venue, _poisson(rng, lh), _poisson(rng, la)))
    return out


def test_the_fit_finds_the_level_engine_weight_rating_slope_and_home_advantage() -> None:
    truth = Params(a=math.log(1.4), eta=0.8, gamma=0.1, home=0.25)
    got = fit(_samples(truth, 3000))
    assert got.a == pytest.approx(truth.a, abs=0.05)
    assert got.eta == pytest.approx(truth.eta, abs=0.15)
    assert got.gamma == pytest.approx(truth.gamma, abs=0.015)
    assert got.home == pytest.approx(truth.home, abs=0.08)


def test_without_results_the_model_is_the_prior_and_fixed_numbers_stay() -> None:
    assert fit([]) == PRIOR
    fixed = fit(_samples(Params(eta=1.0), 500), free=(True, False, True, True), start=Params(eta=0.7))
    assert fixed.eta == 0.7


def test_outcome_probabilities_sum_to_one_and_a_home_ground_helps_the_home_side() -> None:
    p = Params(home=0.3)
    neutral = outcome_probabilities(*rates(p, 0.0, 0.0, 0.0, 0.0))
    home = outcome_probabilities(*rates(p, 0.0, 0.0, 0.0, 1.0))
    assert sum(neutral) == pytest.approx(1.0) and sum(home) == pytest.approx(1.0)
    assert neutral[0] == pytest.approx(neutral[2]) and home[0] > neutral[0]
    assert outcome_probabilities(1.3, 1.1)[1] == pytest.approx(0.2749, abs=1e-3)


def test_brier_score_and_log_loss() -> None:
    s = score([(1 / 3, 1 / 3, 1 / 3), (1.0, 0.0, 0.0)], [1, 0])
    assert s.brier == pytest.approx((2 / 3) / 2) and s.log_loss == pytest.approx(math.log(3) / 2)

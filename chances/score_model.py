"""The fitted score model: Poisson goals by the coaches' rating difference, the venue and the
engine's estimate of the two set-ups (docs/chances.md, "Match model").

For a match of home side H and away side A:

    log λ_H = a + η·e_H + γ·(μ_H − μ_A)/2 + h·venue
    log λ_A = a + η·e_A − γ·(μ_H − μ_A)/2

``e`` is the engine's log goal rate of the pairing of set-ups relative to its base rate (0 for a
game without an engine), ``μ`` the coaches' ratings of the game system before the match, ``venue``
1 where the fixture is played at the home side's ground (a stage of two legs: home and away) and
0 at a neutral venue (a single-leg stage). The four numbers are fitted by maximum likelihood on the
game system's recorded results, with a Gaussian prior (``PRIOR``) that keeps a short record from
swinging them: with no results the model is the prior (1.3 goals a side, no engine term, 0.05 per
half μ point, no home advantage).

Pure Python, no Django: the chances jobs and the backtest (bench/bench_forecast.py) use the same
code, so the figures shown on the chances page are those of the model the runs use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

MAX_GOALS: Final = 12


@dataclass(frozen=True, slots=True)
class Sample:
    """One recorded match as it was known before it was played."""

    engine_home: float  # log engine rate relative to base (0 without an engine)
    engine_away: float
    rating_diff: float  # (mu_home - mu_away) / 2
    venue: float  # 1 home ground, 0 neutral
    home_goals: int
    away_goals: int


@dataclass(frozen=True, slots=True)
class Params:
    """a: log goals a side; eta: weight of the engine; gamma: per half-μ-point; home: venue."""

    a: float = math.log(1.3)
    eta: float = 1.0
    gamma: float = 0.05
    home: float = 0.0

    def as_list(self) -> list[float]:
        return [self.a, self.eta, self.gamma, self.home]


# Prior means and their weights (1/variance). The intercept is nearly free. The engine's weight
# starts at 0: the engine's AI plays both sides, and how far its set-up differences carry over to
# the coaches' matches is for the recorded results to show (bench/bench_forecast.py: on the
# simulated seasons it adds little to the ratings). The rating slope starts at 0.05 per half μ
# point (a coach 10 μ better: 28% more goals, 22% fewer conceded) and needs a few dozen results
# to move far; the home advantage starts at none.
PRIOR: Final = Params(eta=0.0)
PRIOR_PRECISION: Final = (0.5, 4.0, 400.0, 20.0)


def rates(
    p: Params, engine_home: float, engine_away: float, rating_diff: float, venue: float
) -> tuple[float, float]:
    lh = p.a + p.eta * engine_home + p.gamma * rating_diff + p.home * venue
    la = p.a + p.eta * engine_away - p.gamma * rating_diff
    return math.exp(max(-6.0, min(3.0, lh))), math.exp(max(-6.0, min(3.0, la)))


def _features(s: Sample) -> tuple[list[float], list[float]]:
    return [1.0, s.engine_home, s.rating_diff, s.venue], [1.0, s.engine_away, -s.rating_diff, 0.0]


def fit(
    samples: list[Sample],
    *,
    free: tuple[bool, bool, bool, bool] = (True, True, True, True),
    start: Params = PRIOR,
    iterations: int = 25,
) -> Params:
    """Maximum a posteriori Poisson fit (Newton's method on four numbers, PRIOR as the prior);
    ``free`` says which of (a, eta, gamma, home) are fitted, the others keep ``start``'s value."""
    theta = start.as_list()
    prior = PRIOR.as_list()
    idx = [i for i in range(4) if free[i]]
    if not idx:
        return Params(*theta)
    rows = [x for s in samples for x in zip(_features(s), (s.home_goals, s.away_goals), strict=True)]
    for _ in range(iterations):
        grad = [0.0] * 4
        hess = [[0.0] * 4 for _ in range(4)]
        for x, y in rows:
            lam = math.exp(max(-6.0, min(3.0, sum(t * v for t, v in zip(theta, x, strict=True)))))
            for i in idx:
                grad[i] += (y - lam) * x[i]
                for j in idx:
                    hess[i][j] -= lam * x[i] * x[j]
        for i in idx:
            grad[i] -= PRIOR_PRECISION[i] * (theta[i] - prior[i])
            hess[i][i] -= PRIOR_PRECISION[i]
        step = _solve([[hess[i][j] for j in idx] for i in idx], [grad[i] for i in idx])
        for k, i in enumerate(idx):
            theta[i] -= step[k]
        if max(abs(s) for s in step) < 1e-9:
            break
    return Params(*theta)


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (a negative definite system of size <= 4)."""
    n = len(v)
    a = [[*row[:], v[i]] for i, row in enumerate(m)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[p] = a[p], a[c]
        if abs(a[c][c]) < 1e-12:
            return [0.0] * n
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def outcome_probabilities(home_rate: float, away_rate: float) -> tuple[float, float, float]:
    """(home win, draw, away win) over 90 minutes for independent Poisson goals."""
    ph = _pmf(home_rate)
    pa = _pmf(away_rate)
    cum_a = [0.0]
    for x in pa:
        cum_a.append(cum_a[-1] + x)
    home = sum(x * cum_a[i] for i, x in enumerate(ph))
    draw = sum(x * y for x, y in zip(ph, pa, strict=True))
    total = sum(ph) * sum(pa)
    away = total - home - draw
    return home / total, draw / total, away / total


def _pmf(rate: float) -> list[float]:
    out = [math.exp(-rate)]
    for k in range(1, MAX_GOALS + 1):
        out.append(out[-1] * rate / k)
    return out


@dataclass(frozen=True, slots=True)
class Scores:
    """Brier score (three outcomes, 0 best, 2 worst) and log loss (natural log) over ``n`` matches."""

    brier: float
    log_loss: float
    n: int


def score(forecasts: list[tuple[float, float, float]], outcomes: list[int]) -> Scores:
    """``outcomes``: 0 home win, 1 draw, 2 away win."""
    if not forecasts:
        return Scores(0.0, 0.0, 0)
    brier = log_loss = 0.0
    for f, o in zip(forecasts, outcomes, strict=True):
        brier += sum((p - (1.0 if k == o else 0.0)) ** 2 for k, p in enumerate(f))
        log_loss -= math.log(max(1e-12, f[o]))
    return Scores(brier / len(forecasts), log_loss / len(forecasts), len(forecasts))

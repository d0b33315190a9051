"""The rating arithmetic: openskill's Weng-Lin (Plackett-Luce) model for one-on-one matches.

Pure Python, no Django: the incremental task and the rebuild both fold matches through
``rate_match``, so the two paths do the same floating-point operations in the same order and
give identical numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

from openskill.models import PlackettLuce

Outcome = Literal["home", "draw", "away"]

MU: Final = 25.0
SIGMA: Final = 25.0 / 3.0
# A coach is "provisional" below this many rated matches: five is what one FUBA tournament gives
# most coaches (three group matches and a knockout tie or two). Until then a single result still
# moves mu by 1.5-2.5 points while sigma has only fallen from 8.3 to about 7.2, so the rank says
# more about how few games were played than about how well (docs/ratings.md).
PROVISIONAL_GAMES: Final = 5
# Ranking by mu - 3*sigma (openskill's ordinal): a coach is listed as at least this good with
# ~99.7% confidence, so one lucky win does not put a newcomer on top.
ORDINAL_SIGMAS: Final = 3.0

_MODEL = PlackettLuce(mu=MU, sigma=SIGMA)


@dataclass(frozen=True, slots=True)
class Skill:
    mu: float = MU
    sigma: float = SIGMA
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - ORDINAL_SIGMAS * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def rate_match(home: Skill, away: Skill, outcome: Outcome) -> tuple[Skill, Skill]:
    """Both coaches' ratings after one match (a draw, shoot-outs included, is a shared rank)."""
    ranks: list[float] = {"home": [1.0, 2.0], "draw": [1.0, 1.0], "away": [2.0, 1.0]}[outcome]
    h = _MODEL.rating(mu=home.mu, sigma=home.sigma)
    a = _MODEL.rating(mu=away.mu, sigma=away.sigma)
    [[h2], [a2]] = _MODEL.rate([[h], [a]], ranks=ranks)
    win_h, win_a = int(outcome == "home"), int(outcome == "away")
    draw = int(outcome == "draw")
    return (
        Skill(h2.mu, h2.sigma, home.games + 1, home.wins + win_h, home.draws + draw, home.losses + win_a),
        Skill(a2.mu, a2.sigma, away.games + 1, away.wins + win_a, away.draws + draw, away.losses + win_h),
    )


@dataclass(frozen=True, slots=True)
class Prediction:
    home: float
    draw: float
    away: float


def predict(home: Skill, away: Skill) -> Prediction:
    """Win/draw/loss chances from the ratings alone.

    openskill gives a draw probability and win probabilities that ignore draws; the win
    probabilities share what the draw leaves.
    """
    h = _MODEL.rating(mu=home.mu, sigma=home.sigma)
    a = _MODEL.rating(mu=away.mu, sigma=away.sigma)
    draw = float(_MODEL.predict_draw([[h], [a]]))
    p_home, p_away = (float(p) for p in _MODEL.predict_win([[h], [a]]))
    return Prediction(home=(1 - draw) * p_home, draw=draw, away=(1 - draw) * p_away)


@dataclass(frozen=True, slots=True)
class Combined:
    """A coach's ratings of several game systems in one figure (docs/ratings.md, "Combined")."""

    ordinal: float
    mu: float
    games: int
    systems: int


def combine(skills: list[Skill]) -> Combined:
    """The games-weighted mean of the per-system conservative ratings (μ − 3σ) and of μ.

    The games measure different skills (a FUBA 3 win says nothing of Soccer City), so no skill
    is pooled: each system's rating counts as often as the coach played it, and a system he
    tried once cannot outweigh the one he plays every week.
    """
    games = sum(s.games for s in skills)
    if games == 0:
        return Combined(Skill().ordinal, MU, 0, 0)
    return Combined(
        ordinal=sum(s.ordinal * s.games for s in skills) / games,
        mu=sum(s.mu * s.games for s in skills) / games,
        games=games,
        systems=sum(1 for s in skills if s.games),
    )

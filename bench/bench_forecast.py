"""Backtest of the chances' match model (issue 36): Brier score and log loss of four forecasters
over recorded results, each match forecast only from what was known before it.

Data (built here, nothing read from a shared database):

- **demo**: the demo World Cup's recorded results (``league.demo.build_world_cup`` through
  the services into a throw-away SQLite database), in the order they were recorded. The demo draws
  its scores at random, whoever plays, so nothing can beat the base rates on it: it is reported
  as a control.
- **FUBA 3 seasons**, **FUBA 2 seasons**: seasons of an 8-team double round robin played by the
  rules engine of each game. Each team keeps its coach from season to season; a coach has a hidden
  skill p (0.2-0.95) and answers each decision with the heuristic AI with probability p, otherwise
  at random; the set-ups (formation, A6 styles for FUBA 2) are drawn again every season.

Forecasters (home win / draw / away win over 90 minutes):

- **base rates**: the frequencies of home wins, draws and away wins before the match (add-one).
- **ratings only**: the ratings' own forecast (``ratings.skill.predict``, what
  ``/api/v1/ratings/predict`` answers) from the coaches' openskill ratings folded over the earlier
  matches.
- **engine only**: the engine's goals for the two set-ups (``chances.estimates`` and the shrinkage
  of ``chances.match_model`` against the reference 4-4-2, as a job computes them), Poisson.
- **ratings + venue**: ``chances.score_model`` without the engine (eta = 0): the level of goals,
  the rating slope and the home advantage fitted on the earlier matches (shown so that the
  engine's own share is seen).
- **combination** (the chosen model, what a chances job uses): the engine's set-up term, the
  rating slope, the level and the home advantage, all four fitted on the earlier matches (a
  played match's engine term is the factorised estimate of its set-ups, as a job reads it).

The engine estimates depend on the set-ups only (simulated apart, never on the results), so they
carry nothing of the matches they forecast. Target: the combination beats the base rates and
ratings only on both measures over all matches. ``--write`` stores the figures the chances page
shows (``chances/backtest.json``).

Run: ``.venv/bin/python bench/bench_forecast.py [--seasons 3] [--sims 8] [--write]``.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

FORMATIONS = ("4-4-2", "4-3-3", "3-5-2", "5-3-2", "4-5-1", "3-4-3", "5-4-1", "4-2-4")
SKILLS = (0.2, 0.3, 0.45, 0.55, 0.65, 0.75, 0.85, 0.95)
STYLES = ("easy", "normal", "aggressive")
FORECASTERS = ("base rates", "ratings only", "engine only", "ratings + venue", "combination")
CHOSEN = "combination"


@dataclass
class Match:
    home_coach: int
    away_coach: int
    home_setup: dict[str, Any]
    away_setup: dict[str, Any]
    home_goals: int
    away_goals: int
    venue: float  # 1: the home side's ground


@dataclass
class Dataset:
    name: str
    ruleset: str
    rules: list[str]
    matches: list[Match] = field(default_factory=list)


# ---------------------------------------------------------------------------- data
def _django(tmp: str) -> None:
    for key in ("DATABASE_URL", "REDIS_URL", "CELERY_BROKER_URL"):
        os.environ.pop(key, None)
    os.environ.update(
        DATABASE_URL=f"sqlite:///{tmp}/forecast.sqlite3",
        DEBUG="1",
        CHANCES_AUTO_RECOMPUTE="0",
        LOG_LEVEL="ERROR",
        DJANGO_SETTINGS_MODULE="fubaleague.settings",
    )
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def demo_dataset() -> Dataset:
    from chances.scenario import team_setup
    from league import demo
    from matches.models import Result
    from tournaments.game_systems import rules_of
    from tournaments.models import Fixture

    built = demo.build_world_cup(slug="forecast-demo")
    competition = built.competition
    rules = list(competition.advanced_rules or [])
    game = rules_of(competition)
    data = Dataset("demo World Cup", "fuba-3", rules)
    results = (
        Result.objects.filter(
            fixture__competition=competition,
            fixture__status=Fixture.Status.CONFIRMED,
            source__in=("clubs", "admin"),
        )
        .select_related("fixture__home_team", "fixture__away_team", "fixture__stage")
        .order_by("created_at", "id")
    )
    for r in results:
        f = r.fixture
        if (
            f.home_team is None
            or f.away_team is None
            or f.home_team.coach_id is None
            or f.away_team.coach_id is None
        ):
            continue
        data.matches.append(
            Match(
                f.home_team.coach_id,
                f.away_team.coach_id,
                team_setup(f.home_team, rules, game),
                team_setup(f.away_team, rules, game),
                r.home_goals,
                r.away_goals,
                1.0 if f.stage.legs == 2 else 0.0,
            )
        )
    return data


class MixedCoach:
    """A coach of skill ``p``: each decision the heuristic AI's answer with probability p, else a
    random legal one."""

    def __init__(self, p: float, rng: random.Random, good: Any, bad: Any) -> None:
        self.p, self.rng, self.good, self.bad = p, rng, good, bad

    def choose(self, match: Any, pending: Any) -> Any:
        return (self.good if self.rng.random() < self.p else self.bad).choose(match, pending)


def season_dataset(ruleset: str, seasons: int, seed: int) -> Dataset:
    from rules_engine.api import SimulationOptions, TeamSetup, play_match
    from rules_engine.coaches import make_coach

    rules = ["A6"] if ruleset == "fuba-2" else []
    name = "FUBA 2 seasons" if ruleset == "fuba-2" else "FUBA 3 seasons"
    data = Dataset(name, ruleset, rules)
    rng = random.Random(f"{seed}:{ruleset}")
    options = SimulationOptions(advanced_rules=tuple(rules), ruleset=ruleset)
    teams = len(SKILLS)
    for season in range(seasons):
        setups: list[dict[str, Any]] = []
        for _ in range(teams):
            s: dict[str, Any] = {"formation": rng.choice(FORMATIONS)}
            if ruleset == "fuba-2":
                s["styles"] = {line: rng.choice(STYLES) for line in ("defence", "midfield", "forward")}
            setups.append(s)
        pairs = [(h, a) for h in range(teams) for a in range(teams) if h != a]
        rng.shuffle(pairs)
        for k, (h, a) in enumerate(pairs):
            match_seed = f"{seed}:{ruleset}:{season}:{k}"
            home = TeamSetup.from_dict({"name": "Home", **setups[h]})
            away = TeamSetup.from_dict({"name": "Away", **setups[a]})
            coaches = tuple(
                MixedCoach(
                    SKILLS[t],
                    random.Random(f"{side}:mix:{match_seed}"),
                    make_coach("heuristic", random.Random(f"{side}:h:{match_seed}"), team, ruleset),
                    make_coach("random", random.Random(f"{side}:r:{match_seed}"), team, ruleset),
                )
                for side, t, team in (("home", h, home), ("away", a, away))
            )
            score = play_match(home, away, options, seed=match_seed, coaches=coaches).result().score  # type: ignore[arg-type]
            data.matches.append(Match(h, a, setups[h], setups[a], score[0], score[1], 1.0))
    return data


# ---------------------------------------------------------------------------- engine
class Engine:
    """The engine's goal rates for pairings of set-ups, computed as a chances job does."""

    def __init__(self, ruleset: str, rules: list[str], sims: int) -> None:
        self.ruleset, self.rules, self.sims = ruleset, rules, sims
        self.cache: dict[tuple[str, str], Any] = {}
        self.played = 0

    def _pair(self, home: dict[str, Any], away: dict[str, Any]) -> Any:
        from chances.estimates import setup_key, simulate_pair

        key = (setup_key(home, self.rules, self.ruleset), setup_key(away, self.rules, self.ruleset))
        if key not in self.cache:
            self.cache[key] = simulate_pair(
                home, away, self.rules, sims=self.sims, seed=f"{key[0]}:{key[1]}", ruleset=self.ruleset
            )
            self.played += self.sims
        return self.cache[key]

    def terms(self, home: dict[str, Any], away: dict[str, Any]) -> tuple[float, float, float, float, float]:
        """(home rate, away rate) of the direct estimate shrunk to the factorised one, as a job
        forecasts an upcoming fixture; the engine terms log(rate/base) of the factorised
        estimate, as a job's fit reads a played fixture; the base rate."""
        from chances.estimates import REFERENCE
        from chances.match_model import base_rate, factorised, shrunk_rates, strength

        base = base_rate(self._pair(REFERENCE, REFERENCE))
        sh, sa = strength(self._pair(home, REFERENCE)), strength(self._pair(away, REFERENCE))
        prior = factorised(*sh, *sa, base)
        lh, la = shrunk_rates(self._pair(home, away), prior)
        return lh, la, math.log(prior[0] / base), math.log(prior[1] / base), base


# ---------------------------------------------------------------------------- backtest
def outcome(m: Match) -> int:
    return 0 if m.home_goals > m.away_goals else (1 if m.home_goals == m.away_goals else 2)


def backtest(data: Dataset, engine: Engine) -> dict[str, list[tuple[float, float, float]]]:
    """Every forecaster's forecast of each match from the matches before it only."""
    from chances.score_model import PRIOR, Params, Sample, fit, outcome_probabilities, rates
    from ratings.skill import Skill, predict, rate_match

    skills: dict[int, Skill] = {}
    counts = [1, 1, 1]
    samples: list[Sample] = []  # earlier matches, as a job fits them
    out: dict[str, list[tuple[float, float, float]]] = {name: [] for name in FORECASTERS}
    for m in data.matches:
        h, a = skills.get(m.home_coach, Skill()), skills.get(m.away_coach, Skill())
        diff = (h.mu - a.mu) / 2
        lh, la, past_h, past_a, base = engine.terms(m.home_setup, m.away_setup)
        eh, ea = math.log(lh / base), math.log(la / base)
        total = sum(counts)
        out["base rates"].append((counts[0] / total, counts[1] / total, counts[2] / total))
        p = predict(h, a)
        out["ratings only"].append((p.home, p.draw, p.away))
        no_engine = fit(samples, free=(True, False, True, True), start=Params(PRIOR.a, 0.0, PRIOR.gamma, 0.0))
        out["ratings + venue"].append(outcome_probabilities(*rates(no_engine, 0.0, 0.0, diff, m.venue)))
        out["engine only"].append(outcome_probabilities(lh, la))
        chosen = fit(samples, free=(True, True, True, True), start=PRIOR)
        out["combination"].append(outcome_probabilities(*rates(chosen, eh, ea, diff, m.venue)))
        # Only now is the result known.
        o = outcome(m)
        counts[o] += 1
        samples.append(Sample(past_h, past_a, diff, m.venue, m.home_goals, m.away_goals))
        if m.home_coach != m.away_coach:
            skills[m.home_coach], skills[m.away_coach] = rate_match(h, a, ("home", "draw", "away")[o])  # type: ignore[arg-type]
    return out


def table(rows: list[tuple[str, dict[str, Any]]]) -> str:
    lines = [f"{'data':<16} {'matches':>7}  " + "  ".join(f"{f:>17}" for f in FORECASTERS)]
    lines.append(f"{'':<16} {'':>7}  " + "  ".join(f"{'Brier':>8} {'log loss':>8}" for _ in FORECASTERS))
    for name, scores in rows:
        n = next(iter(scores.values())).n
        cells = "  ".join(f"{scores[f].brier:>8.4f} {scores[f].log_loss:>8.4f}" for f in FORECASTERS)
        lines.append(f"{name:<16} {n:>7}  {cells}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seasons", type=int, default=3)
    parser.add_argument("--sims", type=int, default=8, help="engine matches per pairing of set-ups")
    parser.add_argument("--seed", type=int, default=36)
    parser.add_argument("--write", action="store_true", help="store the figures the chances page shows")
    args = parser.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        _django(tmp)
        import rules_engine
        from chances.score_model import score

        datasets = [
            demo_dataset(),
            season_dataset("fuba-3", args.seasons, args.seed),
            season_dataset("fuba-2", args.seasons, args.seed),
        ]
        rows: list[tuple[str, dict[str, Any]]] = []
        pooled: dict[str, list[tuple[float, float, float]]] = {f: [] for f in FORECASTERS}
        outcomes: list[int] = []
        engine_matches = 0
        for data in datasets:
            engine = Engine(data.ruleset, data.rules, args.sims)
            forecasts = backtest(data, engine)
            engine_matches += engine.played
            results = [outcome(m) for m in data.matches]
            rows.append((data.name, {f: score(forecasts[f], results) for f in FORECASTERS}))
            for f in FORECASTERS:
                pooled[f] += forecasts[f]
            outcomes += results
        overall = {f: score(pooled[f], outcomes) for f in FORECASTERS}
        rows.append(("all", overall))
    seconds = time.perf_counter() - started
    build = "mypyc" if rules_engine.NATIVE else "pure Python"
    print(
        f"Backtest of the match model ({build} engine, {engine_matches} engine matches "
        f"for the estimates, {seconds:.0f} s)"
    )
    print(table(rows))
    chosen = overall[CHOSEN]
    beaten = [
        f
        for f in ("base rates", "ratings only")
        if not (chosen.brier < overall[f].brier and chosen.log_loss < overall[f].log_loss)
    ]
    if args.write:
        figures = {
            "measured": datetime.now(UTC).date().isoformat(),
            "model": CHOSEN,
            "matches": chosen.n,
            "datasets": [{"name": n, "matches": s[CHOSEN].n} for n, s in rows[:-1]],
            "scores": {
                f: {"brier": round(s.brier, 4), "log_loss": round(s.log_loss, 4)} for f, s in overall.items()
            },
        }
        (ROOT / "chances" / "backtest.json").write_text(json.dumps(figures, indent=2) + "\n")
        print("figures written to chances/backtest.json")
    if beaten:
        print(
            f"bench_forecast: target missed: the {CHOSEN} does not beat {', '.join(beaten)} on both measures",
            file=sys.stderr,
        )
        return 1
    print(f"target met: the {CHOSEN} beats base rates and ratings only on Brier score and log loss")
    return 0


if __name__ == "__main__":
    sys.exit(main())

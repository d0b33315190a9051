"""Chances as pages and the API show them: per team, probabilities from the merged counts."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

from chances.match_model import outcome_probabilities, pair_rates
from chances.models import ChancesJob
from chances.score_model import PRIOR, Params, Sample, fit
from ratings.models import RatedMatch, RatingHistory
from ratings.skill import MU
from tournaments.game_systems import GAME_SYSTEMS
from tournaments.models import Competition, Fixture, Team


@dataclass
class TeamChances:
    team_id: int
    name: str
    positions: list[float]
    qualified: float | None
    rounds: list[float]
    champion: float
    best: int | None
    worst: int | None
    change_qualified: float | None = None
    change_champion: float | None = None

    @property
    def expected_position(self) -> float:
        return sum((i + 1) * p for i, p in enumerate(self.positions)) if self.positions else 0.0


@dataclass
class TableChances:
    stage_id: int
    stage: str
    group: str
    size: int
    rows: list[TeamChances]


@dataclass
class CompetitionChances:
    job: ChancesJob
    previous: ChancesJob | None
    rounds: list[str]
    tables: list[TableChances] = field(default_factory=list)
    teams: list[TeamChances] = field(default_factory=list)  # every team, best chance of winning first
    qualifying: bool = False


def latest_job(*, competition: Competition) -> ChancesJob | None:
    return (
        ChancesJob.objects.filter(competition=competition, status=ChancesJob.Status.DONE, what_if={})
        .order_by("-finished_at", "-id")
        .first()
    )


def previous_matchday_job(*, job: ChancesJob) -> ChancesJob | None:
    """The latest figures from before the last counted results (the change is measured from them)."""
    return (
        ChancesJob.objects.filter(
            competition_id=job.competition_id,
            status=ChancesJob.Status.DONE,
            what_if={},
            counted_results__lt=job.counted_results,
        )
        .order_by("-counted_results", "-finished_at", "-id")
        .first()
    )


def _rounds(scenario: dict[str, Any]) -> list[str]:
    knockouts = [s["id"] for s in scenario["stages"] if s["kind"] == "knockout"]
    seen: dict[str, tuple[int, int]] = {}
    for f in scenario["fixtures"]:
        if f["stage"] in knockouts and f["round_name"] != "Third place":
            name = f["round_name"] or f"Round {f['round']}"
            seen.setdefault(name, (knockouts.index(f["stage"]), f["round"]))
    return sorted(seen, key=lambda n: seen[n])


def competition_chances(*, job: ChancesJob, with_change: bool = True) -> CompetitionChances:
    result = job.result or {}
    runs = max(1, int(result.get("runs", 0)))
    scenario = job.scenario
    rounds = _rounds(scenario)
    names = dict(Team.objects.filter(competition_id=job.competition_id).values_list("id", "name"))
    previous = previous_matchday_job(job=job) if with_change else None
    before = (previous.result or {}) if previous is not None else None
    qualifying = any(s["kind"] == "groups" for s in scenario["stages"])

    def share(counts: dict[str, int], team: str, total: int) -> float:
        return counts.get(team, 0) / total

    by_team: dict[int, TeamChances] = {}
    for team_id, name in names.items():
        key = str(team_id)
        change_q = change_c = None
        if before is not None and before.get("runs"):
            b_runs = before["runs"]
            change_c = share(result.get("champion", {}), key, runs) - share(
                before.get("champion", {}), key, b_runs
            )
            if qualifying:
                change_q = share(result.get("qualified", {}), key, runs) - share(
                    before.get("qualified", {}), key, b_runs
                )
        by_team[team_id] = TeamChances(
            team_id=team_id,
            name=name,
            positions=[],
            qualified=share(result.get("qualified", {}), key, runs) if qualifying else None,
            rounds=[share(result.get("rounds", {}).get(r, {}), key, runs) for r in rounds],
            champion=share(result.get("champion", {}), key, runs),
            best=None,
            worst=None,
            change_qualified=change_q,
            change_champion=change_c,
        )
    out = CompetitionChances(job=job, previous=previous, rounds=rounds, qualifying=qualifying)
    for stage in scenario["stages"]:
        positions = result.get("positions", {}).get(str(stage["id"]), {})
        for group, teams in stage["groups"].items():
            rows = []
            for team_id in teams:
                row = by_team.get(team_id)
                hist = positions.get(str(team_id))
                if row is None or hist is None:
                    continue
                row.positions = [c / runs for c in hist]
                row.best = result.get("best", {}).get(str(stage["id"]), {}).get(str(team_id))
                row.worst = result.get("worst", {}).get(str(stage["id"]), {}).get(str(team_id))
                rows.append(row)
            rows.sort(key=lambda r: (r.expected_position, r.name))
            out.tables.append(TableChances(stage["id"], stage.get("name", ""), group, len(teams), rows))
    out.teams = sorted(by_team.values(), key=lambda r: (-r.champion, -(r.qualified or 0), r.name))
    return out


def job_or_none(*, job_id: int) -> ChancesJob | None:
    if job_id > 2**63 - 1:
        return None
    return ChancesJob.objects.select_related("competition").filter(id=job_id).first()


def fixture_model_prediction(*, fixture: Fixture) -> tuple[float, float, float] | None:
    """Home win, draw, away win over 90 minutes under the latest chances job's match model."""
    if fixture.home_team_id is None or fixture.away_team_id is None:
        return None
    return model_prediction(fixture=fixture, job=latest_job(competition=fixture.competition))


def model_prediction(*, fixture: Fixture, job: ChancesJob | None) -> tuple[float, float, float] | None:
    """fixture_model_prediction() under ``job`` (the competition's latest, read once for many)."""
    if fixture.home_team_id is None or fixture.away_team_id is None:
        return None
    if job is None or "model" not in job.scenario:
        return None
    home_ground = fixture.stage.legs == 2
    rates = pair_rates(job.scenario["model"], fixture.home_team_id, fixture.away_team_id, home_ground)
    return outcome_probabilities(*rates)


@dataclass(frozen=True)
class FittedModel:
    params: Params
    results: int  # recorded results it was fitted on
    name: str  # what the pages call it


def rated_samples(*, game_system: str) -> list[tuple[int, Sample]]:
    """The game system's rated results in the order they were rated, by fixture id, each with
    what was known before it: the coaches' ratings of the game before the match and the venue (a
    stage of two legs: the home side's ground). The engine term is left 0 here; the job fills it
    in for the fixtures whose set-ups it has estimates of (``fitted_model``)."""
    history: dict[int, list[RatingHistory]] = {}
    for h in RatingHistory.objects.filter(game_system=game_system).order_by("sequence"):
        history.setdefault(h.rated_match_id, []).append(h)
    mu: dict[int, float] = {}
    samples: list[tuple[int, Sample]] = []
    entries = (
        RatedMatch.objects.filter(game_system=game_system, home_goals__isnull=False, away_goals__isnull=False)
        .exclude(outcome=RatedMatch.Outcome.VOID)
        .select_related("fixture__stage")
        .order_by("sequence")
    )
    for e in entries:
        if e.home_coach_id is None or e.away_coach_id is None:
            continue
        assert e.home_goals is not None and e.away_goals is not None
        diff = (mu.get(e.home_coach_id, MU) - mu.get(e.away_coach_id, MU)) / 2
        venue = 1.0 if e.fixture.stage.legs == 2 else 0.0
        samples.append((e.fixture_id, Sample(0.0, 0.0, diff, venue, e.home_goals, e.away_goals)))
        for point in history.get(e.id, []):
            mu[point.coach_id] = point.mu
    return samples


def model_name(game_system: str, results: int) -> str:
    game = GAME_SYSTEMS[game_system]
    fitted = f"fitted on {results} recorded {game.name} result{'s' if results != 1 else ''}"
    if game.engine_backed:
        return (
            f"the {game.name} rules engine's goals for the two set-ups (its AI coach on both sides), "
            f"shifted by the coaches' {game.name} rating difference and the venue; Poisson goals, {fitted}"
        )
    return (
        f"Poisson goals by the coaches' {game.name} rating difference and the venue (home ground or "
        f"neutral), {fitted}; {game.name} has no rules engine"
    )


def fitted_model(
    *, game_system: str, engine_terms: dict[int, tuple[float, float]] | None = None
) -> FittedModel:
    """The score model of ``game_system`` fitted on its recorded results (chances.score_model):
    the level of goals, the engine's weight, the rating slope and the home advantage.
    ``engine_terms``: the engine's log rates (relative to its base) of the fixtures whose set-ups
    the job has estimates of; only those inform the engine's weight (the others have no engine
    term, and leave it to the prior)."""
    terms = engine_terms or {}
    samples = [
        replace(s, engine_home=terms[fid][0], engine_away=terms[fid][1]) if fid in terms else s
        for fid, s in rated_samples(game_system=game_system)
    ]
    params = fit(samples, free=(True, GAME_SYSTEMS[game_system].engine_backed, True, True), start=PRIOR)
    return FittedModel(params, len(samples), model_name(game_system, len(samples)))


BACKTEST_FILE = Path(__file__).resolve().parent / "backtest.json"


@dataclass(frozen=True)
class ForecastQuality:
    """The backtest's figures (bench/bench_forecast.py --write): how good the match model is."""

    measured: str
    matches: int
    datasets: list[dict[str, Any]]
    model: dict[str, float]
    base_rates: dict[str, float]
    ratings_only: dict[str, float]
    engine_only: dict[str, float]
    ratings_venue: dict[str, float]


@cache
def forecast_quality() -> ForecastQuality | None:
    """Read once per process: the figures change only with a new release of the file."""
    if not BACKTEST_FILE.exists():
        return None
    data = json.loads(BACKTEST_FILE.read_text())
    scores = data["scores"]
    return ForecastQuality(
        measured=data["measured"],
        matches=data["matches"],
        datasets=data["datasets"],
        model=scores[data["model"]],
        base_rates=scores["base rates"],
        ratings_only=scores["ratings only"],
        engine_only=scores["engine only"],
        ratings_venue=scores["ratings + venue"],
    )

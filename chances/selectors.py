"""Chances as pages and the API show them: per team, probabilities from the merged counts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chances.match_model import outcome_probabilities, pair_rates
from chances.models import ChancesJob
from tournaments.models import Competition, Team


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


def fixture_model_prediction(*, fixture: Any) -> tuple[float, float, float] | None:
    """Home win, draw, away win over 90 minutes under the latest chances job's match model."""
    if fixture.home_team_id is None or fixture.away_team_id is None:
        return None
    job = latest_job(competition=fixture.competition)
    if job is None or "model" not in job.scenario:
        return None
    rates = pair_rates(job.scenario["model"], fixture.home_team_id, fixture.away_team_id)
    return outcome_probabilities(*rates)

"""Chances jobs: build the scenario, get the engine estimates, fan the runs out, merge.

The fan-out is a Celery group of chunk tasks; the join (the chord's body) is done through the
database: each chunk stores its counts once (unique per job and index) and the task that finds
every chunk stored merges them under the job's row lock. The project runs Celery without a
result backend, and this join is idempotent under redelivery (acks_late): a chunk that runs twice
stores nothing the second time, a merge that runs twice finds the job already done.
"""

from __future__ import annotations

import logging
import math
import secrets
import socket
from collections.abc import Mapping
from datetime import timedelta
from typing import Any

from celery import group
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.utils import timezone

from chances import conf
from chances.core import Simulator, merge_counts, simulate_chunk
from chances.estimates import REFERENCE, PairOutcome, setup_key, simulate_pair
from chances.match_model import base_rate, factorised, shrunk_rates, strength
from chances.models import ChancesChunk, ChancesJob, SetupPairEstimate
from chances.scenario import competition_scenario, counted_results, team_setup
from chances.selectors import FittedModel, fitted_model
from kernel.broker import publish
from kernel.errors import ApplicationError, NotFound, PermissionDenied
from ratings.selectors import skills_of
from tournaments.game_systems import FUBA_3, GameSystemRules, rules_of
from tournaments.models import Competition, Team

logger = logging.getLogger(__name__)

MAX_RUNS = 200_000
# The model permission behind a recomputation on staff's request: it queues a job of
# CHANCES_RUNS runs on the workers (the admin grants it as "Can add chances job").
RECOMPUTE_PERMISSION = "chances.add_chancesjob"


def _pairs_for(scenario: dict[str, Any], keys: dict[int, str], ref: str) -> list[tuple[str, str]]:
    pairs: set[tuple[str, str]] = {(ref, ref)}
    pairs |= {(k, ref) for k in keys.values()}
    for f in scenario["fixtures"]:
        if f["result"] is None and f["home"] is not None and f["away"] is not None:
            pairs.add((keys[f["home"]], keys[f["away"]]))
    return sorted(pairs)


def _engine_pairs(
    scenario: dict[str, Any], teams: list[Team], rules: list[str], game: GameSystemRules
) -> tuple[list[tuple[str, str]], dict[tuple[str, str], SetupPairEstimate]]:
    """The set-up pairings the job needs the engine's estimate of, and the cached rows of them
    (a row is added, to be estimated, for each pairing not cached)."""
    ruleset = game.engine_ruleset or "fuba-3"
    setups = {t.id: team_setup(t, rules, game) for t in teams}
    keys = {tid: setup_key(s, rules, ruleset) for tid, s in setups.items()}
    ref = setup_key(REFERENCE, rules, ruleset)
    by_key = {ref: REFERENCE, **{keys[tid]: s for tid, s in setups.items()}}
    pairs = _pairs_for(scenario, keys, ref)
    found = _estimates_of(pairs)
    # Only the rows not cached: the usual job finds them all and writes none of their set-ups.
    SetupPairEstimate.objects.bulk_create(
        [
            SetupPairEstimate(
                home_key=h,
                away_key=a,
                home_setup=by_key[h],
                away_setup=by_key[a],
                rules=rules,
                ruleset=ruleset,
            )
            for h, a in pairs
            if (h, a) not in found
        ],
        ignore_conflicts=True,
    )
    scenario["setup_keys"] = {str(t): k for t, k in keys.items()}
    scenario["reference"] = ref
    return pairs, found


@transaction.atomic
def chances_start(
    *,
    competition_id: int,
    runs: int | None = None,
    seed: int | None = None,
    what_if: Mapping[Any, Any] | None = None,
) -> ChancesJob:
    """Queue a chances computation (or a what-if) for a competition; returns the job."""
    competition = Competition.objects.filter(id=competition_id).first()
    if competition is None:
        raise NotFound(f"No competition {competition_id}.")
    game = rules_of(competition)
    runs = conf.runs() if runs is None else runs
    if isinstance(runs, bool) or not isinstance(runs, int) or not 1 <= runs <= MAX_RUNS:
        raise ApplicationError(f"runs must be a whole number from 1 to {MAX_RUNS}, not {runs!r}.")
    fixed = {int(k): v for k, v in (what_if or {}).items()}
    scenario, teams = competition_scenario(competition=competition, what_if=fixed)
    pairs: list[tuple[str, str]] = []
    found: dict[tuple[str, str], SetupPairEstimate] = {}
    scenario["setup_keys"], scenario["reference"] = {}, None
    if game.engine_ruleset is not None:
        # The game's own engine estimates the set-ups (a FUBA 2 pairing is played by fuba-2).
        pairs, found = _engine_pairs(scenario, teams, list(competition.advanced_rules or []), game)
    scenario["game_system"] = game.rating_pool
    coach_of = {t.id: t.coach_id for t in teams}
    skills = skills_of([c for c in coach_of.values() if c is not None], game_system=game.rating_pool)
    scenario["mu"] = {str(t): (skills[c].mu if c is not None else 25.0) for t, c in coach_of.items()}
    missing = _missing(pairs, found)
    if not missing:
        # Every estimate is cached (the usual case): the model now, in this transaction, so the
        # workers get the runs without a second transaction that reads and rewrites the job.
        scenario = _with_model(scenario, found)
    chunk = conf.chunk_runs()
    job = ChancesJob.objects.create(
        competition=competition,
        status=ChancesJob.Status.ESTIMATING if missing else ChancesJob.Status.RUNNING,
        what_if={str(k): v for k, v in fixed.items()},
        seed=secrets.randbits(31) if seed is None else seed,
        runs=runs,
        chunk_size=chunk,
        chunks=(runs + chunk - 1) // chunk,
        pairs=[list(p) for p in pairs],
        scenario=scenario,
        counted_results=counted_results(competition=competition),
        started_at=timezone.now(),
    )
    if not missing:
        _fan_out(job)
    else:
        from chances.tasks import pair_estimate

        job_id = job.id
        transaction.on_commit(lambda: publish(group(pair_estimate.si(job_id, h, a) for h, a in missing)))
    return job


def _estimates_of(pairs: list[tuple[str, str]]) -> dict[tuple[str, str], SetupPairEstimate]:
    keys = {k for pair in pairs for k in pair}
    rows = SetupPairEstimate.objects.filter(home_key__in=keys, away_key__in=keys)
    wanted = set(pairs)
    return {(r.home_key, r.away_key): r for r in rows if (r.home_key, r.away_key) in wanted}


def _missing(
    pairs: list[tuple[str, str]], found: dict[tuple[str, str], SetupPairEstimate]
) -> list[tuple[str, str]]:
    need = conf.engine_sims()
    return [p for p in pairs if p not in found or found[p].sims < need]


def _job_pairs(job: ChancesJob) -> list[tuple[str, str]]:
    return [(str(p[0]), str(p[1])) for p in job.pairs]


def pair_estimate(*, home_key: str, away_key: str) -> bool:
    """Simulate one pairing of set-ups with the engine unless it is cached; True if it simulated."""
    need = conf.engine_sims()
    row = SetupPairEstimate.objects.filter(home_key=home_key, away_key=away_key).first()
    if row is None:
        raise NotFound(f"No set-up pairing {home_key} v {away_key}.")
    if row.sims >= need:
        return False
    out = simulate_pair(
        row.home_setup,
        row.away_setup,
        list(row.rules),
        sims=need,
        seed=f"{home_key}:{away_key}",
        ruleset=row.ruleset,
    )
    # Conditional: a concurrent estimate of the same pairing (same seeds, same figures) wins once.
    SetupPairEstimate.objects.filter(id=row.id, sims__lt=need).update(
        sims=out.sims,
        home_goals=out.home_goals,
        away_goals=out.away_goals,
        home_wins=out.home_wins,
        draws=out.draws,
        away_wins=out.away_wins,
        computed_at=timezone.now(),
    )
    return True


def _outcome(row: SetupPairEstimate) -> PairOutcome:
    return PairOutcome(row.sims, row.home_goals, row.away_goals, row.home_wins, row.draws, row.away_wins)


def match_model(
    *, scenario: dict[str, Any], estimates: dict[tuple[str, str], PairOutcome], fitted: FittedModel
) -> dict[str, Any]:
    """The core's model section: the score model fitted on the game's recorded results, and for
    a game with an engine the direct rates of upcoming pairings and the set-ups' strengths."""
    section: dict[str, Any] = {
        "base": 1.0,
        "strength": {},
        "direct": {},
        "mu": scenario["mu"],
        "fitted": fitted.params.as_list(),
        "fitted_on": fitted.results,
        "name": fitted.name,
    }
    ref = scenario.get("reference")
    if ref is None:
        return section  # no engine: goals by the ratings and the venue alone
    keys = {int(t): k for t, k in scenario["setup_keys"].items()}
    base = base_rate(estimates[(ref, ref)])
    strengths = {t: strength(estimates[(k, ref)]) for t, k in keys.items()}
    direct: dict[str, list[float]] = {}
    for f in scenario["fixtures"]:
        h, a = f["home"], f["away"]
        if f["result"] is not None or h is None or a is None:
            continue
        prior = factorised(*strengths[h], *strengths[a], base)
        direct[f"{h}:{a}"] = list(shrunk_rates(estimates[(keys[h], keys[a])], prior))
    section.update(base=base, strength={str(t): list(s) for t, s in strengths.items()}, direct=direct)
    return section


def _engine_terms(
    scenario: dict[str, Any], estimates: dict[tuple[str, str], PairOutcome]
) -> dict[int, tuple[float, float]]:
    """The engine's log rates (relative to its base) of the competition's played fixtures, from
    the set-ups' strengths against the reference (known before any result: no result enters)."""
    ref = scenario.get("reference")
    if ref is None:
        return {}
    keys = {int(t): k for t, k in scenario["setup_keys"].items()}
    base = base_rate(estimates[(ref, ref)])
    terms: dict[int, tuple[float, float]] = {}
    for f in scenario["fixtures"]:
        h, a = f["home"], f["away"]
        if f["result"] is None or h not in keys or a not in keys:
            continue
        lh, la = factorised(*strength(estimates[(keys[h], ref)]), *strength(estimates[(keys[a], ref)]), base)
        terms[f["id"]] = (math.log(lh / base), math.log(la / base))
    return terms


def _with_model(scenario: dict[str, Any], found: dict[tuple[str, str], SetupPairEstimate]) -> dict[str, Any]:
    """The scenario with its match model, from every estimate it needs (``found``)."""
    estimates = {k: _outcome(r) for k, r in found.items()}
    fitted = fitted_model(
        game_system=scenario.get("game_system", FUBA_3),
        engine_terms=_engine_terms(scenario, estimates),
    )
    return {**scenario, "model": match_model(scenario=scenario, estimates=estimates, fitted=fitted)}


def _fan_out(job: ChancesJob) -> None:
    """Queue the job's chunks once its transaction commits."""
    from chances.tasks import chunk_run

    job_id, chunks = job.id, job.chunks
    transaction.on_commit(lambda: publish(group(chunk_run.si(job_id, i) for i in range(chunks))))


def job_estimates_check(*, job_id: int) -> bool:
    """Once every pairing the job needs is estimated: build the model and fan the runs out."""
    with transaction.atomic():
        job = ChancesJob.objects.select_for_update().filter(id=job_id).first()
        if job is None or job.status != ChancesJob.Status.ESTIMATING:
            return False
        pairs = _job_pairs(job)
        found = _estimates_of(pairs)
        if _missing(pairs, found):
            return False
        job.scenario = _with_model(job.scenario, found)
        job.status = ChancesJob.Status.RUNNING
        job.save(update_fields=["scenario", "status"])
        _fan_out(job)
    return True


_SIMULATORS: dict[int, Simulator] = {}


def _simulator_of(job_id: int) -> Simulator | None:
    # A worker runs many chunks of one job: its scenario is read and prepared once (it never
    # changes once running), and the simulator's caches of rates and goal tables carry over.
    if job_id not in _SIMULATORS:
        row = (
            ChancesJob.objects.filter(id=job_id, status=ChancesJob.Status.RUNNING).values("scenario").first()
        )
        if row is None:
            return None
        if len(_SIMULATORS) > 8:
            _SIMULATORS.clear()
        _SIMULATORS[job_id] = Simulator(row["scenario"])
    return _SIMULATORS[job_id]


def chunk_runs_for(job: ChancesJob, index: int) -> int:
    return min(job.chunk_size, job.runs - index * job.chunk_size)


def chunk_run(*, job_id: int, index: int) -> str:
    """Play one chunk of runs and store its counts once; the last chunk merges the job."""
    job = (
        ChancesJob.objects.filter(id=job_id)
        .only("id", "status", "seed", "runs", "chunk_size", "chunks")
        .first()
    )
    if job is None or job.status != ChancesJob.Status.RUNNING or not 0 <= index < job.chunks:
        return "skipped"
    if not ChancesChunk.objects.filter(job_id=job_id, index=index).exists():
        sim = _simulator_of(job_id)
        if sim is None:
            return "skipped"
        counts = sim.chunk(seed=job.seed, chunk=index, runs=chunk_runs_for(job, index))
        try:
            with transaction.atomic():
                ChancesChunk.objects.create(
                    job_id=job_id, index=index, counts=counts, worker=socket.gethostname()
                )
        except IntegrityError:
            pass  # a redelivered copy stored it first: the same seed gave the same counts
    return "merged" if job_merge(job_id=job_id, chunks=job.chunks) else "stored"


def job_merge(*, job_id: int, chunks: int) -> bool:
    """Merge the job's chunks once all ``chunks`` are stored; True if this call merged them."""
    # Counted without the job's lock: every chunk counts after its own commit, so the count that
    # comes last sees every chunk, and only then is the lock taken (the workers do not queue on
    # the job's row after each chunk).
    stored = ChancesChunk.objects.filter(job_id=job_id).count()
    if stored < chunks:
        ChancesJob.objects.filter(id=job_id, chunks_done__lt=stored).update(chunks_done=stored)
        return False
    with transaction.atomic():
        job = ChancesJob.objects.select_for_update().filter(id=job_id).first()
        if job is None or job.status != ChancesJob.Status.RUNNING:
            return False
        parts = list(job.chunk_rows.order_by("index").values_list("counts", flat=True))
        job.result = merge_counts(parts)
        job.chunks_done = len(parts)
        job.status = ChancesJob.Status.DONE
        job.finished_at = timezone.now()
        job.save(update_fields=["result", "chunks_done", "status", "finished_at"])
        # The chunks' counts live on in the merged result (gone in the same commit as "done").
        ChancesChunk.objects.filter(job_id=job_id).delete()
    _SIMULATORS.pop(job_id, None)
    return True


def job_result_in_process(*, job: ChancesJob) -> dict[str, Any]:
    """The job's figures computed here, chunk by chunk with the same seeds (for checks)."""
    if "model" not in job.scenario:
        raise ApplicationError(f"Job {job.id} has no match model yet.")
    return merge_counts(
        [
            simulate_chunk(job.scenario, seed=job.seed, chunk=i, runs=chunk_runs_for(job, i))
            for i in range(job.chunks)
        ]
    )


def running_job(*, competition: Competition) -> ChancesJob | None:
    """The competition's own recomputation still at work (not a what-if), unless it went stale:
    one older than CHANCES_JOB_STALE seconds lost its worker or its messages and blocks nothing."""
    since = timezone.now() - timedelta(seconds=conf.job_stale_seconds())
    return (
        ChancesJob.objects.filter(
            competition=competition,
            what_if={},
            status__in=[ChancesJob.Status.ESTIMATING, ChancesJob.Status.RUNNING],
            created_at__gte=since,
        )
        .order_by("-created_at", "-id")
        .first()
    )


@transaction.atomic
def chances_recompute(*, competition_id: int, user: User) -> tuple[ChancesJob, bool]:
    """Staff compute a competition's chances now: (the job, whether it is new). While a
    recomputation of the competition is at work, that one is the answer: a second request does
    not queue another CHANCES_RUNS runs."""
    if not (user.is_authenticated and user.is_staff and user.has_perm(RECOMPUTE_PERMISSION)):
        raise PermissionDenied(f"Recomputing the chances needs staff status and {RECOMPUTE_PERMISSION}.")
    # The competition's row lock makes two requests at the same moment find one job.
    competition = Competition.objects.select_for_update().filter(id=competition_id).first()
    if competition is None:
        raise NotFound(f"No competition {competition_id}.")
    running = running_job(competition=competition)
    if running is not None:
        return running, False
    return chances_start(competition_id=competition_id), True


def competition_recompute(*, competition_id: int) -> ChancesJob | None:
    """The debounced recomputation after counted results (None when there is nothing to do)."""
    competition = Competition.objects.filter(id=competition_id).first()
    if competition is None or competition.status != Competition.Status.ACTIVE:
        return None
    busy = ChancesJob.objects.filter(
        competition=competition,
        what_if={},
        status__in=[ChancesJob.Status.ESTIMATING, ChancesJob.Status.RUNNING],
        counted_results=counted_results(competition=competition),
    )
    if busy.exists():
        return None
    try:
        return chances_start(competition_id=competition_id)
    except ApplicationError as exc:
        logger.info("chances of %s not computed: %s", competition, exc.message)
        return None

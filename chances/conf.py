"""Settings of the chances app, from the environment (README's configuration table)."""

from __future__ import annotations

from django.conf import settings

from kernel.env import env_bool, env_int


def runs() -> int:
    """Runs of a recomputation (Opta publishes 10,000-run figures)."""
    return env_int("CHANCES_RUNS", 10_000, minimum=1)


def chunk_runs() -> int:
    """Runs per Celery task: 250 runs take about half a second, small enough to spread evenly."""
    return env_int("CHANCES_CHUNK_RUNS", 250, minimum=1)


def engine_sims() -> int:
    """Engine matches per pairing of set-ups (cached: each pairing is simulated once)."""
    return env_int("CHANCES_ENGINE_SIMS", 12, minimum=1)


def job_stale_seconds() -> int:
    """A recomputation not finished this long after it was queued no longer counts as running:
    staff asking again get a new one (10,000 runs take well under a minute on two workers)."""
    return env_int("CHANCES_JOB_STALE", 900, minimum=1)


def debounce_seconds() -> int:
    """Results counted within this window after the first one lead to one recomputation."""
    return env_int("CHANCES_DEBOUNCE", 60, minimum=0)


def auto_recompute() -> bool:
    """Recompute after counted results; off by default when tasks run in-process (the embedded
    default), where a recomputation would run inside the request that confirmed the result."""
    return env_bool("CHANCES_AUTO_RECOMPUTE", not settings.CELERY_TASK_ALWAYS_EAGER)

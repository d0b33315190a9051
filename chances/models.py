"""Chances: cached engine estimates per pairing of set-ups, and the Monte Carlo jobs."""

from __future__ import annotations

from django.db import models

from tournaments.models import Competition


class SetupPairEstimate(models.Model):
    """The engine's outcome over ``sims`` matches of one set-up (home) against another (away)."""

    home_key = models.CharField(max_length=32)
    away_key = models.CharField(max_length=32)
    home_setup = models.JSONField()
    away_setup = models.JSONField()
    rules = models.JSONField(default=list)
    ruleset = models.CharField(max_length=16, default="fuba-3")  # the engine's ruleset that plays it
    sims = models.PositiveIntegerField(default=0)
    home_goals = models.PositiveIntegerField(default=0)
    away_goals = models.PositiveIntegerField(default=0)
    home_wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)
    away_wins = models.PositiveIntegerField(default=0)
    computed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["home_key", "away_key"], name="setup_pair_unique")]

    def __str__(self) -> str:
        return f"{self.home_setup} v {self.away_setup} ({self.sims} sims)"


class ChancesJob(models.Model):
    class Status(models.TextChoices):
        ESTIMATING = "estimating", "Simulating set-up pairings with the engine"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"

    competition = models.ForeignKey(Competition, on_delete=models.CASCADE, related_name="chances_jobs")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ESTIMATING)
    # Fixed results of upcoming fixtures ("what if"): {fixture id: [home, away, home pens, away pens]}.
    what_if = models.JSONField(default=dict, blank=True)
    seed = models.BigIntegerField()
    runs = models.PositiveIntegerField()
    chunk_size = models.PositiveIntegerField()
    chunks = models.PositiveIntegerField()
    chunks_done = models.PositiveIntegerField(default=0)
    pairs = models.JSONField(default=list, blank=True)  # [home_key, away_key] estimates it needs
    pairs_done = models.PositiveIntegerField(default=0)
    scenario = models.JSONField(default=dict)
    # Counted results when the job started: the "matchday" the figures belong to.
    counted_results = models.PositiveIntegerField(default=0)
    result = models.JSONField(null=True, blank=True)
    error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["competition", "status", "-finished_at"], name="chances_job_latest")]

    def __str__(self) -> str:
        kind = "what-if" if self.what_if else "chances"
        return f"{self.competition} {kind} #{self.id} ({self.get_status_display()}, {self.runs} runs)"

    @property
    def seconds(self) -> float | None:
        if self.finished_at is None or self.started_at is None:
            return None
        return (self.finished_at - self.started_at).total_seconds()


class ChancesChunk(models.Model):
    """One chunk's counts: stored once (a redelivered chunk task finds it and adds nothing)."""

    job = models.ForeignKey(ChancesJob, on_delete=models.CASCADE, related_name="chunk_rows")
    index = models.PositiveIntegerField()
    counts = models.JSONField()
    worker = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["job", "index"], name="chances_chunk_unique")]

    def __str__(self) -> str:
        return f"chunk {self.index} of job {self.job_id}"

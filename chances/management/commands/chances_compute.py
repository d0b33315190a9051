"""Compute a competition's chances now: in-process with the embedded default, on the workers with a
broker (the page shows them when the job is done). `load_demo` runs it for the demo World Cup."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from chances import services
from chances.models import ChancesJob
from kernel.errors import ApplicationError
from tournaments.models import Competition


class Command(BaseCommand):
    help = "Compute the chances of a competition (Monte Carlo, docs/chances.md)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("slug")
        parser.add_argument("--runs", type=int, default=None, help="Monte Carlo runs (CHANCES_RUNS)")

    def handle(self, *args: Any, **options: Any) -> None:
        competition = Competition.objects.filter(slug=options["slug"]).first()
        if competition is None:
            raise CommandError(f"No competition '{options['slug']}'.")
        try:
            job = services.chances_start(competition_id=competition.id, runs=options["runs"])
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        job.refresh_from_db()
        if job.status == ChancesJob.Status.DONE:
            self.stdout.write(f"Chances of '{competition.name}' computed ({job.runs} runs).")
        else:
            self.stdout.write(f"Chances of '{competition.name}' queued on the workers (job {job.id}).")

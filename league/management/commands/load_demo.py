"""Load the demo World Cup (idempotent: a second run only makes sure the admin login works)."""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from celery.signals import task_postrun
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from league import demo
from tournaments.models import Competition


@contextmanager
def _tasks_summarised() -> Iterator[Counter[str]]:
    """Count the tasks run in-process instead of logging a line for each (the demo runs dozens)."""
    ran: Counter[str] = Counter()

    def count(sender: Any = None, **_kwargs: Any) -> None:
        ran[getattr(sender, "name", "?")] += 1

    trace = logging.getLogger("celery.app.trace")
    level = trace.level
    trace.setLevel(logging.WARNING)
    task_postrun.connect(count, weak=False)
    try:
        yield ran
    finally:
        task_postrun.disconnect(count)
        trace.setLevel(level)


class Command(BaseCommand):
    help = "Create a demo 32-team FUBA World Cup, part played (safe to run twice)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--slug", default=demo.DEMO_SLUG)
        parser.add_argument(
            "--allow-production",
            action="store_true",
            help="Load the demo even with DEBUG off (it creates accounts with published passwords).",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        slug = options["slug"]
        if not settings.DEBUG and not options["allow_production"]:
            # The demo's admin and club passwords are in the README: never on a real deployment.
            raise CommandError(
                "load_demo creates accounts with published passwords and runs only with DEBUG=1 "
                "(or --allow-production on a throw-away database)."
            )
        admin = demo.ensure_admin()
        if Competition.objects.filter(slug=slug).exists():
            self.stdout.write(f"Demo World Cup '{slug}' is already loaded.")
        else:
            started = time.monotonic()
            # All or nothing: a failure must not leave half a demo that the next run calls loaded.
            with _tasks_summarised() as ran, transaction.atomic():
                built = demo.build_world_cup(slug=slug)
            self.stdout.write(
                self.style.SUCCESS(
                    f"Loaded '{built.competition.name}': 32 teams, "
                    f"{len(built.simulated)} simulated, {len(built.disputed)} disputed, "
                    f"{len(built.submitted)} awaiting confirmation ({time.monotonic() - started:.1f}s)."
                )
            )
            for note in built.notes:
                self.stdout.write(self.style.WARNING(f"  note: {note}"))
            # By name: the league does not import the chances app that sits on top of it.
            with _tasks_summarised() as chances_ran:
                call_command("chances_compute", slug, stdout=self.stdout)
            ran.update(chances_ran)
            if ran:
                tasks = ", ".join(f"{count} {name}" for name, count in sorted(ran.items()))
                self.stdout.write(f"  Background tasks run in-process: {sum(ran.values())} ({tasks}).")
        self.stdout.write("")
        self.stdout.write(f"  Public pages: http://127.0.0.1:8000/c/{slug}/")
        self.stdout.write(
            f"  Admin:        http://127.0.0.1:8000/admin/  login '{admin.get_username()}' "
            f"password '{demo.DEMO_ADMIN[1]}'"
        )
        self.stdout.write(
            f"  Club logins:  e.g. '{demo.club_username('Netherlands')}' / '{demo.CLUB_PASSWORD}' "
            "(every team has 'club-<team>')"
        )

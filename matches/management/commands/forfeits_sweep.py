"""Run the forfeit sweep (the beat job `matches.forfeits_sweep`) from the command line.

Next to `make run` (no Redis, so no Celery beat) this is the beat: `--every 300` repeats it every
five minutes until interrupted. Fixtures past their reporting deadline without a counted result
are simulated or awarded, as docs/forfeits.md describes.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from matches.forfeits import forfeits_sweep


class Command(BaseCommand):
    help = "Open forfeits for fixtures past their deadline (once, or every N seconds)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--every", type=int, default=0, help="Repeat every this many seconds (0: once)")

    def handle(self, *args: Any, **options: Any) -> None:
        every = options["every"]
        while True:
            queued = forfeits_sweep()
            self.stdout.write(
                f"forfeit sweep: {len(queued)} fixture(s) queued {queued if queued else ''}".rstrip()
            )
            if every <= 0:
                return
            time.sleep(every)

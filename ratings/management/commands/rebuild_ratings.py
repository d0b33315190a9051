"""manage.py rebuild_ratings: recompute every coach rating from the whole history."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from ratings.services import ratings_rebuild


class Command(BaseCommand):
    help = "Recompute every coach rating from all rated results, in the order they were rated."

    def handle(self, *args: Any, **options: Any) -> None:
        rated = ratings_rebuild()
        self.stdout.write(f"Ratings rebuilt from {rated} rated matches.")

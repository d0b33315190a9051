"""``python manage.py build_engine_bundle``: package the rules engine for the scorer's Web Worker.

Writes ``build/web-engine/engine-<digest>.zip`` and ``engine.json`` (scoring.web_engine); the
Makefile's ``web-engine`` target runs it before ``make run`` and ``make test``.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from scoring import web_engine


class Command(BaseCommand):
    help = "Package the rules engine sources for the phone's local scorer (zip + digest)."

    def handle(self, *args: Any, **options: Any) -> None:
        manifest = web_engine.build()
        path = web_engine.OUT / manifest["file"]
        self.stdout.write(f"{path}: {manifest['bytes']} bytes, digest {manifest['digest'][:16]}…")

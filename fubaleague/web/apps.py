"""The public pages as a Django app: only for its ready() hook (no models, no templates)."""

from __future__ import annotations

from django.apps import AppConfig


class WebConfig(AppConfig):
    name = "fubaleague.web"
    label = "web"

    def ready(self) -> None:
        # Every process that commits changes (web and workers) renders its pages' fragments then.
        from fubaleague.web import refresh

        refresh.connect()

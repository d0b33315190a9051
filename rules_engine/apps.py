"""Thin Django wrapper around the pure-Python FUBA rules engine."""

from django.apps import AppConfig


class RulesEngineConfig(AppConfig):
    name = "rules_engine"
    verbose_name = "FUBA rules engine"
    default_auto_field = "django.db.models.BigAutoField"

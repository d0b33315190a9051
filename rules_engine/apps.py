from django.apps import AppConfig


class RulesEngineConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "rules_engine"
    verbose_name = "Rules engine"

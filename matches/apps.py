from django.apps import AppConfig


class MatchesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "matches"
    verbose_name = "Matches and results"

    def ready(self) -> None:
        # Signal handlers name models, so they can only be connected once the apps are loaded.
        from matches.standings import signals

        signals.connect()

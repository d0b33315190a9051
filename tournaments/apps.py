from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Competitions"

    def ready(self) -> None:
        # Signal handlers name models, so they can only be connected once the apps are loaded.
        from tournaments.standings import signals

        signals.connect()

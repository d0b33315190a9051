from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Competitions"

    def ready(self) -> None:
        # Connects the signals that invalidate cached standings when results change.
        from tournaments import standings_cache  # noqa: F401

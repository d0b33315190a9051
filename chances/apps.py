from django.apps import AppConfig


class ChancesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chances"
    verbose_name = "Chances"

    def ready(self) -> None:
        from chances import signals

        signals.connect()

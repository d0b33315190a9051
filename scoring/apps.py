from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Live match scoring"

    def ready(self) -> None:
        # The results workflow asks matches.holds whether a fixture is being scored live (it may
        # not import the scorer); the finder names models, which exist only once apps are loaded.
        from matches import holds
        from scoring import centre
        from scoring.selectors import fixture_holds

        holds.register(fixture_holds)
        centre.connect()

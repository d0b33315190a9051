from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        # The VAPID key is read at start: a bad key stops the service now, not at the first push.
        from notifications import outbox, vapid

        vapid.private_key()
        # The league announces its changes (tournaments.announcements); the outbox listens.
        outbox.connect()

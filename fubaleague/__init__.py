# Import the Celery app when Django starts so that @shared_task binds to it.
from fubaleague.celery import app as celery_app

__all__ = ("celery_app",)

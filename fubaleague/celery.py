"""Celery application: tasks are autodiscovered from each app's tasks.py."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fubaleague.settings")

app = Celery("fubaleague")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

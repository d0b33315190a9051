import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "fubaleague.settings")
django_application = get_wsgi_application()

# Imported once Django is set up: the live scorer's polled document is answered from the cache
# in front of Django's request cycle (scoring/live.py says why).
from scoring.live import LiveFastPath  # noqa: E402

application = LiveFastPath(django_application)

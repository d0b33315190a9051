from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache

from fubaleague.health import beat_info, run_checks


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    healthy, checks = run_checks()
    return JsonResponse(
        {"status": "ok" if healthy else "degraded", "checks": checks, "beat": beat_info()},
        status=200 if healthy else 503,
    )

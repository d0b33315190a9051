from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse
from django.templatetags.static import static
from django.views import defaults
from django.views.decorators.cache import cache_control, never_cache

from fubaleague.health import beat_info, fail_open_report, run_checks
from kernel.api_errors import error_body


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """Each component's state for everyone (load balancers, status pages); the details (timings,
    backends, broker address, error text, fail-open counts, beat) only for signed-in staff: the
    exception text and the broker URL were public."""
    healthy, checks = run_checks()
    body: dict[str, Any] = {"status": "ok" if healthy else "degraded"}
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_staff:
        body.update(checks=checks, beat=beat_info(), fail_open=fail_open_report())
    else:
        body["checks"] = {name: {"status": probe["status"]} for name, probe in checks.items()}
    return JsonResponse(body, status=200 if healthy else 503)


def page_not_found(request: HttpRequest, exception: Exception) -> HttpResponse:
    """404 for a URL nothing answers: the API's JSON error body under /api/, the HTML page elsewhere."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body("not_found", f"No API endpoint at {request.path}."), status=404)
    return defaults.page_not_found(request, exception)


@cache_control(max_age=86400, public=True)
def favicon(request: HttpRequest) -> HttpResponse:
    """Browsers ask for /favicon.ico whatever the page links: send them to the site's icon."""
    return HttpResponseRedirect(static("fubaleague/favicon.svg"))

"""How often a client may fail to sign in; the client's address is
``kernel.client_ip.client_ip`` (TRUSTED_PROXY_COUNT).

Sign-in limits: failed sign-ins are counted per address and per username (Django's
``user_login_failed`` signal, sent by every path that checks a password: the page login, the
admin login, the API's token exchange). Over either limit, the login endpoints answer 429 with
the wait, before the password is checked (``LoginLimitMiddleware``), and the authentication
backend refuses any other attempt (``LoginLimitBackend``), so the right password does not get
through either. The per-username limit stops a guesser with many addresses; the per-address
limit a guesser trying many usernames.

Why the existing fixed-window limiter (kernel/throttling.py) rather than django-axes: the
same counters, rates and Redis as the API limits, one mechanism to configure and test, no new
app with its own tables and lockout rules; the lockout ends with the window (no admin
unlocking). With Redis down the limits fail open like the API's (docs/reliability.md).
"""

from __future__ import annotations

import functools
import hashlib
import json
import time
from typing import Any

from django.conf import settings
from django.contrib.auth.backends import ModelBackend
from django.contrib.auth.signals import user_login_failed
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.urls import NoReverseMatch, get_script_prefix, reverse

from kernel.api_errors import error_body
from kernel.client_ip import client_ip
from kernel.throttling import parse_rate, window_count


def _window(rate: str) -> tuple[int, int, int]:
    allowed, duration = parse_rate(rate)
    return allowed, duration, int(time.time() // duration)


def _keys(request: Any, username: str | None) -> list[tuple[str, str]]:
    keys = [("address", f"login-failures:a:{client_ip(request)}")]
    if username:
        # surrogatepass: a lone surrogate from a JSON escape still names a counter; the API's parser
        # refuses that body afterwards (kernel/api_json.py).
        digest = hashlib.sha256(username.strip().lower().encode("utf-8", "surrogatepass")).hexdigest()[:32]
        keys.append(("username", f"login-failures:u:{digest}"))
    return keys


def _rate(kind: str) -> str:
    return str(settings.LOGIN_LIMIT_ADDRESS if kind == "address" else settings.LOGIN_LIMIT_USERNAME)


def locked_for(request: Any, username: str | None) -> int | None:
    """Seconds until this address or username may try again, or None when it may now."""
    for kind, key in _keys(request, username):
        allowed, duration, window = _window(_rate(kind))
        if int(cache.get(f"{key}:{window}") or 0) >= allowed:
            return int(duration - time.time() % duration) + 1
    return None


def record_failure(request: Any, username: str | None) -> None:
    for kind, key in _keys(request, username):
        _, duration, window = _window(_rate(kind))
        window_count(f"{key}:{window}", duration)


@receiver(user_login_failed, dispatch_uid="fubaleague_login_limits")
def _login_failed(sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any) -> None:
    if request is not None:
        record_failure(request, credentials.get("username"))


class LoginLimitBackend(ModelBackend):
    """Django's ModelBackend that refuses every password check while a limit is reached.

    The one backend (a separate one in front would make the session remember it, and a second
    ModelBackend would check each wrong password twice). PermissionDenied makes Django's
    authenticate() stop and send user_login_failed.
    """

    def authenticate(
        self, request: Any, username: str | None = None, password: str | None = None, **kwargs: Any
    ) -> Any:
        if request is not None and locked_for(request, username) is not None:
            raise PermissionDenied("too many failed sign-ins")
        return super().authenticate(request, username=username, password=password, **kwargs)


def _login_paths() -> frozenset[str]:
    # Every POST asks (an API post per tap of the live scorer): reverse() once per URL set-up.
    return _login_paths_for(str(settings.LOGIN_URL), settings.ROOT_URLCONF, get_script_prefix())


@functools.lru_cache(maxsize=8)
def _login_paths_for(login_url: str, urlconf: str, prefix: str) -> frozenset[str]:
    paths = {login_url}
    for name in ("admin:login", "api:token"):
        try:
            paths.add(reverse(name, urlconf=urlconf))
        except NoReverseMatch:
            continue
    return frozenset(paths)


def _username(request: HttpRequest) -> str | None:
    if request.content_type == "application/json":
        try:
            data = json.loads(request.body or b"{}")
        except (ValueError, RecursionError):
            # Deeply nested JSON: the API's parser answers it with a 400; here it names no user.
            return None
        value = data.get("username") if isinstance(data, dict) else None
    else:
        value = request.POST.get("username")
    return value if isinstance(value, str) else None


class LoginLimitMiddleware:
    """429 with the wait on the login endpoints while the address or the username is locked."""

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.method == "POST" and request.path in _login_paths():
            wait = locked_for(request, _username(request))
            if wait is not None:
                return self._refuse(request, wait)
        return self.get_response(request)

    @staticmethod
    def _refuse(request: HttpRequest, wait: int) -> HttpResponse:
        minutes = max(1, round(wait / 60))
        message = (
            "Too many failed sign-ins from this address or for this account; "
            f"try again in about {minutes} minute{'s' if minutes != 1 else ''}."
        )
        if request.path.startswith("/api/"):
            response: HttpResponse = JsonResponse(
                error_body("throttled", message, {"retry_after_seconds": wait}), status=429
            )
        else:
            response = HttpResponse(message, status=429, content_type="text/plain; charset=utf-8")
        response["Retry-After"] = str(wait)
        return response

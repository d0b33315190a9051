"""Strict readers for settings taken from the environment.

A wrong value must stop the process at start with the variable's name in the
message, instead of surfacing later as a confusing runtime error.
"""

from __future__ import annotations

import os
from urllib.parse import urlparse

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str | None = None, *, required: bool = False) -> str | None:
    value = os.environ.get(name)
    if value is None or value == "":
        if required:
            raise ImproperlyConfigured(f"Environment variable {name} is required but not set.")
        return default
    return value


def env_bool(name: str, default: bool = False) -> bool:
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"Environment variable {name}={raw!r} is not a boolean; use one of 1/0, true/false, yes/no, on/off."
    )


def env_float(name: str, default: float, *, minimum: float = 0.0) -> float:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"Environment variable {name}={raw!r} is not a number.") from None
    if not value > minimum:
        raise ImproperlyConfigured(f"Environment variable {name}={value} must be more than {minimum}.")
    return value


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"Environment variable {name}={raw!r} is not an integer.") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"Environment variable {name}={value} must be at least {minimum}.")
    return value


def env_list(name: str, default: list[str]) -> list[str]:
    raw = os.environ.get(name)
    if raw is None:
        return list(default)
    items = [item.strip() for item in raw.split(",")]
    if any(not item for item in items):
        raise ImproperlyConfigured(
            f"Environment variable {name}={raw!r} has an empty entry; use a comma-separated list."
        )
    return items


def env_url(name: str, *, schemes: tuple[str, ...]) -> str | None:
    """Return a URL from the environment, or None when unset; reject unknown schemes early."""
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return None
    parsed = urlparse(raw)
    if parsed.scheme not in schemes:
        raise ImproperlyConfigured(
            f"Environment variable {name}={_redact(raw)!r} has scheme {parsed.scheme!r}; "
            f"expected one of: {', '.join(schemes)}."
        )
    if parsed.scheme not in ("sqlite",) and not parsed.hostname:
        raise ImproperlyConfigured(f"Environment variable {name}={_redact(raw)!r} has no host.")
    return raw


def _redact(url: str) -> str:
    parsed = urlparse(url)
    if parsed.password:
        return url.replace(f":{parsed.password}@", ":***@")
    return url


def env_rate(name: str, default: str) -> str:
    """A request rate such as '600/minute' (DRF's form), checked now rather than at the first request."""
    raw = os.environ.get(name)
    value = default if raw is None or raw.strip() == "" else raw.strip()
    count, _, period = value.partition("/")
    if not count.isdigit() or period[:1] not in ("s", "m", "h", "d"):
        raise ImproperlyConfigured(
            f"Environment variable {name}={value!r} is not a rate; use e.g. 600/minute, 10/second, 1000/day."
        )
    return value

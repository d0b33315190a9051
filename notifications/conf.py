"""The notifications' settings, read when used (tests change them with override_settings)."""

from __future__ import annotations

from django.conf import settings


def retry_base() -> float:
    return float(getattr(settings, "NOTIFY_RETRY_BASE", 30.0))


def retry_max() -> float:
    return float(getattr(settings, "NOTIFY_RETRY_MAX", 3600.0))


def max_attempts() -> int:
    return int(getattr(settings, "NOTIFY_MAX_ATTEMPTS", 10))


def pause_after() -> int:
    return int(getattr(settings, "NOTIFY_PAUSE_AFTER", 20))


def claim_timeout() -> float:
    return float(getattr(settings, "NOTIFY_CLAIM_TIMEOUT", 120))


def send_timeout() -> float:
    return float(getattr(settings, "NOTIFY_SEND_TIMEOUT", 10))


def push_paused_days() -> int:
    return int(getattr(settings, "NOTIFY_PUSH_PAUSED_DAYS", 30))


def site_url() -> str:
    return str(getattr(settings, "SITE_URL", "http://127.0.0.1:8000")).rstrip("/")


def allow_private_webhooks() -> bool:
    return bool(getattr(settings, "WEBHOOK_ALLOW_PRIVATE", False))


def backoff(attempts: int) -> float:
    """Seconds before the next try after ``attempts`` failed ones: 30 s, 1, 2, 4 min... at most an hour."""
    return min(retry_max(), retry_base() * 2 ** max(0, attempts - 1))

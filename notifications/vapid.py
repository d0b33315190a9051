"""The VAPID key pair that signs web pushes (RFC 8292), from the settings or the environment.

WEBPUSH_VAPID_PRIVATE_KEY holds the private key (PEM, or the base64url of its DER or raw 32
bytes, as `vapid --gen` and most guides give it); the public key the browsers subscribe with is
derived from it. The key is read when the app starts (notifications.apps), so a bad one stops the
service at start rather than at the first push. Without a key, web push is off and the settings
page says so; the embedded default (DEBUG without a key) makes one in var/vapid_private.pem.
"""

from __future__ import annotations

import base64
from functools import lru_cache
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from py_vapid import Vapid02


def _configured_key() -> str:
    key = str(getattr(settings, "WEBPUSH_VAPID_PRIVATE_KEY", "") or "").strip()
    if key or not settings.DEBUG:
        return key
    path = Path(settings.VAR_DIR) / "vapid_private.pem"
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        pem = ec.generate_private_key(ec.SECP256R1()).private_bytes(
            serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
        )
        path.write_bytes(pem)
    return path.read_text()


@lru_cache(maxsize=4)
def _load(key: str) -> Vapid02 | None:
    if not key:
        return None
    try:
        if "BEGIN" in key:
            return Vapid02.from_pem(key.encode())
        return Vapid02.from_string(key)
    except Exception as exc:  # noqa: BLE001 - whatever py_vapid and cryptography raise for a bad key
        raise ImproperlyConfigured(
            f"WEBPUSH_VAPID_PRIVATE_KEY is not a usable VAPID private key ({type(exc).__name__}: {exc}); "
            "give a P-256 key as PEM or base64url (see docs/notifications.md)."
        ) from None


def private_key() -> Vapid02 | None:
    return _load(_configured_key())


def public_key() -> str:
    """The application server key the browsers subscribe with (base64url, uncompressed point)."""
    vapid = private_key()
    if vapid is None:
        return ""
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def subject() -> str:
    return str(getattr(settings, "WEBPUSH_VAPID_SUBJECT", "") or "mailto:noreply@localhost")

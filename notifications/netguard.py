"""A webhook may not point into the server's own network (loopback, private, link-local, the
cloud metadata address...) unless the instance allows it (WEBHOOK_ALLOW_PRIVATE, on in the
embedded default for a receiver on the same machine): otherwise anyone who may set a webhook
could make the server probe the services next to it.

Checked when a webhook is saved and again before every post (a name may resolve elsewhere
later); redirects are not followed.
"""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from kernel.errors import ApplicationError
from notifications import conf


class AddressRefused(ApplicationError):
    code = "webhook_address_refused"


def _addresses(host: str, port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except OSError as exc:
        raise AddressRefused(f"url: the host {host!r} cannot be resolved ({exc.strerror or exc}).") from None
    except (UnicodeError, ValueError) as exc:  # a label over 63 characters, a NUL...
        raise AddressRefused(f"url: {host[:80]!r} is not a host name ({exc}).") from None
    return [ipaddress.ip_address(str(info[4][0]).split("%")[0]) for info in infos]


def check_url(url: str) -> None:
    """Raise AddressRefused, saying why, for an address a webhook may not post to."""
    if any(ord(c) < 33 or ord(c) == 127 for c in url):
        raise AddressRefused("url: a web address has no spaces or control characters.")
    try:
        parts = urlsplit(url)
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError as exc:  # an unclosed [IPv6 address], a port out of range
        raise AddressRefused(f"url: not a web address ({exc}).") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise AddressRefused("url: a webhook address starts with https:// (or http://) and names a host.")
    if parts.username or parts.password:
        raise AddressRefused("url: no user name or password in the address; the signature authenticates.")
    if conf.allow_private_webhooks():
        return
    for address in _addresses(parts.hostname, port):
        mapped = getattr(address, "ipv4_mapped", None) or address
        if not mapped.is_global or mapped.is_multicast:
            raise AddressRefused(
                f"url: {parts.hostname} is at {address}, on a private, loopback or reserved network; "
                "this server does not post there (WEBHOOK_ALLOW_PRIVATE allows it)."
            )

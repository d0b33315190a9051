"""Limits that cannot be dodged: X-Forwarded-For is read only behind configured
proxies, and the page, admin and API logins are limited per address and per username."""

from __future__ import annotations

from typing import Any

import pytest
from django.conf import settings as django_settings
from django.test import Client, RequestFactory
from rest_framework.test import APIClient

from kernel.client_ip import client_ip
from tests.factories import AdminFactory, UserFactory

pytestmark = pytest.mark.django_db

PASSWORD = "correct horse battery staple"


@pytest.fixture(autouse=True)
def fast_hashing(settings: Any) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LOGIN_LIMIT_USERNAME = "5/hour"
    settings.LOGIN_LIMIT_ADDRESS = "8/hour"


def _user(**kwargs: Any) -> Any:
    user = (AdminFactory if kwargs.pop("staff", False) else UserFactory)(**kwargs)
    user.set_password(PASSWORD)
    user.save()
    return user


@pytest.mark.parametrize(
    ("proxies", "forwarded", "expected"),
    [
        (0, "6.6.6.6", "10.0.0.1"),  # default: the header is ignored
        (1, "6.6.6.6", "6.6.6.6"),
        (1, "forged, 7.7.7.7, 6.6.6.6", "6.6.6.6"),  # what the client wrote stays to the left
        (2, "forged, 6.6.6.6, 192.168.0.2", "6.6.6.6"),
        (3, "6.6.6.6", "6.6.6.6"),  # fewer hops than proxies: the leftmost there is
        (1, "", "10.0.0.1"),
    ],
)
def test_client_ip(settings: Any, proxies: int, forwarded: str, expected: str) -> None:
    settings.TRUSTED_PROXY_COUNT = proxies
    request = RequestFactory().get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_ip(request) == expected


def test_a_forged_forwarded_for_gives_no_fresh_limit(settings: Any) -> None:
    """The finding: a new X-Forwarded-For per request, 34,616 of 34,616 requests answered 200."""
    conf = dict(django_settings.REST_FRAMEWORK)
    conf["DEFAULT_THROTTLE_RATES"] = {**conf["DEFAULT_THROTTLE_RATES"], "anon": "5/minute"}
    settings.REST_FRAMEWORK = conf
    client = APIClient()
    codes = [client.get("/api/v1/ping", HTTP_X_FORWARDED_FOR=f"10.1.0.{i}").status_code for i in range(8)]
    assert codes == [200] * 5 + [429] * 3

    settings.TRUSTED_PROXY_COUNT = 1
    # Behind one proxy: the proxy's entry (the last) is the client; the forged part is ignored.
    codes = [
        client.get("/api/v1/ping", HTTP_X_FORWARDED_FOR=f"forged-{i}, 203.0.113.9").status_code
        for i in range(7)
    ]
    assert codes == [200] * 5 + [429] * 2
    assert client.get("/api/v1/ping", HTTP_X_FORWARDED_FOR="forged, 203.0.113.10").status_code == 200


def test_api_token_exchange_is_limited_per_username_across_addresses() -> None:
    """The finding: 300 wrong passwords without one 429, then the right one gave a token."""
    user = _user()
    client = APIClient()
    for i in range(5):
        response = client.post(
            "/api/v1/auth/token",
            {"username": user.username, "password": f"guess {i}"},
            format="json",
            REMOTE_ADDR=f"10.2.0.{i}",
        )
        assert response.status_code == 400
    response = client.post(
        "/api/v1/auth/token",
        {"username": user.username, "password": PASSWORD},
        format="json",
        REMOTE_ADDR="10.2.1.1",
    )
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "throttled"
    assert "Too many failed sign-ins" in response.json()["error"]["message"]
    assert int(response["Retry-After"]) > 0


@pytest.mark.parametrize(("path", "staff"), [("/login/", False), ("/admin/login/", True)])
def test_page_and_admin_logins_are_limited_per_username(path: str, staff: bool) -> None:
    """The finding: 60 of 60 wrong passwords accepted, then a login."""
    user = _user(staff=staff)
    client = Client()
    for i in range(5):
        response = client.post(path, {"username": user.username, "password": f"guess {i}"})
        assert response.status_code == 200 and "_auth_user_id" not in client.session
    response = client.post(path, {"username": user.username, "password": PASSWORD})
    assert response.status_code == 429
    assert b"Too many failed sign-ins" in response.content
    assert "_auth_user_id" not in client.session


def test_logins_are_limited_per_address_across_usernames() -> None:
    victim = _user()
    client = Client()
    for i in range(8):
        client.post("/login/", {"username": f"nobody{i}", "password": "x"}, REMOTE_ADDR="10.3.0.1")
    assert (
        client.post(
            "/login/", {"username": victim.username, "password": PASSWORD}, REMOTE_ADDR="10.3.0.1"
        ).status_code
        == 429
    )
    # Another address, and the victim's username has no failures of its own: it signs in.
    response = client.post(
        "/login/", {"username": victim.username, "password": PASSWORD}, REMOTE_ADDR="10.3.0.2"
    )
    assert response.status_code == 302 and client.session["_auth_user_id"] == str(victim.pk)


def test_the_backend_refuses_any_other_path_while_locked(rf: RequestFactory) -> None:
    from django.contrib.auth import authenticate

    user = _user()
    for i in range(5):
        assert authenticate(rf.post("/"), username=user.username, password=f"guess {i}") is None
    assert (
        authenticate(rf.post("/", REMOTE_ADDR="10.4.0.1"), username=user.username, password=PASSWORD) is None
    )

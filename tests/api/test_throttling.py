"""API request limits: one fixed-window counter per client in Redis (kernel/throttling.py)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.test import override_settings
from rest_framework.test import APIClient

from kernel.throttling import parse_rate, window_count
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def rates(anon: str, user: str) -> dict:
    conf = dict(settings.REST_FRAMEWORK)
    conf["DEFAULT_THROTTLE_RATES"] = {**conf["DEFAULT_THROTTLE_RATES"], "anon": anon, "user": user}
    return conf


def test_parse_rate() -> None:
    assert parse_rate("600/minute") == (600, 60)
    assert parse_rate("5/second") == (5, 1)
    assert parse_rate("100/day") == (100, 86400)


def test_window_counter_counts_in_redis() -> None:
    assert [window_count("throttle:test:x:1", 60) for _ in range(3)] == [1, 2, 3]
    assert window_count("throttle:test:y:1", 60) == 1


def test_anonymous_clients_are_limited_with_the_error_shape() -> None:
    client = APIClient()
    with override_settings(REST_FRAMEWORK=rates("3/hour", "1000/hour")):
        codes = [client.get("/api/v1/ping").status_code for _ in range(4)]
        response = client.get("/api/v1/ping")
    assert codes == [200, 200, 200, 429]
    error = response.json()["error"]
    assert error["code"] == "throttled"
    assert 0 < error["details"]["retry_after_seconds"] <= 3600


def test_signed_in_users_have_their_own_rate() -> None:
    client = APIClient()
    client.force_authenticate(UserFactory())
    with override_settings(REST_FRAMEWORK=rates("1/hour", "5/hour")):
        codes = [client.get("/api/v1/ping").status_code for _ in range(6)]
        anonymous = [APIClient().get("/api/v1/ping").status_code for _ in range(2)]
    assert codes == [200] * 5 + [429]
    assert anonymous == [200, 429]


def test_the_token_exchange_is_limited_per_address() -> None:
    # DRF's ObtainAuthToken turns throttling off; password guessing must still be limited.
    user = UserFactory(username="keeper")
    user.set_password("right-password")
    user.save()
    conf = dict(settings.REST_FRAMEWORK)
    conf["DEFAULT_THROTTLE_RATES"] = {**conf["DEFAULT_THROTTLE_RATES"], "login": "3/hour"}
    client = APIClient()
    with override_settings(REST_FRAMEWORK=conf):
        guesses = [
            client.post("/api/v1/auth/token", {"username": "keeper", "password": f"guess-{i}"}).status_code
            for i in range(3)
        ]
        right = client.post("/api/v1/auth/token", {"username": "keeper", "password": "right-password"})
    assert guesses == [400, 400, 400]
    assert right.status_code == 429 and right.json()["error"]["code"] == "throttled"

"""/healthz reports database, cache and broker; 503 when one is down."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from django.core.cache import cache
from django.db import OperationalError
from django.test import Client, override_settings

from fubaleague.celery import app as celery_app
from fubaleague.worker import WORKER_HEARTBEAT_KEY

pytestmark = pytest.mark.django_db


def test_all_up(admin_client: Client) -> None:
    response = admin_client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert {name: c["status"] for name, c in body["checks"].items()} == {
        "database": "up",
        "cache": "up",
        "broker": "up",
        "worker": "up",
    }
    assert body["checks"]["database"]["detail"] == "postgresql"


def test_broker_is_probed_for_real_when_not_eager(admin_client: Client) -> None:
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        body = admin_client.get("/healthz").json()
    assert body["checks"]["broker"]["status"] == "up"
    assert "redis" in body["checks"]["broker"]["detail"]


def test_database_down(client: Client) -> None:
    # Anonymous: a staff session would itself need the database that is down here.
    with mock.patch(
        "fubaleague.health.connection.cursor", side_effect=OperationalError("connection refused")
    ):
        response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "degraded"
    assert body["checks"]["database"]["status"] == "down"
    assert body["checks"]["cache"]["status"] == "up"


def test_cache_down(client: Client) -> None:
    dead = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            # Port 1 on loopback: nothing listens there, so the connection is refused at once.
            "LOCATION": "redis://127.0.0.1:1/0",
        }
    }
    # override_settings resets the cache handler, so the probe really connects to the dead port.
    with override_settings(CACHES=dead):
        response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["checks"]["cache"]["status"] == "down"


def test_broker_down(client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    # Celery reads CELERY_BROKER_URL from the environment before its own configuration.
    monkeypatch.setenv("CELERY_BROKER_URL", "redis://127.0.0.1:1/0")
    previous = celery_app.conf.broker_url
    celery_app.conf.broker_url = "redis://127.0.0.1:1/0"
    try:
        with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
            response = client.get("/healthz")
    finally:
        celery_app.conf.broker_url = previous
    assert response.status_code == 503
    assert response.json()["checks"]["broker"]["status"] == "down"


def test_the_public_sees_the_states_staff_the_details(client: Client, admin_client: Client) -> None:
    """The finding: /healthz showed everyone the broker URL and the exception text."""
    cache.set(WORKER_HEARTBEAT_KEY, {"hostname": "w@test", "at": time.time()})
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        public = client.get("/healthz").json()
        staff = admin_client.get("/healthz").json()
    assert public == {
        "status": "ok",
        "checks": {
            "database": {"status": "up"},
            "cache": {"status": "up"},
            "broker": {"status": "up"},
            "worker": {"status": "up"},
        },
    }
    assert staff["checks"]["worker"]["detail"].startswith("w@test")
    assert "redis://" in staff["checks"]["broker"]["detail"]
    assert {"beat", "fail_open"} <= set(staff)
    with mock.patch("fubaleague.health.connection.cursor", side_effect=OperationalError("secret host")):
        down = client.get("/healthz")
    assert down.status_code == 503 and "secret host" not in down.content.decode()
    assert down.json()["checks"]["database"] == {"status": "down"}


def test_no_worker_heartbeat_is_degraded(client: Client, admin_client: Client) -> None:
    """The finding: /healthz answered 200 "ok" with no worker alive."""
    with override_settings(CELERY_TASK_ALWAYS_EAGER=False):
        response = client.get("/healthz")
        assert response.status_code == 503
        assert response.json()["checks"]["worker"] == {"status": "down"}
        assert "no worker is consuming" in admin_client.get("/healthz").json()["checks"]["worker"]["error"]
        cache.set(WORKER_HEARTBEAT_KEY, {"hostname": "w@test", "at": time.time()})
        assert client.get("/healthz").status_code == 200

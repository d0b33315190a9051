"""The OpenAPI schema generates without warnings and validates; the docs pages are served offline."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client


def test_schema_generates_and_validates_without_warnings(tmp_path) -> None:
    out = tmp_path / "schema.yml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    assert "openapi: 3" in text
    assert "/api/v1/fixtures/{id}/submit-result" in text or "/api/v1/fixtures" in text


@pytest.mark.django_db
def test_schema_endpoint_and_docs_pages_use_no_cdn(client: Client) -> None:
    response = client.get("/api/v1/schema", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    for url in ("/api/v1/docs", "/api/v1/redoc"):
        page = client.get(url)
        assert page.status_code == 200
        html = page.content.decode()
        # Offline: the JS/CSS comes from our own static files (drf-spectacular-sidecar), not a CDN.
        assert "cdn.jsdelivr" not in html and "unpkg.com" not in html
        assert "/static/drf_spectacular_sidecar/" in html


@pytest.mark.django_db
def test_ping(client: Client) -> None:
    response = client.get("/api/v1/ping")
    assert response.status_code == 200 and response.json() == {"ping": "pong"}

"""The site's icon: linked from every page, and /favicon.ico (which browsers ask for anyway) finds it."""

from __future__ import annotations

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_favicon_ico_leads_to_the_icon_and_pages_link_it(client: Client) -> None:
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"].startswith("/static/fubaleague/favicon") and response["Location"].endswith(
        ".svg"
    )
    assert finders.find("fubaleague/favicon.svg")
    page = client.get("/").content.decode()
    assert '<link rel="icon" type="image/svg+xml" href="/static/fubaleague/favicon' in page

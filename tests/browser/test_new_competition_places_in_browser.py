"""The new-competition form in a browser: the places after a table appear when a league, Swiss
rounds or a league phase is chosen and go away (and are not sent) for groups or a knockout, at
phone (390x844) and desktop sizes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PASSWORD = "places-password-2026"
SIZES = {"phone": (390, 844), "desktop": (1366, 900)}


def test_the_places_show_only_for_a_table(page, live_server, settings, shot) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_user("nina", "nina@example.org", PASSWORD)
    page.goto(f"{live_server.url}/login/?next=/console/new/")
    page.fill("#id_username", "nina")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    places = page.locator("[data-testid=table-places]")
    page.wait_for_selector("#id_name")
    assert not places.is_visible()  # groups, the default
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.check("input[name=structure][value=league_phase]")
        assert places.is_visible() and page.locator("#id_direct_places").is_enabled()
        box = places.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width  # no sideways scroll
        shot(page, f"console-new-places-{label}")
        page.check("input[name=structure][value=knockout]")
        assert not places.is_visible()
        shot(page, f"console-new-no-places-{label}")
    # A value typed for a league phase is not sent once groups are chosen: the preview works.
    page.check("input[name=structure][value=league_phase]")
    page.fill("#id_direct_places", "8")
    page.check("input[name=structure][value=groups]")
    page.fill("#id_name", "Places Cup")
    page.fill("#id_teams", "8")
    page.fill("#id_groups", "2")
    page.click("button[name=preview]")
    page.wait_for_selector("[data-testid=preview]")
    assert "takes none" not in page.content() and not places.is_visible()
    # And shown again for a league, where the server renders it with the value given.
    page.check("input[name=structure][value=league]")
    page.fill("#id_direct_places", "4")
    page.click("button[name=preview]")
    page.wait_for_selector("[data-testid=preview]")
    assert places.is_visible() and "Semi-finals" in page.locator("[data-testid=preview]").inner_text()

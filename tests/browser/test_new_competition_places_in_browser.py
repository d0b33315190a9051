"""The new-competition form in a browser: the places after a table appear when a league, Swiss
rounds or a league phase is chosen and go away (and are not sent) for groups or a knockout, at
phone (390x844) and desktop sizes; and the Stages step changing, then deleting, a stage."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Stage
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.stages import stage_create

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


def test_a_stage_is_changed_and_deleted_on_the_stages_step(page, live_server, settings, shot) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    nina = get_user_model().objects.create_user("nina", "nina@example.org", PASSWORD)
    competition = competition_create(name="Stage Cup", slug="stage-cup", creator=nina)
    teams = [team_create(competition=competition, name=f"Club {i}") for i in range(1, 9)]
    league = stage_create(competition=competition, name="League", kind=Stage.Kind.ROUND_ROBIN, teams=teams)
    stage_create(
        competition=competition,
        name="Top four",
        kind=Stage.Kind.KNOCKOUT,
        feeder=league,
        feed_places_from=1,
        feed_places_to=4,
    )
    page.goto(f"{live_server.url}/login/?next=/console/c/stage-cup/stages/")
    page.fill("#id_username", "nina")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.click("[data-testid=edit-stage] >> text=Top four")
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"console-stage-edit-{label}")
    page.fill("#id_legs", "2")
    page.fill("#id_feed_places_to", "2")
    page.click("[data-testid=save-stage]")
    trail = page.locator("[data-testid=stage-trail]").inner_text()
    assert "nina (organiser) changed Top four" in trail and "legs 1 → 2" in trail
    page.click("[data-testid=edit-stage] >> text=Top four")
    page.click("[data-testid=delete-stage]")
    page.wait_for_selector("text=Top four deleted.")
    assert "nina (organiser) deleted Top four" in page.locator("[data-testid=stage-trail]").inner_text()
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shot(page, f"console-stages-trail-{label}")
    assert [s.name for s in competition.stages.all()] == ["League"]

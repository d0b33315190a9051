"""Issue 32 item 5, in a browser: a round of 16's results entered from one screen in one save, by
an organiser who is not staff, typed from field to field with the keyboard; the clicks are counted.
Screenshots of the round screen at 390×844 and at desktop size."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth import get_user_model

from matches.models import ResultAudit
from tournaments.models import Fixture
from tournaments.services.scheduling import fixture_generate
from tournaments.shapes import Shape, competition_create_from_shape

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PASSWORD = "round-of-16-pass"


def test_a_round_of_16_entered_from_one_screen_in_one_save(page, live_server, settings, shot) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    organiser = get_user_model().objects.create_user("desk", "desk@example.org", PASSWORD)
    cup = competition_create_from_shape(
        name="Sixteen Cup",
        slug="sixteen-cup",
        shape=Shape("knockout", 16),
        teams=[{"name": f"Team {i:02}", "country": f"Country {i}"} for i in range(16)],
        creator=organiser,
    )
    stage = cup.stages.get()
    fixture_generate(stage=stage, start=datetime(2027, 6, 11, 18, tzinfo=UTC), interval=timedelta(days=4))
    ties = list(Fixture.objects.filter(stage=stage, round=1).order_by("match_number"))
    assert len(ties) == 8

    base = live_server.url
    page.goto(f"{base}/login/?next=/console/c/sixteen-cup/results/")
    page.fill("#id_username", "desk")
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/results/")

    clicks = 0

    def click(selector: str) -> None:
        nonlocal clicks
        clicks += 1
        page.click(selector)

    for label, size in {"phone": (390, 844), "desktop": (1366, 900)}.items():
        page.set_viewport_size({"width": size[0], "height": size[1]})
        shot(page, f"results-desk-list-{label}")
    click("[data-testid=enter-round]")
    page.wait_for_selector("[data-testid=round-form]")
    assert page.locator("[data-testid=round-row]").count() == 8
    page.locator(f"#id_f{ties[0].pk}-home_goals").focus()
    # From field to field with Tab alone: home goals, away goals, extra time, the two shoot-out scores.
    for i, tie in enumerate(ties):
        level = i == len(ties) - 1
        page.keyboard.type("1" if level else str(i % 3 + 1))
        page.keyboard.press("Tab")
        page.keyboard.type("1" if level else "0")
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == f"id_f{tie.pk}-extra_time"
        if level:
            page.keyboard.press("Space")  # extra time played
        page.keyboard.press("Tab")
        page.keyboard.type("4" if level else "")
        page.keyboard.press("Tab")
        page.keyboard.type("2" if level else "")
        page.keyboard.press("Tab")
    for label, size in {"phone": (390, 844), "desktop": (1366, 900)}.items():
        page.set_viewport_size({"width": size[0], "height": size[1]})
        shot(page, f"results-round-of-16-{label}")
    click("[data-testid=save-round]")
    page.wait_for_selector("text=8 results saved.")

    assert clicks == 2  # one to open the round, one to save it: every score typed
    assert Fixture.objects.filter(stage=stage, round=1, status=Fixture.Status.CONFIRMED).count() == 8
    last = Fixture.objects.select_related("result").get(pk=ties[-1].pk)
    assert (last.result.extra_time, last.result.home_penalties, last.result.away_penalties) == (True, 4, 2)
    assert ResultAudit.objects.filter(fixture__in=ties).count() == 8
    # The next round is the screen's next stop: the quarter-finals, filled by the round just saved.
    page.goto(f"{base}/console/c/sixteen-cup/results/round/")
    assert page.locator("[data-testid=round-row]").count() == 4

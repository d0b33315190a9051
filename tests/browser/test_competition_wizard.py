"""The admin's new-competition wizard in a browser: a league in one step, pickers limited to its teams."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Competition
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True, serialized_rollback=True)]

PASSWORD = "wizard-password-2026"


def test_wizard_creates_a_competition_and_its_pickers_offer_only_its_teams(
    page, live_server, settings, shot
) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_user_model().objects.create_superuser("organiser", "org@example.org", PASSWORD)
    other = competition_create(name="Other Cup", slug="other-cup")
    team_create(competition=other, name="Stranger FC")

    page.goto(f"{live_server.url}/admin/login/?next=/admin/tournaments/competition/")
    page.fill("#id_username", "organiser")
    page.fill("#id_password", PASSWORD)
    page.click("input[type=submit]")
    page.click("text=New competition (wizard)")
    page.fill("#id_name", "Helsinki Winter League")
    page.fill("#id_slug", "helsinki-winter")
    page.check("input[name=format][value=league]")
    page.fill("#id_teams", "Kallio, Finland, Kallio FC\nTöölö, Finland, Töölö FC\nPasila, Finland\nVallila")
    shot(page, "admin-wizard")
    page.click("input[name=_create]")
    page.wait_for_selector("text=stages and groups created")

    competition = Competition.objects.get(slug="helsinki-winter")
    stage = competition.stages.get()
    assert stage.teams.count() == 4
    page.goto(f"{live_server.url}/admin/tournaments/stage/{stage.pk}/change/")
    # The stage's team picker (FilteredSelectMultiple) lists this competition's teams only, labelled with it.
    options = page.locator("select[name=teams] option, select#id_teams_from option").all_inner_texts()
    assert "Kallio (Helsinki Winter League)" in options
    assert not [o for o in options if "Stranger" in o]
    shot(page, "admin-stage-picker")

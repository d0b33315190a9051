"""A FUBA 2 match (rulebook 2.0) scored on a phone (390×844, server-driven): the page asks
rulebook 2.0's questions in words (each team's die, the movement option, pressing), its chips
and the pitch answer them, and no engine name reaches the screen."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from scoring.models import ScoringSession
from tests.browser.test_scorer_in_browser import PASSWORD, PHONE, _login, _taps
from tests.factories import team_with_member
from tournaments.game_systems import FUBA_2
from tournaments.models import Fixture, Stage
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.browser


@pytest.mark.django_db(transaction=True)
def test_a_fuba_2_match_scored_on_a_phone(browser, live_server, settings) -> None:
    settings.SCORER_LOCAL_ENGINE = False
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    competition = competition_create(
        name="Old Rules", slug="old-rules", game_system=FUBA_2, advanced_rules=["A1", "A6"]
    )
    (heidi, user), (otto, _) = (
        team_with_member(competition, "Heidi", playing_styles={"midfield": "aggressive"}),
        team_with_member(competition, "Otto", default_formation="4-5-1"),
    )
    user.set_password(PASSWORD)
    user.save()
    stage = stage_create(
        competition=competition, name="Final", kind=Stage.Kind.ROUND_ROBIN, teams=[heidi, otto]
    )
    fixture_generate(stage=stage)
    fixture = Fixture.objects.get(stage=stage)
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True)
    try:
        page = _login(context, live_server, user)
        page.goto(f"{live_server.url}/c/old-rules/matches/{fixture.id}/")
        page.get_by_test_id("score-live").click()
        page.wait_for_url("**/score/*/")
        expect(page.get_by_test_id("sc-question")).to_contain_text("Both teams: roll for kick-off")
        questions: set[str] = set()
        for _ in range(12):
            assert _taps(page, 15) == "ok"
            questions.add(page.get_by_test_id("sc-question").inner_text())
        events = page.get_by_test_id("sc-events").inner_text()
        assert "rolled each team's die" in events
        assert not [q for q in questions if "_" in q], questions
        session = ScoringSession.objects.get(fixture=fixture)
        assert session.header["ruleset"] == "fuba-2" and session.seq >= 150
    finally:
        context.close()

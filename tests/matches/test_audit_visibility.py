"""The public audit trail shows what counted, not who typed what."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from matches.services import result_dispute, result_override, result_submit
from tests.factories import AdminFactory, CompetitionFactory, UserFactory, team_with_member
from tournaments.bracket import Score
from tournaments.models import Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def disputed_then_overridden() -> dict[str, Any]:
    competition = CompetitionFactory()
    (home, home_user), (away, away_user) = (
        team_with_member(competition, "H"),
        team_with_member(competition, "A"),
    )
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    users = {home.id: home_user, away.id: away_user}
    submitter, opponent = users[fixture.home_team_id], users[fixture.away_team_id]
    result_submit(fixture_id=fixture.id, user=submitter, score=Score(7, 0))
    result_dispute(fixture_id=fixture.id, user=opponent, reason="secret: their coach cheated")
    admin = AdminFactory()
    result_override(fixture_id=fixture.id, user=admin, score=Score(2, 1), note="video checked")
    return {"fixture": fixture, "club": submitter, "opponent": opponent, "admin": admin}


def _audit(fixture_id: int, user: Any = None) -> list[dict[str, Any]]:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    response = client.get(f"/api/v1/fixtures/{fixture_id}/audit")
    assert response.status_code == 200
    return response.json()


def test_anonymous_and_other_users_see_only_what_counted(disputed_then_overridden) -> None:
    """The finding: anonymous GET fixtures/{id}/audit showed usernames, unconfirmed scores and
    dispute reasons."""
    fixture = disputed_then_overridden["fixture"]
    for user in (None, UserFactory()):
        audit = _audit(fixture.id, user)
        assert [entry["action"] for entry in audit] == ["override"]
        (entry,) = audit
        assert entry["actor"] is None and entry["before"] is None
        assert entry["note"] == "video checked"
        assert entry["after"]["result"]["home_goals"] == 2
        text = str(audit)
        assert "secret" not in text and disputed_then_overridden["club"].username not in text
        assert "'home_goals': 7" not in text, "the unconfirmed 7-0 stays hidden"


@pytest.mark.parametrize("who", ["club", "opponent", "admin"])
def test_the_clubs_and_staff_see_the_full_trail(disputed_then_overridden, who: str) -> None:
    audit = _audit(disputed_then_overridden["fixture"].id, disputed_then_overridden[who])
    assert [entry["action"] for entry in audit] == ["submit", "dispute", "override"]
    assert audit[0]["actor"] == disputed_then_overridden["club"].username
    assert audit[1]["note"] == "secret: their coach cheated"

"""The shoot-out is a key moment of the replay and of the live story (issue 31, item 8): the turn
log ends at the final whistle, so its score comes with the result and is said last, once."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from matches.services import result_confirm
from scoring import services
from scoring.selectors import live_story
from tests.scoring.helpers import level_knockout_at_full_time
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def _shootout_moments(data: dict) -> list[dict]:
    return [m for m in data["moments"] if m["kind"] == "shootout"]


def test_a_counted_shootout_is_the_replays_last_moment_and_a_slider_mark(client: Client) -> None:
    session, users = level_knockout_at_full_time(sides=("home",))
    services.session_confirm(session_id=session.id, user=users["home"], home_penalties=4, away_penalties=3)
    fixture = Fixture.objects.get(id=session.fixture_id)
    result_confirm(fixture_id=fixture.id, user=users["away"])
    home, away = fixture.home_team.name, fixture.away_team.name

    data = client.get(f"/c/{fixture.competition.slug}/matches/{fixture.pk}/replay.json").json()

    text = f"Penalty shoot-out: {home} 4–3 {away}; {home} go through"
    assert _shootout_moments(data) == [
        {
            "turn": data["feed"][-1]["turn"],
            "minute": data["feed"][-1]["minute"],
            "kind": "shootout",
            "text": text,
            "i": len(data["frames"]) - 1,
        }
    ]
    assert data["moments"][-1]["kind"] == "shootout"
    assert {"i": len(data["frames"]) - 1, "kind": "shootout", "text": text} in data["marks"]


def test_the_live_story_names_the_shootout_once_confirmed(client: Client) -> None:
    session, users = level_knockout_at_full_time(sides=("home",))
    before = json.loads(live_story(session_id=session.id).body)
    assert _shootout_moments(before) == []
    services.session_confirm(session_id=session.id, user=users["home"], home_penalties=2, away_penalties=3)
    after = json.loads(live_story(session_id=session.id).body)
    fixture = Fixture.objects.get(id=session.fixture_id)
    assert [m["text"] for m in _shootout_moments(after)] == [
        f"Penalty shoot-out: {fixture.home_team.name} 2–3 {fixture.away_team.name}; "
        f"{fixture.away_team.name} go through"
    ]

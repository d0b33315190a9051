"""The scorer page, the live JSON with its ETag, the match page's button and live panel, the live mark."""

from __future__ import annotations

import pytest

from scoring import services
from tests.scoring.helpers import make_fixture, play

pytestmark = pytest.mark.django_db


def test_a_member_starts_scoring_from_the_match_page(client) -> None:
    s = make_fixture()
    match_url = f"/c/{s.fixture.competition.slug}/matches/{s.fixture.id}/"
    client.force_login(s.home_user)
    page = client.get(match_url).content.decode()
    assert 'data-testid="score-live"' in page
    r = client.post(f"/score/start/{s.fixture.id}")
    assert r.status_code == 302 and r["Location"].startswith("/score/")
    scorer = client.get(r["Location"]).content.decode()
    assert 'data-can-write="1"' in scorer and "<script>" not in scorer and "onclick" not in scorer
    # the public match page now shows the live panel, the competition home the live mark
    client.logout()
    page = client.get(match_url).content.decode()
    assert 'data-testid="live-panel"' in page and 'data-testid="score-live"' not in page
    home = client.get(f"/c/{s.fixture.competition.slug}/").content.decode()
    assert 'data-testid="live-mark"' in home


def test_the_live_json_is_versioned_with_an_etag(client, django_capture_on_commit_callbacks) -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    r = client.get(f"/score/{session.id}/live.json")
    assert r.status_code == 200 and r.json()["seq"] == 0
    etag = r["ETag"]
    assert client.get(f"/score/{session.id}/live.json", HTTP_IF_NONE_MATCH=etag).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):  # the version is published on commit
        play(session.id, {"home": s.home_user, "away": s.away_user}, until=3)
    r = client.get(f"/score/{session.id}/live.json", HTTP_IF_NONE_MATCH=etag)
    assert r.status_code == 200 and r["ETag"] != etag and r.json()["seq"] == 3
    assert r.json()["events"][0]["text"]
    assert client.get("/score/999999/live.json").status_code == 404


def test_event_text_is_plain_language() -> None:
    from matchplay.narrate import event_detail, event_text, note_text, pending_text

    names = {"home": "Brazil", "away": "Argentina"}
    assert pending_text({"kind": "decision", "name": "target_area", "actor": "home"}, names) == (
        "Brazil: choose the target area"
    )
    assert pending_text({"kind": "roll", "name": "kick_off", "actor": "both", "dice": 2}, names).startswith(
        "Both teams: roll for kick-off"
    )
    setup = {"decide": "setup", "by": "away", "choice": {"gk": "A-PEN", "players": {"CENTRE": 2, "A-LM": 3}}}
    assert event_text(setup, names) == "Argentina set up: goalkeeper and 5 players"
    detail = event_detail(setup, names)
    assert detail is not None and "{" not in detail and "goalkeeper in the Argentina box" in detail
    assert event_text({"decide": "move", "by": "home", "choice": "H-LM>CENTRE"}, names) == (
        "Brazil moved a player from their own left midfield to the centre circle"
    )
    assert note_text({"kind": "goal", "team": "away", "score": [0, 1], "minute": "12"}, names) == (
        "12' GOAL for Argentina! Brazil 0–1 Argentina"
    )

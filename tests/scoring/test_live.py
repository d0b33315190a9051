"""The live endpoints' documents (scoring/live.py): one computation per version shared by every
poll, the current version read from the database, so documents cached late or in any order
never show an older state."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from scoring import live, selectors, services
from tests.scoring.helpers import make_fixture, next_event, play, tap_body

pytestmark = pytest.mark.django_db


def scored_session() -> Any:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    play(session.id, {"home": s.home_user, "away": s.away_user}, until=4)
    return session


def test_a_version_is_built_once_and_then_served_from_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    session = scored_session()
    path = f"/score/{session.id}/live.json"
    first = Client().get(path)
    assert first.status_code == 200 and json.loads(first.content)["seq"] == 4
    assert first["ETag"] == live.etag(session.id, json.loads(first.content)["version"])
    assert first["Cache-Control"] == "no-cache"

    def no_engine(**kwargs: Any) -> Any:
        raise AssertionError("the cached document is served without building it again")

    monkeypatch.setattr(selectors, "live_document", no_engine)
    again = Client().get(path)
    assert (again.status_code, again.content) == (200, first.content)
    assert Client().get(path, headers={"If-None-Match": first["ETag"]}).status_code == 304


def test_a_post_moves_every_poll_to_the_new_version(client: Client) -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    before = Client().get(f"/score/{session.id}/live.json")
    client.force_login(s.home_user)
    state = client.get(f"/api/v1/scoring-sessions/{session.id}").json()
    body = tap_body(state, {"client_id": "live-1", **next_event(state)})
    posted = client.post(
        f"/api/v1/scoring-sessions/{session.id}/events", body, content_type="application/json"
    )
    assert posted.status_code == 201
    after = Client().get(f"/score/{session.id}/live.json", headers={"If-None-Match": before["ETag"]})
    expected = posted.json()["state"]
    assert after.status_code == 200 and json.loads(after.content) == expected
    assert after["ETag"] == live.etag(session.id, expected["version"])


def test_a_document_cached_late_for_an_older_version_is_never_the_current_one() -> None:
    """Two writes whose documents reach the cache out of order (the later write's worker a moment
    faster): each version keeps its own document, and the poll reads the version committed."""
    session = scored_session()
    version = selectors.current_version(session_id=session.id)
    assert version is not None
    cache.set(live.live_key(session.id, version - 1), b'{"stale":true}')
    answer = Client().get(f"/score/{session.id}/live.json")
    assert json.loads(answer.content)["version"] == version


def test_an_entry_in_another_format_is_built_again() -> None:
    session = scored_session()
    version = selectors.current_version(session_id=session.id)
    assert version is not None
    cache.set(live.live_key(session.id, version), {"old": "format"})  # say, from an older release
    answer = Client().get(f"/score/{session.id}/live.json")
    assert answer.status_code == 200 and json.loads(answer.content)["seq"] == 4
    assert isinstance(cache.get(live.live_key(session.id, version)), bytes)


def test_an_unknown_session_is_a_404_with_the_error_body() -> None:
    answer = Client().get("/score/999999/live.json")
    assert answer.status_code == 404 and json.loads(answer.content)["error"]["code"] == "not_found"


def test_the_story_is_cached_per_version_too(monkeypatch: pytest.MonkeyPatch) -> None:
    session = scored_session()
    first = Client().get(f"/score/{session.id}/story.json")
    assert first.status_code == 200
    monkeypatch.setattr(selectors, "match_story", lambda log: pytest.fail("built again"))
    assert Client().get(f"/score/{session.id}/story.json").content == first.content


def test_the_story_with_frames_gives_the_pitch_at_each_turns_end(monkeypatch: pytest.MonkeyPatch) -> None:
    """A spectator stepping back (static/fubaleague/stepback.js) asks once for every moment's
    pitch: each feed line's ``first`` is then a frame, and the answer is cached per version."""
    session = scored_session()
    plain = Client().get(f"/score/{session.id}/story.json").json()
    answer = Client().get(f"/score/{session.id}/story.json?frames=1")
    assert answer.status_code == 200 and answer["ETag"].endswith('f"')
    story = answer.json()
    assert "frames" not in plain and story["frames"]
    assert [line["text"] for line in story["feed"]] == [line["text"] for line in plain["feed"]]
    frames = story["frames"]
    assert all(0 <= line["first"] < len(frames) for line in story["feed"])
    last = frames[-1]
    assert {"teams", "ball", "score", "minute", "turn"} <= set(last)
    assert last["turn"] == story["feed"][-1]["turn"]
    monkeypatch.setattr(selectors, "replay_frames", lambda log: pytest.fail("built again"))
    assert Client().get(f"/score/{session.id}/story.json?frames=1").content == answer.content

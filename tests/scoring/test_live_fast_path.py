"""The live endpoint's fast path (scoring/live.py): cached documents answered in front of Django,
with the same body and headers as Django's view, and everything else left to Django."""

from __future__ import annotations

import json
from typing import Any
from wsgiref.util import setup_testing_defaults

import pytest
from django.core.cache import cache

from fubaleague.wsgi import application, django_application
from scoring import published, selectors, services
from tests.scoring.helpers import make_fixture, next_event, play

pytestmark = pytest.mark.django_db(transaction=True)

# What gunicorn adds itself, and what Django adds when it answers (and the fast path need not).
TRANSPORT = {"date", "server", "connection", "content-length"}


def call(app: Any, path: str, **extra: str) -> tuple[int, dict[str, str], bytes]:
    environ: dict[str, Any] = {"PATH_INFO": path, "REQUEST_METHOD": "GET", "HTTP_HOST": "testserver"}
    environ.update(extra)
    setup_testing_defaults(environ)
    got: dict[str, Any] = {}

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> None:
        got["status"], got["headers"] = int(status.split()[0]), {k.lower(): v for k, v in headers}

    body = b"".join(app(environ, start_response))
    return got["status"], got["headers"], body


def scored_session() -> Any:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    play(session.id, {"home": s.home_user, "away": s.away_user}, until=4)
    return session


def test_a_cached_document_is_answered_as_django_would_with_the_same_headers() -> None:
    session = scored_session()
    path = f"/score/{session.id}/live.json"
    django_status, django_headers, django_body = call(django_application, path)  # fills the cache
    status, headers, body = call(application, path)
    assert (status, body) == (django_status, django_body) == (200, body)
    assert json.loads(body)["seq"] == 4
    assert {k: v for k, v in headers.items() if k not in TRANSPORT} == {
        k: v for k, v in django_headers.items() if k not in TRANSPORT
    }
    tag = headers["etag"]
    status, headers, body = call(application, path, HTTP_IF_NONE_MATCH=tag)
    django_status, django_headers, _ = call(django_application, path, HTTP_IF_NONE_MATCH=tag)
    assert (status, body, django_status) == (304, b"", 304)
    assert {k: v for k, v in headers.items() if k not in TRANSPORT} == {
        k: v for k, v in django_headers.items() if k not in TRANSPORT
    }


def test_a_post_publishes_the_new_version_for_the_fast_path(client) -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    client.force_login(s.home_user)
    state = client.get(f"/api/v1/scoring-sessions/{session.id}").json()
    body = {"client_id": "fast-1", "expected_seq": 1, **next_event(state)}
    posted = client.post(
        f"/api/v1/scoring-sessions/{session.id}/events", body, content_type="application/json"
    )
    assert posted.status_code == 201
    document = cache.get(published.live_key(session.id, posted.json()["version"]))
    assert isinstance(document, bytes)
    assert cache.get(published.version_key(session.id)) == posted.json()["version"]
    status, headers, answer = call(application, f"/score/{session.id}/live.json")
    expected = posted.json()
    del expected["created"]
    assert status == 200 and json.loads(answer) == expected
    assert headers["etag"] == f'"s{session.id}v{expected["version"]}"'


@pytest.mark.parametrize(
    "path, extra, status",
    [
        ("/score/999999/live.json", {}, 404),  # no such session: Django's 404 body
        ("/score/{id}/live.json", {"HTTP_HOST": "evil.example"}, 400),  # Django refuses the host
        ("/score/{id}/live.json", {"REQUEST_METHOD": "HEAD"}, 405),  # only GET is answered
        ("/score/{id}/live.json", {"QUERY_STRING": "x=1"}, 200),
    ],
)
def test_what_the_cache_cannot_answer_goes_to_django(path: str, extra: dict[str, str], status: int) -> None:
    session = scored_session()
    call(django_application, f"/score/{session.id}/live.json")
    got, _, body = call(application, path.format(id=session.id), **extra)
    assert got == status
    if status == 404:
        assert json.loads(body)["error"]["code"] == "not_found"


def test_a_missing_or_foreign_cache_entry_falls_back_to_django() -> None:
    session = scored_session()
    version = selectors.current_version(session_id=session.id)
    assert version is not None
    # an entry in another format (say, from an older release) is not served
    cache.set(published.live_key(session.id, version), {"old": "format"})
    status, _, body = call(application, f"/score/{session.id}/live.json")
    assert status == 200 and json.loads(body)["seq"] == 4
    assert isinstance(cache.get(published.live_key(session.id, version)), bytes)
    cache.delete(published.version_key(session.id))
    status, _, body = call(application, f"/score/{session.id}/live.json")
    assert status == 200 and json.loads(body)["version"] == version

"""Inputs that must be refused with a 4xx naming what is wrong, never a server error (each found
by a schemathesis run against a live server).

- An id filter given a huge number (SQLite cannot bind it: "Python int too large") or a fraction
  (a Decimal would match the id below it): a 400 naming the parameter.
- Generating fixtures with a start near the year 9999 or a huge interval (datetime overflows), a
  negative interval or deadline: a 400, and nothing is created.
- A competition slug or a turn log holding a NUL character (U+0000), which PostgreSQL refuses in
  a query and in jsonb: a 404 and a 400.
- A JSON body (or a turn log sent as form text) nested a few thousand levels deep, which makes
  the JSON decoder raise RecursionError: a 400 on every endpoint that reads a body.
- A lone UTF-16 surrogate escape ("\\ud800") in any JSON string, which decodes into text that
  cannot be encoded as UTF-8 (PostgreSQL, the cache and the logger fail on it: auth/token, the
  turn-log validation, submissions, scorer events, competition create, resolve and the draws):
  the parser answers a 400 naming the field.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from kernel.api_json import MAX_DEPTH
from matches.models import ResultSubmission
from tournaments.models import Fixture
from tournaments.services.clubs import team_create
from tournaments.services.competitions import competition_create
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db

HUGE = "99999999999999999999999"


@pytest.mark.parametrize(
    "url, param",
    [
        ("/api/v1/fixtures", "team"),
        ("/api/v1/fixtures", "stage"),
        ("/api/v1/fixtures", "round"),
        ("/api/v1/matches", "team"),
        ("/api/v1/teams", "coach"),
        ("/api/v1/teams", "club"),
        ("/api/v1/suspensions", "team"),
    ],
)
@pytest.mark.parametrize("value", [HUGE, f"-{HUGE}", "1.5", "1e300"])
def test_id_filters_refuse_numbers_no_id_can_be(cup, url, param, value) -> None:
    response = APIClient().get(url, {param: value})
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    assert error["code"] == "validation_error" and param in error["details"]


def test_id_filters_still_filter(cup) -> None:
    client = APIClient()
    team = cup.teams["Brazil"]
    fixtures = client.get("/api/v1/fixtures", {"team": str(team.pk)}).json()
    assert (
        fixtures["count"]
        == Fixture.objects.filter(home_team=team).count() + Fixture.objects.filter(away_team=team).count()
    )
    assert client.get("/api/v1/fixtures", {"team": "0"}).json()["count"] == 0
    assert (
        client.get("/api/v1/fixtures", {"round": "1"}).json()["count"]
        == Fixture.objects.filter(round=1).count()
    )
    assert client.get("/api/v1/teams", {"club": str(team.club_id)}).json()["count"] == 1


@pytest.mark.parametrize("kind", ["round_robin", "knockout"])
@pytest.mark.parametrize(
    "body, field",
    [
        ({"start": "9999-12-25T00:00:00Z"}, None),
        ({"start": "2026-06-01T00:00:00Z", "interval": "999999999 00:00:00"}, None),
        ({"start": "9999-12-31T20:00:00Z", "interval": "00:01:00", "deadline_after": "1 00:00:00"}, None),
        ({"start": "2026-06-01T00:00:00Z", "interval": "-7 00:00:00"}, "interval"),
        ({"start": "2026-06-01T00:00:00Z", "deadline_after": "-1 00:00:00"}, "deadline_after"),
    ],
)
def test_generate_fixtures_refuses_a_schedule_past_the_calendar(db, kind, body, field) -> None:
    competition = competition_create(name="Late Cup", slug="late-cup")
    teams = [team_create(competition=competition, name=f"T{i}") for i in range(4)]
    stage = stage_create(competition=competition, name="Stage", kind=kind, teams=teams)
    client = APIClient()
    client.force_authenticate(get_user_model().objects.create_user("boss", is_staff=True, is_superuser=True))
    response = client.post(f"/api/v1/stages/{stage.pk}/generate-fixtures", body, format="json")
    assert response.status_code == 400, response.content
    error = response.json()["error"]
    if field:
        assert error["code"] == "validation_error" and field in error["details"]
    else:
        assert error["code"] == "validation_error" and "9999" in error["message"]
    assert not Fixture.objects.filter(stage=stage).exists()
    ok = client.post(
        f"/api/v1/stages/{stage.pk}/generate-fixtures", {"start": "9999-01-01T00:00:00Z"}, format="json"
    )
    assert ok.status_code == 201, ok.content


@pytest.mark.parametrize(
    "url", ["/api/v1/competitions/%00", "/api/v1/competitions/a%00b/standings", "/api/v1/competitions/a%20b"]
)
def test_competition_lookups_refuse_what_is_not_a_slug(cup, url) -> None:
    response = APIClient().get(url)
    assert response.status_code == 404, response.content
    assert response.json()["error"]["code"] == "not_found"


@pytest.fixture
def open_fixture(cup) -> Fixture:
    # Group C is unplayed in the light cup.
    return (
        Fixture.objects.filter(group__name="C", round=1)
        .select_related("home_team")
        .order_by("match_number")
        .first()
    )


def _club_client(cup, fixture: Fixture) -> APIClient:
    client = APIClient()
    client.force_authenticate(cup.users[fixture.home_team.name])
    return client


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000, 100_000])
def test_deeply_nested_json_is_a_400_and_stores_nothing(cup, open_fixture, depth) -> None:
    client = _club_client(cup, open_fixture)
    log = '{"format": "fuba-log/1", "turns": ' + _nested(depth) + "}"
    for url, body in [
        ("/api/v1/turn-logs/validate", '{"turn_log": ' + log + "}"),
        (
            f"/api/v1/fixtures/{open_fixture.pk}/submit-result",
            '{"home_goals": 1, "away_goals": 0, "turn_log": ' + log + "}",
        ),
        ("/api/v1/auth/token", '{"username": ' + _nested(depth) + ', "password": "x"}'),
    ]:
        response = client.post(url, body, content_type="application/json")
        assert response.status_code == 400, (url, response.content[:300])
        assert response.json()["error"]["code"] == "malformed_request"
        # The same document as form text reaches the turn-log field's own JSON decoding.
        form = client.post(url, {"home_goals": "1", "away_goals": "0", "turn_log": log})
        assert form.status_code == 400, (url, form.content[:300])
    assert not ResultSubmission.objects.filter(fixture=open_fixture).exists()
    open_fixture.refresh_from_db()
    assert open_fixture.status == Fixture.Status.SCHEDULED


def test_nesting_up_to_the_limit_is_still_read(cup, open_fixture) -> None:
    client = _club_client(cup, open_fixture)
    # The body itself and the turn log in it are two levels: the notes take the rest.
    log = {"format": "fuba-log/1", "notes": json_nested(MAX_DEPTH - 2)}
    response = client.post("/api/v1/turn-logs/validate", {"turn_log": log}, format="json")
    assert response.status_code == 422, response.content[:300]  # read, then judged by the rules engine
    submitted = client.post(
        f"/api/v1/fixtures/{open_fixture.pk}/submit-result",
        {"home_goals": 1, "away_goals": 0, "turn_log": log},
        format="json",
    )
    assert submitted.status_code == 201, submitted.content[:300]


def json_nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


@pytest.mark.parametrize(
    "log", [{"format": "fuba-log/1", "ruleset": "fuba-3\x00"}, {"format": "fuba-log/1", "a\x00": 1}]
)
def test_a_turn_log_with_a_nul_character_is_a_400_and_stores_nothing(cup, open_fixture, log) -> None:
    client = _club_client(cup, open_fixture)
    for url, body in [
        ("/api/v1/turn-logs/validate", {"turn_log": log}),
        (
            f"/api/v1/fixtures/{open_fixture.pk}/submit-result",
            {"home_goals": 1, "away_goals": 0, "turn_log": log},
        ),
    ]:
        response = client.post(url, body, format="json")
        assert response.status_code == 400, (url, response.content[:300])
        # Named where it is: the field, or the place in the turn log (turn_log.ruleset).
        assert any(key.startswith("turn_log") for key in response.json()["error"]["details"])
    assert not ResultSubmission.objects.filter(fixture=open_fixture).exists()
    open_fixture.refresh_from_db()
    assert open_fixture.status == Fixture.Status.SCHEDULED


LONE = "\\ud800"  # the JSON escape, as a client writes it


def test_a_lone_surrogate_in_json_is_a_400_naming_the_field(cup, open_fixture) -> None:
    fixture, stage = open_fixture.pk, cup.groups_stage.pk
    cases = [
        (None, "/api/v1/auth/token", '{"username": "LONE", "password": "x"}', "username"),
        ("home", "/api/v1/turn-logs/validate", '{"turn_log": {"format": "fuba-log/1", "ruleset": "LONE"}}',
         "turn_log.ruleset"),
        ("home", f"/api/v1/fixtures/{fixture}/submit-result",
         '{"home_goals": 1, "away_goals": 0, "turn_log": {"events": [{"note": "x"}, {"note": "LONE"}]}}',
         "turn_log.events[1].note"),
        ("home", f"/api/v1/fixtures/{fixture}/dispute", '{"reason": "a LONE"}', "reason"),
        # A key that cannot be written is named by where it is: at the top, the body itself.
        ("home", "/api/v1/scoring-sessions", '{"fixture": 1, "LONE": 2}', "non_field_errors"),
        ("home", "/api/v1/scoring-sessions/1/events",
         '{"tap_id": "t1", "after": "", "after_seq": 0, '
         '"events": [{"client_id": "c1", "event": {"decide": "LONE"}}]}',
         "events[0].event.decide"),
        ("admin", "/api/v1/competitions", '{"name": "LONE Cup", "slug": "lone"}', "name"),
        ("admin", f"/api/v1/fixtures/{fixture}/resolve", '{"home_goals": 1, "away_goals": 0, "note": "LONE"}',
         "note"),
        ("admin", f"/api/v1/stages/{stage}/draw-groups", '{"seed": "LONE"}', "seed"),
    ]  # fmt: skip
    users = {"home": cup.users[open_fixture.home_team.name], "admin": cup.admin}
    for who, url, body, field in cases:
        client = APIClient()
        if who:
            client.force_authenticate(users[who])
        response = client.post(url, body.replace("LONE", LONE), content_type="application/json")
        assert response.status_code == 400, (url, response.content[:300])
        error = response.json()["error"]
        assert error["code"] == "validation_error" and field in error["details"], (url, error)
        prefix = "" if field == "non_field_errors" else f"{field}: "
        assert error["message"].startswith(f"{prefix}Text must be valid Unicode"), (url, error)
    assert not ResultSubmission.objects.filter(fixture=open_fixture).exists()


def test_a_lone_surrogate_in_a_turn_log_sent_as_form_text_or_file_is_refused(cup, open_fixture) -> None:
    client = _club_client(cup, open_fixture)
    log = '{"format": "fuba-log/1", "events": [{"note": "' + LONE + '"}]}'
    response = client.post("/api/v1/turn-logs/validate", {"turn_log": log})
    assert response.status_code == 400, response.content[:300]
    assert "events[0].note" in response.json()["error"]["details"]["turn_log"][0]
    # The match page's form reads an uploaded file with its own decoding.
    page = Client()
    page.force_login(cup.users[open_fixture.home_team.name])
    upload = SimpleUploadedFile("log.json", log.encode(), content_type="application/json")
    url = f"/c/{open_fixture.competition.slug}/matches/{open_fixture.pk}/submit"
    answer = page.post(url, {"home_goals": "1", "away_goals": "0", "turn_log": upload}, follow=True)
    assert answer.status_code == 200
    assert "Text must be valid Unicode" in answer.content.decode()
    assert not ResultSubmission.objects.filter(fixture=open_fixture).exists()


def test_text_with_real_non_ascii_characters_and_surrogate_pairs_is_read(cup) -> None:
    # A pair of escapes is one character (an emoji); accented text is UTF-8 already.
    client = APIClient()
    client.force_authenticate(cup.admin)
    body = '{"name": "Copa Bogot\\u00e1 \\ud83c\\udfc6", "slug": "copa"}'
    response = client.post("/api/v1/competitions", body, content_type="application/json")
    assert response.status_code == 201, response.content[:300]
    assert response.json()["name"] == "Copa Bogot\u00e1 \U0001f3c6"


def test_a_nul_character_in_any_text_of_a_body_is_a_400_naming_the_field(cup) -> None:
    """Found by the fuzz run of the whole API: a competition slug holding a NUL reached the
    query of the setup endpoints' slug field (a 500 from PostgreSQL)."""
    client = APIClient()
    client.force_authenticate(cup.admin)
    response = client.post(
        "/api/v1/stages", {"name": "S", "kind": "round_robin", "competition": "a\x00b"}, format="json"
    )
    assert response.status_code == 400, response.content[:300]
    assert "competition" in response.json()["error"]["details"]
    form = client.post("/api/v1/teams", {"name": "T", "competition": "a\x00b"})
    assert form.status_code == 400, form.content[:300]
    assert "competition" in form.json()["error"]["details"]
    token = APIClient().post("/api/v1/auth/token", {"username": "x\x00", "password": "y"})
    assert token.status_code == 400 and "username" in token.json()["error"]["details"]

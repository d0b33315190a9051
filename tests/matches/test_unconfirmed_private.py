"""Nothing about a result awaiting confirmation is public: its turn log (the match-logs API, the
matches API, the match page's replay and replay.json), the live scorer's document after full
time (live.json and its cached document, the sessions API), and the exports (CSV,
iCalendar, the fixtures API) follow the audit trail's rule. The fixture's two clubs and staff
still see it all; once the result counts, everyone does.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from matches.models import MatchLog
from matches.services import result_confirm, result_submit
from matches.simulation import fixture_simulate
from rules_engine.api import validate_log
from scoring import live, selectors, services
from scoring.models import ScoringSession
from tests.factories import AdminFactory, CompetitionFactory, UserFactory, team_with_member
from tests.scoring.helpers import make_fixture, play
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.selectors import team_fixtures_in_order
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def submitted(django_capture_on_commit_callbacks) -> dict[str, Any]:
    """A fixture whose home club submitted a score with a turn log the engine accepted."""
    competition = CompetitionFactory(status="active")
    teams = [team_with_member(competition, n) for n in ("Blues", "Yellows", "Reds")]
    stage = stage_create(
        competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[t for t, _ in teams]
    )
    fixture_generate(stage=stage)
    fixture = team_fixtures_in_order(team=teams[0][0])[0]
    users = {t.id: u for t, u in teams}
    log = fixture_simulate(fixture=fixture).log
    report = validate_log(log)
    assert report.result is not None
    score = report.result.to_dict()["score"]
    with django_capture_on_commit_callbacks(execute=True):
        result_submit(
            fixture_id=fixture.id,
            user=users[fixture.home_team_id],
            score=Score(score["home"], score["away"]),
            turn_log=log,
        )
    outsider = next(u for t, u in teams if t.id not in (fixture.home_team_id, fixture.away_team_id))
    return {
        "fixture": Fixture.objects.get(id=fixture.id),
        "home": users[fixture.home_team_id],
        "away": users[fixture.away_team_id],
        "outsider": outsider,
        "staff": AdminFactory(),
        "score": (score["home"], score["away"]),
    }


def _api(user: Any) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def _page(user: Any) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _sees_the_log(fixture: Fixture, user: Any) -> dict[str, bool]:
    api, page = _api(user), _page(user)
    log = MatchLog.objects.get(fixture=fixture)
    base = f"/c/{fixture.competition.slug}/matches/{fixture.pk}/"
    listed = api.get("/api/v1/match-logs", {"fixture": fixture.pk}).json()["results"]
    return {
        "match-logs": bool(listed),
        "match-log": api.get(f"/api/v1/match-logs/{log.pk}").status_code == 200,
        "matches": bool(api.get(f"/api/v1/matches/{fixture.pk}").json()["logs"]),
        "replay.json": page.get(base + "replay.json").status_code == 200,
        "match page": b'id="replay"' in page.get(base).content,
    }


def test_the_log_of_a_result_awaiting_confirmation_is_for_the_clubs_and_staff(submitted) -> None:
    fixture = submitted["fixture"]
    assert fixture.status == Fixture.Status.SUBMITTED
    for who in ("home", "away", "staff"):
        assert all(_sees_the_log(fixture, submitted[who]).values()), who
    for user in (None, UserFactory(), submitted["outsider"]):
        assert not any(_sees_the_log(fixture, user).values()), user
    result_confirm(fixture_id=fixture.id, user=submitted["away"])
    assert all(_sees_the_log(fixture, None).values())


def test_the_exports_show_no_unconfirmed_score(submitted) -> None:
    fixture = submitted["fixture"]
    slug = fixture.competition.slug
    csv_rows = list(csv.reader(io.StringIO(_page(None).get(f"/c/{slug}/fixtures.csv").content.decode())))
    header = csv_rows[0]
    (row,) = [r for r in csv_rows[1:] if r[0] == str(fixture.pk)]
    assert row[header.index("home_goals")] == row[header.index("away_goals")] == ""
    api = _api(None).get(f"/api/v1/fixtures/{fixture.pk}").json()
    assert api["result"] is None, api
    assert _api(None).get(f"/api/v1/matches/{fixture.pk}").json()["full_result"] is None
    home, away = submitted["score"]
    ics = _page(None).get(f"/c/{slug}/fixtures.ics").content.decode()
    assert f"{home}–{away}" not in ics and f"{home}-{away}" not in ics


def _live(session_id: int, user: Any) -> int:
    return _page(user).get(f"/score/{session_id}/live.json").status_code


def _cached_for_spectators(session_id: int) -> bool:
    """Whether the session's current live document is in the cache that every poll shares."""
    version = selectors.current_version(session_id=session_id)
    return version is not None and cache.get(live.live_key(session_id, version)) is not None


def test_the_live_document_after_full_time_is_for_the_clubs_and_staff(settings) -> None:
    s = make_fixture()
    staff = AdminFactory()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    state = play(session.id, {"home": s.home_user, "away": s.home_user}, until=6)
    # While the match is played, everyone follows it, from the document cached for its version.
    assert _live(session.id, None) == 200 and _cached_for_spectators(session.id)
    state = play(session.id, {"home": s.home_user, "away": s.home_user})
    assert state["status"] == ScoringSession.Status.FULL_TIME
    assert _live(session.id, s.home_user) == 200
    assert not _cached_for_spectators(session.id), "the full-time document is not cached"
    for user in (None, s.other_user, UserFactory()):
        assert _live(session.id, user) == 403
        assert _api(user).get(f"/api/v1/scoring-sessions/{session.id}").status_code == 403
        assert _api(user).get(f"/api/v1/scoring-sessions/{session.id}/log").status_code == 403
    for user in (s.home_user, s.away_user, staff):
        assert _live(session.id, user) == 200
        assert _api(user).get(f"/api/v1/scoring-sessions/{session.id}").status_code == 200
        assert _api(user).get(f"/api/v1/scoring-sessions/{session.id}/log").status_code == 200
    # One club scored: its confirmation submits the result, which the opponent confirms as usual.
    done = services.session_confirm(session_id=session.id, user=s.home_user)
    assert done.status == ScoringSession.Status.SUBMITTED
    assert _live(session.id, None) == 403
    result_confirm(fixture_id=s.fixture.id, user=s.away_user)
    assert _live(session.id, None) == 200
    assert _api(None).get(f"/api/v1/scoring-sessions/{session.id}").status_code == 200
    assert _api(None).get(f"/api/v1/scoring-sessions/{session.id}/log").status_code == 200

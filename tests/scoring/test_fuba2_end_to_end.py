"""A FUBA 2 competition (rulebook 2.0, ruleset ``fuba-2``) runs end to end (issue 24, point 4): a
match scored live through the scorer's API, a club's turn log validated by the FUBA 2 engine, a
forfeit simulated by the FUBA 2 engine; the replay and the narration read the FUBA 2 log."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from matches.forfeits import forfeit_declare
from matches.models import MatchLog, Result, ResultSubmission
from matches.replay import replay_frames
from matches.services import result_confirm, result_submit
from matches.simulation import fixture_simulate
from matches.standings.selectors import standings_table
from rules_engine.api import validate_log
from scoring.models import ScoringSession
from tests.factories import member_of, team_with_member
from tests.scoring.helpers import tap_body
from tournaments.bracket import Score
from tournaments.game_systems import FUBA_2
from tournaments.models import Fixture, Stage
from tournaments.selectors import team_fixtures_in_order
from tournaments.services.competitions import competition_create
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = pytest.mark.django_db
_ids = itertools.count(1)


@pytest.fixture
def league() -> dict[str, Any]:
    competition = competition_create(
        name="Old Rules League", slug="old-rules", game_system=FUBA_2, advanced_rules=["A1", "A2", "A3", "A6"]
    )
    teams = {}
    for name, formation, styles in (
        ("Heidi", "4-4-2", {"midfield": "aggressive"}),
        ("Otto", "4-5-1", {"defence": "easy"}),
        ("Anna", "3-5-2", {}),
    ):
        team, user = team_with_member(competition, name, default_formation=formation, playing_styles=styles)
        teams[name] = (team, user)
    stage = stage_create(
        competition=competition,
        name="League",
        kind=Stage.Kind.ROUND_ROBIN,
        teams=[t for t, _ in teams.values()],
    )
    fixture_generate(stage=stage)
    fixtures = list(Fixture.objects.filter(stage=stage).order_by("match_number"))
    return {"competition": competition, "stage": stage, "teams": teams, "fixtures": fixtures}


def _client(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _answer(state: dict[str, Any]) -> dict[str, Any]:
    pending = state["pending"]
    if pending["kind"] == "roll":
        return {"roll_for_me": True}
    choice = pending["default"] if pending.get("default") is not None else pending["options"][0]["value"]
    return {"event": {"decide": pending["name"], "by": pending["actor"], "choice": choice}}


def _score_through_the_api(fixture: Fixture) -> dict[str, Any]:
    home = _client(member_of(fixture.home_team))
    away = _client(member_of(fixture.away_team))
    response = home.post("/api/v1/scoring-sessions", {"fixture": fixture.id, "app_dice": True}, format="json")
    assert response.status_code == 201, response.json()
    state = response.json()
    session = state["session"]
    header = ScoringSession.objects.get(id=session).header
    assert header["ruleset"] == "fuba-2" and header["teams"]["home"]["styles"]["midfield"] == "aggressive"
    questions = set()
    while state["pending"] is not None:
        questions.add(state["pending"]["text"])
        client = away if state["pending"]["actor"] == "away" else home
        body = tap_body(state, {"client_id": f"e{next(_ids)}", **_answer(state)})
        response = client.post(f"/api/v1/scoring-sessions/{session}/events", body, format="json")
        assert response.status_code in (200, 201), response.json()
        state = response.json()["state"]
    # every question in words: no engine name ("movement_option") reaches the players
    assert not [q for q in questions if "_" in q]
    for client in (home, away):
        assert client.post(f"/api/v1/scoring-sessions/{session}/finish", {}, format="json").status_code == 200
    return state


def test_a_fuba_2_match_scored_through_the_scorer_counts(league: dict[str, Any]) -> None:
    fixture = league["fixtures"][0]
    state = _score_through_the_api(fixture)
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.CONFIRMED
    submission = ResultSubmission.objects.get(fixture=fixture)
    assert submission.validation_status == ResultSubmission.Validation.VALID
    assert submission.turn_log["ruleset"] == "fuba-2"
    score = state["result"]["score"]
    assert (fixture.result.home_goals, fixture.result.away_goals) == (score["home"], score["away"])
    # the replay of the match reads the FUBA 2 log, in words
    doc = replay_frames(submission.turn_log)
    assert doc["error"] is None and doc["finished"] and doc["frames"]
    assert all(" movement_option" not in line["text"] for line in doc["feed"])
    assert Client().get(f"/c/old-rules/matches/{fixture.id}/").status_code == 200
    assert Client().get(f"/c/old-rules/matches/{fixture.id}/replay.json").status_code == 200


def test_a_club_log_and_a_forfeit_of_a_fuba_2_league(
    league: dict[str, Any], django_capture_on_commit_callbacks
) -> None:
    first, second = league["fixtures"][1], league["fixtures"][2]
    # a club reports with the log of the match it played (the FUBA 2 engine wrote it here)
    log = fixture_simulate(fixture=first, seed=5).log
    report = validate_log(log)
    assert report.valid and report.result is not None
    score = report.result.to_dict()["score"]
    with django_capture_on_commit_callbacks(execute=True):
        result_submit(
            fixture_id=first.id,
            user=member_of(first.home_team),
            score=Score(score["home"], score["away"]),
            turn_log=log,
        )
    submission = ResultSubmission.objects.get(fixture=first)
    assert submission.validation_status == ResultSubmission.Validation.VALID, submission.validation_errors
    result_confirm(fixture_id=first.id, user=member_of(first.away_team))
    # the other fixture is given up: the competition simulates it with the FUBA 2 engine
    with django_capture_on_commit_callbacks(execute=True):
        forfeit_declare(fixture_id=second.id, user=member_of(second.away_team))
    simulated = Result.objects.get(fixture=second)
    assert simulated.source == Result.Source.SIMULATED
    stored = MatchLog.objects.filter(fixture=second).first()
    assert stored is not None and stored.is_simulated and stored.data["ruleset"] == "fuba-2"
    assert validate_log(stored.data).valid
    table = standings_table(stage=league["stage"])
    assert sum(row.played for row in table) == 4
    assert team_fixtures_in_order(team=first.home_team)

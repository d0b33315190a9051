"""Results workflow: submit, confirm, dispute, resolve, override, audit trail, concurrency."""

from __future__ import annotations

import threading

import pytest
from django.db import IntegrityError, connection

from kernel.errors import ApplicationError, Conflict, PermissionDenied
from matches.models import Result, ResultAudit, ResultSubmission
from matches.services import (
    result_confirm,
    result_dispute,
    result_override,
    result_record_system,
    result_resolve,
    result_submit,
)
from matches.standings.selectors import standings_table
from tests.factories import AdminFactory, CompetitionFactory, UserFactory, play, team_with_member
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create


@pytest.fixture
def league(db: None) -> dict[str, object]:
    competition = CompetitionFactory()
    home, home_user = team_with_member(competition, "Home")
    away, away_user = team_with_member(competition, "Away")
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    if fixture.home_team != home:
        home, away, home_user, away_user = away, home, away_user, home_user
    return {
        "stage": stage,
        "fixture": fixture,
        "home": home,
        "away": away,
        "home_user": home_user,
        "away_user": away_user,
        "admin": AdminFactory(),
    }


def _actions(fixture: Fixture) -> list[str]:
    return list(ResultAudit.objects.filter(fixture=fixture).values_list("action", flat=True))


def test_submit_then_confirm_makes_the_result_count(league: dict) -> None:
    fixture = league["fixture"]
    result_submit(fixture_id=fixture.id, user=league["home_user"], score=Score(2, 1))
    assert Fixture.objects.get(id=fixture.id).status == Fixture.Status.SUBMITTED
    assert all(r.played == 0 for r in standings_table(stage=league["stage"])), (
        "a submission does not count yet"
    )

    result = result_confirm(fixture_id=fixture.id, user=league["away_user"])

    assert (result.home_goals, result.away_goals, result.source) == (2, 1, Result.Source.CLUBS)
    assert not result.is_simulated
    assert Fixture.objects.get(id=fixture.id).status == Fixture.Status.CONFIRMED
    assert standings_table(stage=league["stage"])[0].team == league["home"].id
    assert _actions(fixture) == ["submit", "confirm"]
    confirm = ResultAudit.objects.get(fixture=fixture, action="confirm")
    assert confirm.actor == league["away_user"]
    assert confirm.before["result"] is None and confirm.after["result"]["home_goals"] == 2


def test_only_the_clubs_of_the_fixture_act_and_only_the_opponent_confirms(league: dict) -> None:
    fixture = league["fixture"]
    with pytest.raises(PermissionDenied, match="only a member"):
        result_submit(fixture_id=fixture.id, user=UserFactory(), score=Score(1, 0))
    result_submit(fixture_id=fixture.id, user=league["home_user"], score=Score(1, 0))
    with pytest.raises(PermissionDenied, match="only the opponent"):
        result_confirm(fixture_id=fixture.id, user=league["home_user"])
    with pytest.raises(Conflict, match="confirm or dispute"):
        result_submit(fixture_id=fixture.id, user=league["away_user"], score=Score(0, 0))
    # The submitting club may correct its own submission before the opponent answers, explicitly.
    with pytest.raises(Conflict, match="Replace that report explicitly"):
        result_submit(fixture_id=fixture.id, user=league["home_user"], score=Score(3, 0))
    result_submit(fixture_id=fixture.id, user=league["home_user"], score=Score(3, 0), replace=True)
    statuses = sorted(ResultSubmission.objects.filter(fixture=fixture).values_list("status", flat=True))
    assert statuses == ["open", "superseded"]
    assert result_confirm(fixture_id=fixture.id, user=league["away_user"]).home_goals == 3
    with pytest.raises(Conflict, match="already counts"):
        result_submit(fixture_id=fixture.id, user=league["home_user"], score=Score(0, 0))


def test_dispute_then_admin_resolves_with_an_audit_trail(league: dict) -> None:
    fixture = league["fixture"]
    result_submit(fixture_id=fixture.id, user=league["home_user"], score=Score(2, 0))
    with pytest.raises(ApplicationError, match="say why"):
        result_dispute(fixture_id=fixture.id, user=league["away_user"], reason="  ")
    result_dispute(fixture_id=fixture.id, user=league["away_user"], reason="It ended 1-1")
    assert Fixture.objects.get(id=fixture.id).status == Fixture.Status.DISPUTED
    with pytest.raises(Conflict, match="disputed"):
        result_submit(fixture_id=fixture.id, user=league["home_user"], score=Score(2, 0))
    with pytest.raises(PermissionDenied):
        result_resolve(fixture_id=fixture.id, user=league["home_user"], score=Score(1, 1))

    result = result_resolve(
        fixture_id=fixture.id, user=league["admin"], score=Score(1, 1), note="photo of the board"
    )

    assert (result.home_goals, result.away_goals, result.source) == (1, 1, Result.Source.ADMIN)
    assert _actions(fixture) == ["submit", "dispute", "resolve"]
    resolve = ResultAudit.objects.get(fixture=fixture, action="resolve")
    assert resolve.actor == league["admin"] and resolve.note == "photo of the board"
    assert resolve.before == {"status": "disputed", "result": None}
    assert resolve.after["result"]["source"] == "admin"


def test_admin_override_records_before_and_after(league: dict) -> None:
    fixture = league["fixture"]
    play(fixture.id, 1, 0, cards=[{"team": "away", "kind": "yellow"}])
    with pytest.raises(ApplicationError, match="needs a note"):
        result_override(fixture_id=fixture.id, user=league["admin"], score=Score(0, 3))
    with pytest.raises(PermissionDenied):
        result_override(fixture_id=fixture.id, user=league["home_user"], score=Score(0, 3), note="x")

    result_override(fixture_id=fixture.id, user=league["admin"], score=Score(0, 3), note="ineligible")

    entry = ResultAudit.objects.get(fixture=fixture, action="override")
    assert (
        entry.before["result"]["home_goals"] == 1 and entry.before["result"]["cards"][0]["kind"] == "yellow"
    )
    assert entry.after["result"]["away_goals"] == 3 and entry.after["result"]["cards"] == []
    assert Result.objects.filter(fixture=fixture).count() == 1
    assert standings_table(stage=league["stage"])[0].team == league["away"].id


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"home_goals": -1, "away_goals": 0}, "home_goals must be a whole number"),
        ({"home_goals": True, "away_goals": 0}, "home_goals must be a whole number"),
        ({"home_goals": "2", "away_goals": 0}, "home_goals must be a whole number"),
        (
            {"home_goals": 1, "away_goals": 0, "cards": [{"team": "home", "kind": "blue"}]},
            "kind must be one of",
        ),
        (
            {"home_goals": 1, "away_goals": 0, "cards": [{"team": "left", "kind": "yellow"}]},
            "'home' or 'away'",
        ),
        ({"home_goals": 1, "away_goals": 0, "cards": ["yellow"]}, "must be an object"),
        ({"home_goals": 1, "away_goals": 1, "home_penalties": 4, "away_penalties": 2}, "knockout ties only"),
    ],
)
def test_bad_input_is_refused_without_writing_anything(league: dict, kwargs: dict, message: str) -> None:
    fixture = league["fixture"]
    with pytest.raises(ApplicationError, match=message):
        goals = {k: kwargs.pop(k) for k in [*kwargs] if k != "cards"}
        result_submit(fixture_id=fixture.id, user=league["home_user"], score=Score(**goals), **kwargs)
    assert not ResultSubmission.objects.exists()
    assert not ResultAudit.objects.exists()
    assert Fixture.objects.get(id=fixture.id).status == Fixture.Status.SCHEDULED


def test_a_fixture_cannot_have_two_results_at_database_level(league: dict) -> None:
    fixture = league["fixture"]
    Result.objects.create(fixture=fixture, home_goals=1, away_goals=0, source=Result.Source.ADMIN)
    with pytest.raises(IntegrityError):
        Result.objects.create(fixture=fixture, home_goals=0, away_goals=1, source=Result.Source.ADMIN)


def test_simulated_results_need_the_fixture_claimed_first(league: dict) -> None:
    fixture = league["fixture"]
    with pytest.raises(Conflict, match="expected one of"):
        result_record_system(fixture_id=fixture.id, source=Result.Source.SIMULATED, score=Score(1, 1))
    claimed = Fixture.objects.filter(id=fixture.id, status__in=Fixture.OPEN_STATUSES).update(
        status=Fixture.Status.SIMULATING
    )
    assert claimed == 1
    result = result_record_system(
        fixture_id=fixture.id,
        source=Result.Source.SIMULATED,
        score=Score(1, 1),
        match_log={"format": "fuba-log/1", "events": []},
        seed=42,
    )
    assert result.is_simulated
    fixture.refresh_from_db()
    assert fixture.status == Fixture.Status.SIMULATED and fixture.is_counted
    assert fixture.match_logs.get().seed == 42
    assert _actions(fixture) == ["simulate"]
    with pytest.raises(Conflict):
        result_record_system(fixture_id=fixture.id, source=Result.Source.SIMULATED, score=Score(0, 0))


@pytest.mark.django_db(transaction=True)
def test_concurrent_submissions_and_confirmations_never_produce_two_results() -> None:
    competition = CompetitionFactory()
    home, home_user = team_with_member(competition, "H")
    away, away_user = team_with_member(competition, "A")
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    users = {fixture.home_team_id: home_user, fixture.away_team_id: away_user}
    first, second = users[fixture.home_team_id], users[fixture.away_team_id]

    def race(calls: list) -> list[object]:
        barrier = threading.Barrier(len(calls))
        outcomes: list[object] = [None] * len(calls)

        def run(i: int) -> None:
            try:
                barrier.wait()
                outcomes[i] = calls[i]()
            except Exception as exc:  # noqa: BLE001 - the outcome under test
                outcomes[i] = exc
            finally:
                connection.close()

        threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return outcomes

    outcomes = race(
        [
            lambda: result_submit(fixture_id=fixture.id, user=first, score=Score(1, 0)).submission,
            lambda: result_submit(fixture_id=fixture.id, user=second, score=Score(0, 1)).submission,
        ]
    )
    assert sum(isinstance(o, ResultSubmission) for o in outcomes) == 1
    assert sum(isinstance(o, Conflict) for o in outcomes) == 1
    submitted = ResultSubmission.objects.get(status="open")
    confirmer = second if submitted.submitted_by == first else first

    outcomes = race([lambda: result_confirm(fixture_id=fixture.id, user=confirmer)] * 3)
    assert sum(isinstance(o, Result) for o in outcomes) == 1
    assert sum(isinstance(o, Conflict) for o in outcomes) == 2
    assert Result.objects.filter(fixture=fixture).count() == 1


def test_selectors_list_what_awaits_the_opponent_and_the_audit_trail(league: dict) -> None:
    from matches.selectors import audit_trail, result_for_fixture, submissions_awaiting_user

    fixture = league["fixture"]
    submission = result_submit(fixture_id=fixture.id, user=league["home_user"], score=Score(1, 1)).submission
    assert list(submissions_awaiting_user(user=league["away_user"])) == [submission]
    assert not submissions_awaiting_user(user=league["home_user"]).exists()
    assert result_for_fixture(fixture=fixture) is None
    result_confirm(fixture_id=fixture.id, user=league["away_user"])
    fixture.refresh_from_db()
    assert str(result_for_fixture(fixture=fixture)) == "1-1"
    assert [e.action for e in audit_trail(fixture=fixture)] == ["submit", "confirm"]

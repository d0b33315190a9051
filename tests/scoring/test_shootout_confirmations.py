"""The shoot-out score of a level knockout tie at full time (I-38, I-42) when both clubs scored the
match: each club's confirmation gives it, the first club's is stored with who gave it and offered to
the other club, a differing score is refused with a 409 naming both (nothing written) until the
first club corrects its own, and the result submitted carries the agreed score and who gave it."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from kernel.errors import ApplicationError, Conflict
from matches.models import ResultAudit, ResultSubmission
from scoring import services
from scoring.models import ScoringSession
from scoring.selectors import session_get, session_state
from tests.scoring.helpers import level_knockout_at_full_time, undo
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def _finish(user: Any, session_id: int, body: dict[str, Any]) -> Any:
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/v1/scoring-sessions/{session_id}/finish", body, format="json")


def _unchanged(session: ScoringSession, before: ScoringSession) -> None:
    """Nothing of the session, the fixture or the results workflow moved."""
    now = session_get(session_id=session.id)
    fields = ("version", "status", "home_confirmed_by_id", "away_confirmed_by_id", "shootout_home",
              "shootout_away", "shootout_side", "shootout_by_id", "submission_id")  # fmt: skip
    assert [getattr(now, f) for f in fields] == [getattr(before, f) for f in fields]
    assert not ResultSubmission.objects.filter(fixture_id=session.fixture_id).exists()
    assert Fixture.objects.get(id=session.fixture_id).status == Fixture.Status.SCHEDULED


def test_the_first_clubs_score_is_offered_to_the_other_and_both_agree() -> None:
    session, users = level_knockout_at_full_time()
    state = session_state(session)
    assert state["shootout"] is True and state["shootout_score"] is None
    home, away = session.fixture.home_team.name, session.fixture.away_team.name

    first = services.session_confirm(
        session_id=session.id, user=users["away"], home_penalties=4, away_penalties=5
    )
    assert first.status == ScoringSession.Status.FULL_TIME and first.submission_id is None
    offered = session_state(session_get(session_id=session.id))
    assert offered["shootout_score"] == {"home": 4, "away": 5, "side": "away"}
    assert offered["confirmations"] == {"home": False, "away": True}
    # the same confirmation sent again (a resend) changes nothing
    again = services.session_confirm(
        session_id=session.id, user=users["away"], home_penalties=4, away_penalties=5
    )
    assert again.version == first.version

    r = _finish(users["home"], session.id, {"home_penalties": 4, "away_penalties": 5})
    assert r.status_code == 200, r.json()
    assert r.json()["status"] == "submitted" and r.json()["shootout_score"]["side"] == "away"
    fixture = Fixture.objects.get(id=session.fixture_id)
    assert fixture.status == Fixture.Status.CONFIRMED
    assert (fixture.result.extra_time, fixture.result.home_penalties, fixture.result.away_penalties) == (
        True,
        4,
        5,
    )
    # the audit trail: the away club submitted the result with its shoot-out score, the home club
    # confirmed it, saying whose score it was
    submit = ResultAudit.objects.get(fixture=fixture, action=ResultAudit.Action.SUBMIT)
    assert submit.actor_id == users["away"].pk
    assert (submit.after["home_penalties"], submit.after["away_penalties"]) == (4, 5)
    confirm = ResultAudit.objects.get(fixture=fixture, action=ResultAudit.Action.CONFIRM)
    assert confirm.actor_id == users["home"].pk
    assert f"penalty shoot-out {home} 4–5 {away} given by {away} ({users['away'].username})" in confirm.note
    assert confirm.note.endswith(f"the same score confirmed by {home}")


def test_a_differing_score_is_refused_naming_both_until_the_first_club_corrects_its_own() -> None:
    session, users = level_knockout_at_full_time()
    home, away = session.fixture.home_team.name, session.fixture.away_team.name
    services.session_confirm(session_id=session.id, user=users["home"], home_penalties=4, away_penalties=2)
    before = session_get(session_id=session.id)

    r = _finish(users["away"], session.id, {"home_penalties": 2, "away_penalties": 4})
    assert r.status_code == 409, r.json()
    error = r.json()["error"]
    assert error["code"] == "shootout_mismatch"
    assert f"{home} confirmed the penalty shoot-out as {home} 4–2 {away}" in error["message"]
    assert f"you gave {home} 2–4 {away}" in error["message"]
    assert error["details"]["shootout"] == {
        "confirmed": {"home_penalties": 4, "away_penalties": 2},
        "confirmed_by": "home",
        "given": {"home_penalties": 2, "away_penalties": 4},
    }
    _unchanged(session, before)

    # the home club finds it had the kicks the wrong way round: it confirms again with the right score
    corrected = services.session_confirm(
        session_id=session.id, user=users["home"], home_penalties=2, away_penalties=4
    )
    assert corrected.version == before.version + 1 and corrected.status == ScoringSession.Status.FULL_TIME
    assert session_state(corrected)["shootout_score"] == {"home": 2, "away": 4, "side": "home"}
    # the away club may not overwrite the home club's word either way round
    with pytest.raises(Conflict, match="2–4"):
        services.session_confirm(
            session_id=session.id, user=users["away"], home_penalties=4, away_penalties=2
        )
    done = services.session_confirm(
        session_id=session.id, user=users["away"], home_penalties=2, away_penalties=4
    )
    assert done.status == ScoringSession.Status.SUBMITTED
    fixture = Fixture.objects.get(id=session.fixture_id)
    assert (fixture.result.home_penalties, fixture.result.away_penalties) == (2, 4)
    submit = ResultAudit.objects.get(fixture=fixture, action=ResultAudit.Action.SUBMIT)
    assert submit.actor_id == users["home"].pk and submit.after["away_penalties"] == 4


def test_a_missing_or_impossible_shootout_score_is_refused_and_an_undo_clears_the_given_one() -> None:
    session, users = level_knockout_at_full_time()
    before = session_get(session_id=session.id)
    r = _finish(users["home"], session.id, {})
    assert r.status_code == 400, r.json()
    error = r.json()["error"]
    assert "give the penalty shoot-out score (home_penalties and away_penalties)" in error["message"]
    assert set(error["details"]) == {"home_penalties", "away_penalties"}
    r = _finish(users["home"], session.id, {"home_penalties": 3})
    assert r.status_code == 400 and set(r.json()["error"]["details"]) == {"away_penalties"}
    for pens, why in (((3, 3), "cannot end level"), ((7, 2), "cannot end 7-2")):
        with pytest.raises(ApplicationError, match=why):
            services.session_confirm(
                session_id=session.id, user=users["home"], home_penalties=pens[0], away_penalties=pens[1]
            )
    _unchanged(session, before)

    services.session_confirm(session_id=session.id, user=users["home"], home_penalties=5, away_penalties=4)
    undone = undo(session.id, users["away"])
    assert undone.status == ScoringSession.Status.LIVE
    assert (undone.shootout_home, undone.shootout_side, undone.home_confirmed_by_id) == (None, "", None)
    assert session_state(undone)["shootout_score"] is None


def test_one_club_scoring_gives_the_shootout_score_with_its_confirmation() -> None:
    session, users = level_knockout_at_full_time(sides=("home",))
    with pytest.raises(ApplicationError, match="home_penalties and away_penalties"):
        services.session_confirm(session_id=session.id, user=users["home"])
    done = services.session_confirm(
        session_id=session.id, user=users["home"], home_penalties=3, away_penalties=1
    )
    assert done.status == ScoringSession.Status.SUBMITTED
    fixture = Fixture.objects.get(id=session.fixture_id)
    assert fixture.status == Fixture.Status.SUBMITTED  # the other club confirms on the match page
    submission = ResultSubmission.objects.get(id=done.submission_id)
    assert (submission.home_penalties, submission.away_penalties, submission.submitted_by_id) == (
        3, 1, users["home"].pk,
    )  # fmt: skip

"""App dice need both clubs: one club chooses, the other agrees or says no (docs/scorer.md).

Before the first event one club's choice stands at once and the other club's "we type our dice"
turns it off; from the first event the mode changes only when both clubs say so. Every word is on
the session's record (club, member, event, time), in the state, the admin, the log and the audit.
"""

from __future__ import annotations

import importlib

import pytest
from django.apps import apps as django_apps
from django.contrib.auth.models import Permission, User
from rest_framework.test import APIClient

from kernel.errors import PermissionDenied
from matches.models import ResultAudit, ResultSubmission
from scoring import services
from scoring.models import ScoringEvent, ScoringSession
from scoring.selectors import scored_log, session_get, session_state
from tests.scoring.helpers import make_fixture, play, tap, tap_body

pytestmark = pytest.mark.django_db

KICK_OFF = {"roll": "kick_off", "by": "both", "dice": [5, 2]}


def api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _dice(session_id: int) -> dict:
    return session_state(session_get(session_id=session_id))["dice"]


def _word(session_id: int, user, app_dice: bool) -> ScoringSession:
    return services.session_dice(session_id=session_id, user=user, app_dice=app_dice)


def _first_event(session_id: int, user) -> None:
    tap(session_id, user, {"client_id": "first", "roll_for_me": True})


def test_one_clubs_choice_stands_at_once_and_the_other_club_agrees_on_record() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user, app_dice=True)
    home = session.fixture.home_team.name
    away = session.fixture.away_team.name
    dice = _dice(session.id)
    assert dice["app_dice"] is True and dice["agreed_by"] is None
    assert dice["chosen_by"]["side"] == "home" and dice["chosen_by"]["team"] == home
    assert dice["summary"] == f"App dice: chosen by {home}; the other club has not answered yet"

    agreed = _word(session.id, s.away_user, True)
    record = agreed.dice_record
    assert [(e["what"], e["side"], e["user"]) for e in record] == [
        ("chose", "home", s.home_user.username),
        ("agreed", "away", s.away_user.username),
    ]
    assert all(e["at"] and e["seq"] == 0 for e in record)
    dice = _dice(session.id)
    assert dice["agreed_by"]["side"] == "away"
    assert dice["summary"] == f"App dice: chosen by {home}, agreed by {away}"
    # the public state names the clubs, never their members
    assert s.home_user.username not in str(dice) and "user_id" not in str(dice)

    # repeats by either club change nothing (no new entry, no new version)
    version = ScoringSession.objects.get(id=session.id).version
    for user in (s.home_user, s.away_user):
        _word(session.id, user, True)
    again = ScoringSession.objects.get(id=session.id)
    assert again.version == version and len(again.dice_record) == 2


def test_a_club_that_is_not_a_party_cannot_agree_nor_can_staff() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user, app_dice=True)
    with pytest.raises(PermissionDenied):
        _word(session.id, s.other_user, True)
    staff = User.objects.create_user("referee", is_staff=True)
    staff.user_permissions.add(Permission.objects.get(codename="change_fixture"))
    staff = User.objects.get(pk=staff.pk)
    with pytest.raises(PermissionDenied, match="two clubs choose"):
        _word(session.id, staff, True)
    assert _dice(session.id)["agreed_by"] is None
    assert len(ScoringSession.objects.get(id=session.id).dice_record) == 1


def test_we_type_our_dice_before_the_first_event_turns_app_dice_off() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user, app_dice=True)
    refused = _word(session.id, s.away_user, False)
    assert refused.app_dice is False and refused.app_dice_by == s.away_user
    assert [e["what"] for e in refused.dice_record] == ["chose", "refused"]
    assert "refused app dice before the first event" in _dice(session.id)["record"][1]["text"]
    # dice typed in are taken now
    assert tap(session.id, s.home_user, {"client_id": "t1", "event": KICK_OFF}).created
    assert not ScoringEvent.objects.get(session=session, seq=1).rolled_by_app


def test_after_the_first_event_one_club_alone_changes_nothing_both_clubs_do() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user, app_dice=True)
    _first_event(session.id, s.home_user)

    # the other club, answering late, says "we type our dice": a request, the mode stays
    asked = _word(session.id, s.away_user, False)
    assert asked.app_dice is True
    request = _dice(session.id)["request"]
    assert request["side"] == "away" and request["app_dice"] is False
    version = asked.version
    assert _word(session.id, s.away_user, False).version == version  # a repeat

    # the club that chose declines: app dice stay
    declined = _word(session.id, s.home_user, True)
    assert declined.app_dice is True and _dice(session.id)["request"] is None
    assert [e["what"] for e in declined.dice_record] == ["chose", "asked", "declined"]

    # asked again, and the other club says the same: both clubs change it, from the next event
    _word(session.id, s.away_user, False)
    changed = _word(session.id, s.home_user, False)
    assert changed.app_dice is False and changed.app_dice_by == s.home_user
    assert [e["what"] for e in changed.dice_record][-2:] == ["asked", "changed"]
    assert changed.dice_record[-1]["seq"] == 1
    dice = _dice(session.id)
    assert dice["request"] is None and dice["chosen_by"]["side"] == "away"
    assert dice["agreed_by"]["side"] == "home"


def test_a_late_agreement_is_recorded_and_changes_nothing() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.away_user, app_dice=True)
    _first_event(session.id, s.away_user)
    late = _word(session.id, s.home_user, True)
    assert late.app_dice is True and late.seq == 1
    assert [(e["what"], e["seq"]) for e in late.dice_record] == [("chose", 0), ("agreed", 1)]
    # the club that chose cannot change alone either
    assert _word(session.id, s.away_user, False).app_dice is True


def test_the_dice_word_answers_through_the_api() -> None:
    s = make_fixture()
    home, away = api(s.home_user), api(s.away_user)
    sid = home.post("/api/v1/scoring-sessions", {"fixture": s.fixture.id}, format="json").json()["session"]
    chose = home.post(f"/api/v1/scoring-sessions/{sid}/dice", {"app_dice": True}, format="json")
    assert chose.status_code == 200 and chose.json()["dice"]["chosen_by"]["side"] == "home"
    assert (
        api(s.other_user).post(f"/api/v1/scoring-sessions/{sid}/dice", {"app_dice": True}).status_code == 403
    )
    agreed = away.post(f"/api/v1/scoring-sessions/{sid}/dice", {"app_dice": True}, format="json")
    assert agreed.json()["dice"]["agreed_by"]["side"] == "away" and agreed.json()["app_dice"] is True
    # the live document carries the same
    live = home.get(f"/score/{sid}/live.json").json()
    assert live["dice"]["agreed_by"]["side"] == "away"
    rolled = home.post(
        f"/api/v1/scoring-sessions/{sid}/events",
        tap_body({"head": "", "seq": 0}, {"client_id": "a1", "roll_for_me": True}),
        format="json",
    )
    assert rolled.status_code == 201
    asked = away.post(f"/api/v1/scoring-sessions/{sid}/dice", {"app_dice": False}, format="json")
    assert asked.status_code == 200 and asked.json()["app_dice"] is True
    assert asked.json()["dice"]["request"]["side"] == "away"


def test_a_club_scoring_alone_is_on_record() -> None:
    s = make_fixture()
    alone = services.session_start(fixture_id=s.fixture.id, user=s.home_user, app_dice=True)
    play(alone.id, {"home": s.home_user, "away": s.home_user})
    done = services.session_confirm(session_id=alone.id, user=s.home_user)
    assert done.status == ScoringSession.Status.SUBMITTED
    last = done.dice_record[-1]
    assert last["what"] == "alone" and last["side"] == "home" and last["others_scored"] is False
    text = _dice(alone.id)["record"][-1]["text"]
    assert text.endswith("choice of app dice stands alone at submission: the other club did not score")
    submitted = ResultSubmission.objects.get(id=done.submission_id)
    assert submitted.turn_log["meta"]["dice"].endswith("alone (the other club never answered)")
    assert s.home_user.username not in submitted.turn_log["meta"]["dice"]
    assert scored_log(session_get(session_id=alone.id))["meta"]["dice"] == submitted.turn_log["meta"]["dice"]


def test_both_clubs_words_are_in_the_audit_of_the_confirmation() -> None:
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.away_user, app_dice=True)
    _word(session.id, s.home_user, True)
    play(session.id, {"home": s.home_user, "away": s.away_user})
    services.session_confirm(session_id=session.id, user=s.home_user)
    done = services.session_confirm(session_id=session.id, user=s.away_user)
    assert done.dice_record[-1]["what"] == "agreed"  # nothing added: both clubs agreed
    home, away = done.fixture.home_team.name, done.fixture.away_team.name
    note = ResultAudit.objects.get(fixture=done.fixture, action=ResultAudit.Action.CONFIRM).note
    # the audit trail (the clubs' and staff's) names the members too
    who = f"chosen by {away} ({s.away_user.username}), agreed by {home} ({s.home_user.username})"
    assert note.endswith(f"; app dice: {who}")


def test_a_choice_made_before_the_record_existed_is_recorded_with_its_club() -> None:
    """Migration 0006 gives a session that chose app dice before the record its first entry."""
    backfill = importlib.import_module("scoring.migrations.0006_session_dice_record").record_earlier_choices
    s = make_fixture()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user, app_dice=True)
    ScoringSession.objects.filter(id=session.id).update(dice_record=[], app_dice_by=s.away_user)
    backfill(django_apps, None)
    record = ScoringSession.objects.get(id=session.id).dice_record
    assert [(e["what"], e["side"], e["user"], e["seq"]) for e in record] == [
        ("chose", "away", s.away_user.username, 0)
    ]
    # the other club may still agree to it
    assert [e["what"] for e in _word(session.id, s.home_user, True).dice_record] == ["chose", "agreed"]

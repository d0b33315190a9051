"""A match being scored live, or with a report waiting for the opponent, tells one story: it is not
overdue, the forfeit sweep leaves it alone, and a result typed by hand is refused while it runs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from kernel.errors import Conflict
from matches import forfeits
from matches.models import Forfeit, Result
from matches.services import result_submit
from scoring import services
from tests.factories import AdminFactory
from tests.scoring.helpers import Setup, make_fixture, play
from tournaments.bracket import Score
from tournaments.models import Fixture

pytestmark = pytest.mark.django_db


def _past_deadline() -> Setup:
    s = make_fixture()
    Fixture.objects.filter(id=s.fixture.id).update(deadline=timezone.now() - timedelta(hours=2))
    s.fixture.refresh_from_db()
    return s


def _page(s: Setup, user=None) -> str:
    client = Client()
    if user is not None:
        client.force_login(user)
    url = reverse("tournaments:match", args=[s.fixture.competition.slug, s.fixture.id])
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_the_sweep_leaves_a_live_match_alone_and_simulates_it_once_abandoned(
    django_capture_on_commit_callbacks,
) -> None:
    s = _past_deadline()
    assert 'data-testid="overdue"' in _page(s)
    assert APIClient().get(f"/api/v1/fixtures/{s.fixture.id}").json()["overdue"] is True
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    assert APIClient().get(f"/api/v1/fixtures/{s.fixture.id}").json()["overdue"] is False
    with django_capture_on_commit_callbacks(execute=True):
        assert forfeits.forfeits_sweep() == []
    assert Fixture.objects.get(id=s.fixture.id).status == Fixture.Status.SCHEDULED
    assert not Forfeit.objects.filter(fixture=s.fixture).exists()
    page = _page(s)
    assert 'data-testid="overdue"' not in page and "will be simulated" not in page
    assert "Being played live" in page
    listed = Client().get(reverse("tournaments:fixtures", args=[s.fixture.competition.slug])).content.decode()
    row = listed[listed.index(f'data-fixture="{s.fixture.id}"') :].split("</li>", 1)[0]
    assert 'data-testid="live-mark"' in row and 'data-testid="overdue"' not in row

    services.session_abandon(session_id=session.id, user=s.home_user, reason="the table was needed")
    with django_capture_on_commit_callbacks(execute=True):
        assert forfeits.forfeits_sweep() == [s.fixture.id]
    assert Result.objects.get(fixture=s.fixture).source == Result.Source.SIMULATED


def test_the_organisers_console_marks_a_live_match_live_not_overdue() -> None:
    s = _past_deadline()
    console = Client()
    console.force_login(AdminFactory(is_staff=True, is_superuser=True))
    slug = s.fixture.competition.slug

    def desk() -> tuple[str, str]:
        results = console.get(reverse("console:results", args=[slug])).content.decode()
        schedule = console.get(reverse("console:schedule", args=[slug])).content.decode()
        return results, schedule

    results, schedule = desk()
    assert "Needs you" in results
    assert 'data-testid="overdue"' in results and 'data-testid="overdue"' in schedule
    services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    results, schedule = desk()
    for page in (results, schedule):
        assert 'data-testid="overdue"' not in page and 'data-testid="live-mark"' in page
    assert "Needs you" not in results  # nothing for the organiser to do while it is played


def test_a_deadline_forfeit_queued_before_the_session_started_is_skipped(
    django_capture_on_commit_callbacks,
) -> None:
    s = _past_deadline()
    with django_capture_on_commit_callbacks(execute=False):
        assert forfeits.forfeits_sweep() == [s.fixture.id]
    # The clubs sit down to play before a worker takes the queued task.
    services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    assert forfeits.forfeit_process(fixture_id=s.fixture.id, task_id="late") == "nothing to do"
    assert Fixture.objects.get(id=s.fixture.id).status == Fixture.Status.SCHEDULED
    assert Forfeit.objects.get(fixture=s.fixture).state == Forfeit.State.SKIPPED


def test_a_report_waiting_for_the_opponent_is_neither_overdue_nor_simulated(
    django_capture_on_commit_callbacks,
) -> None:
    s = _past_deadline()
    result_submit(fixture_id=s.fixture.id, user=s.home_user, score=Score(1, 0))
    with django_capture_on_commit_callbacks(execute=True):
        assert forfeits.forfeits_sweep() == []
    assert Fixture.objects.get(id=s.fixture.id).status == Fixture.Status.SUBMITTED
    page = _page(s, s.away_user)
    assert 'data-testid="overdue"' not in page and "will be simulated" not in page
    assert 'data-testid="confirm"' in page


def test_a_report_typed_by_hand_during_a_live_session_is_refused_everywhere() -> None:
    s = _past_deadline()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    with pytest.raises(Conflict, match="scored live") as refused:
        result_submit(fixture_id=s.fixture.id, user=s.away_user, score=Score(0, 3))
    assert refused.value.details == {"scoring_session": session.id}

    api = APIClient()
    api.force_authenticate(s.away_user)
    response = api.post(
        f"/api/v1/fixtures/{s.fixture.id}/submit-result", {"home_goals": 0, "away_goals": 3}, format="json"
    )
    assert response.status_code == 409
    error = response.json()["error"]
    assert "scored live" in error["message"] and error["details"] == {"scoring_session": session.id}

    # The page offers the session instead of the form; a post from an open tab is refused in words.
    page = _page(s, s.away_user)
    assert 'data-testid="result-form"' not in page and 'data-testid="cannot-play"' not in page
    assert reverse("scoring:scorer", args=[session.id]) in page
    client = Client()
    client.force_login(s.away_user)
    url = reverse("tournaments:submit_result", args=[s.fixture.competition.slug, s.fixture.id])
    response = client.post(url, {"home_goals": 0, "away_goals": 3}, follow=True)
    assert "scored live" in response.content.decode()
    assert not s.fixture.submissions.exists()


def test_the_session_reports_its_own_result_at_full_time_without_overdue() -> None:
    s = _past_deadline()
    session = services.session_start(fixture_id=s.fixture.id, user=s.home_user)
    play(session.id, {"home": s.home_user, "away": s.home_user})
    page = _page(s, s.home_user)
    assert "waiting for the clubs" in page and 'data-testid="overdue"' not in page
    # Still held at full time: a hand-typed report would contradict the log.
    with pytest.raises(Conflict, match="full time"):
        result_submit(fixture_id=s.fixture.id, user=s.away_user, score=Score(5, 5))
    done = services.session_confirm(session_id=session.id, user=s.home_user)
    assert done.submission_id is not None
    assert Fixture.objects.get(id=s.fixture.id).status == Fixture.Status.SUBMITTED
    assert 'data-testid="overdue"' not in _page(s)

"""Mails over the real outbox and a real Celery worker: a reported score reaches the opponent only
(with one-tap confirm and dispute links), a counted result reaches the followers, and the mail's
one-click unsubscribe stops that kind for good."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.test import Client

from matches.services import result_override, result_submit
from notifications import kinds
from notifications.models import Delivery, Event, Follow, Preference
from tests.factories import AdminFactory, CompetitionFactory, UserFactory, team_with_member
from tests.notifications.helpers import link, mail_worker, mails_to, wait_until
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _all_sent(kind: str) -> bool:
    events = Event.objects.filter(kind=kind)
    return (
        events.exists()
        and not events.filter(fanned_out_at__isnull=True).exists()
        and not Delivery.objects.filter(event__in=events).exclude(status=Delivery.Status.SENT).exists()
    )


def test_score_to_the_opponent_result_to_followers_and_unsubscribe(real_celery: None, tmp_path: Path) -> None:
    competition = CompetitionFactory(slug="mail-cup")
    (home, home_user), (away, away_user) = (
        team_with_member(competition, "H"),
        team_with_member(competition, "A"),
    )
    follower = UserFactory(username="fan")
    Follow.objects.create(user=follower, competition=competition)
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    Event.objects.all().delete()  # the fixtures' publication: its queued fan-out then finds nothing
    fixture = Fixture.objects.select_related("home_team", "away_team").get(id=fixture.id)
    reporter = home_user if fixture.home_team == home else away_user
    opponent = away_user if reporter is home_user else home_user

    worker = mail_worker(tmp_path)
    try:
        worker.wait_ready()
        result_submit(fixture_id=fixture.id, user=reporter, score=Score(2, 1))
        (mail,) = wait_until(lambda: mails_to(tmp_path, opponent.email), "the opponent's mail", worker)
        wait_until(lambda: _all_sent(kinds.SCORE_REPORTED), "every score delivery sent", worker)
        assert mail["Subject"].startswith("[FUBA] Confirm the score")
        assert mail["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        # Not to the club that reported it, and nothing public before the result counts.
        assert mails_to(tmp_path, reporter.email) == []
        assert mails_to(tmp_path, follower.email) == []

        # One tap: the link opens a page that asks (a GET changes nothing), its button confirms.
        confirm = link(mail, "Confirm with one tap")
        client = Client()
        assert client.get(confirm).status_code == 200
        fixture.refresh_from_db()
        assert fixture.status == Fixture.Status.SUBMITTED
        assert "Confirmed" in client.post(confirm).content.decode()
        fixture.refresh_from_db()
        assert fixture.status == Fixture.Status.CONFIRMED

        (result_mail,) = wait_until(
            lambda: mails_to(tmp_path, follower.email), "the follower's result mail", worker
        )
        assert "2-1" in result_mail["Subject"]
        # One-click unsubscribe as a mail client does it: a POST to the List-Unsubscribe address.
        address = (
            "".join(result_mail["List-Unsubscribe"].split()).strip("<>").removeprefix("http://testserver")
        )
        assert Client().post(address).status_code == 200
        assert kinds.EMAIL not in Preference.objects.get(user=follower).channels[kinds.RESULT_COUNTS]

        # A corrected result is told again: to the clubs, no more to the follower.
        result_override(
            fixture_id=fixture.id, user=AdminFactory(is_superuser=True), score=Score(3, 1), note="typo"
        )
        wait_until(
            lambda: len(mails_to(tmp_path, reporter.email)) == 2, "the clubs' second result mail", worker
        )
        wait_until(lambda: _all_sent(kinds.RESULT_COUNTS), "every result delivery sent", worker)
        assert len(mails_to(tmp_path, follower.email)) == 1
    finally:
        worker.stop()

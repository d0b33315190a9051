"""Without a worker: a score waiting for a digest user's confirmation is mailed at once (its links
working) while every other kind waits for the digest; a phone paused for NOTIFY_PUSH_PAUSED_DAYS
is deleted by the sweep, once, and a phone another sweep holds is left to it."""

from __future__ import annotations

import re
import threading
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.db import connection, transaction
from django.test import Client, override_settings
from django.utils import timezone

from matches.services import result_submit
from notifications import delivery, kinds, outbox, services
from notifications.messages import render
from notifications.models import Delivery, Event, Preference, PushSubscription
from tests.factories import CompetitionFactory, team_with_member
from tournaments.bracket import Score
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

KEYS = {"p256dh": "BP" + "k" * 85, "auth": "a" * 22}


def _nothing(*args: Any) -> None:
    return None


def _clubs() -> dict[str, Any]:
    competition = CompetitionFactory(slug="digest-cup")
    (home, home_user), (away, away_user) = (
        team_with_member(competition, "H"),
        team_with_member(competition, "A"),
    )
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    Event.objects.all().delete()
    fixture = Fixture.objects.select_related("home_team", "away_team").get(id=fixture.id)
    reporter, opponent = (home_user, away_user) if fixture.home_team == home else (away_user, home_user)
    return {"fixture": fixture, "reporter": reporter, "opponent": opponent}


def _fan_out() -> None:
    for event_id in Event.objects.filter(fanned_out_at__isnull=True).values_list("id", flat=True):
        delivery.fanout(event_id=event_id, enqueue=_nothing)


def _mails(kind: str) -> list[Delivery]:
    return list(Delivery.objects.filter(event__kind=kind, channel=Delivery.Channel.EMAIL))


@pytest.mark.django_db
def test_a_score_to_confirm_reaches_a_digest_user_at_once_the_rest_waits() -> None:
    s = _clubs()
    for user in (s["reporter"], s["opponent"]):
        Preference.objects.create(user=user, digest=True)
    with transaction.atomic():
        outbox.fixture_event(
            kinds.FIXTURE_MOVED, s["fixture"], key="t:moved", extra={"kickoff": "2026-12-06T15:00:00+00:00"}
        )
        outbox.fixture_event(kinds.DEADLINE_24H, s["fixture"], key="t:24h")
    result_submit(fixture_id=s["fixture"].id, user=s["reporter"], score=Score(2, 1))
    _fan_out()

    # the score: to the club asked to confirm it (never the reporting one), as a single mail now
    (score,) = _mails(kinds.SCORE_REPORTED)
    assert score.user == s["opponent"] and score.status == Delivery.Status.PENDING
    # everything else, deadlines included, is kept for the digest of both digest users
    kept = _mails(kinds.FIXTURE_MOVED) + _mails(kinds.DEADLINE_24H)
    assert len(kept) == 4 and {d.status for d in kept} == {Delivery.Status.DIGEST}

    assert delivery.deliver(delivery_id=score.pk, enqueue=_nothing) == "sent"
    (single,) = mail.outbox
    assert single.to == [s["opponent"].email] and single.subject.startswith("[FUBA] Confirm the score")
    found = re.search(r"Confirm with one tap: https?://[^/\s]+(/\S+)", single.body)
    assert found, single.body
    client = Client()
    assert "Confirmed" in client.post(found.group(1)).content.decode()
    assert Fixture.objects.get(id=s["fixture"].id).status == Fixture.Status.CONFIRMED

    # the morning's digest carries the rest, and the score only once: it was mailed already
    _fan_out()  # result_counts, now that it counts: a digest user's too
    assert {d.status for d in _mails(kinds.RESULT_COUNTS)} == {Delivery.Status.DIGEST}
    mail.outbox.clear()
    assert delivery.digest() == 2
    opponent_digest = next(m for m in mail.outbox if m.to == [s["opponent"].email])
    assert "3 notices" in opponent_digest.subject
    assert "Confirm the score" not in opponent_digest.body


@pytest.mark.django_db
def test_a_single_mail_user_gets_the_score_at_once_as_before() -> None:
    s = _clubs()
    result_submit(fixture_id=s["fixture"].id, user=s["reporter"], score=Score(0, 0))
    _fan_out()
    (score,) = _mails(kinds.SCORE_REPORTED)
    assert score.user == s["opponent"] and score.status == Delivery.Status.PENDING


def _phone(user: Any, n: int, *, paused_days: float | None = None) -> PushSubscription:
    phone = services.push_subscribe(user=user, endpoint=f"https://93.184.216.34/push/{n}", **KEYS)
    if paused_days is not None:
        delivery.pause(endpoint=phone, why="the push service says this subscription is gone")
        when = timezone.now() - timedelta(days=paused_days)
        PushSubscription.objects.filter(pk=phone.pk).update(paused_at=when)
    return phone


def _sweep() -> dict[str, int]:
    return delivery.sweep(enqueue_fanout=_nothing, enqueue=_nothing)


@pytest.mark.django_db
def test_the_sweep_deletes_phones_paused_for_the_set_days_once() -> None:
    s = _clubs()
    user = s["opponent"]
    gone = _phone(user, 1, paused_days=31)
    recent = _phone(user, 2, paused_days=29)
    active = _phone(user, 3)
    back = _phone(user, 4, paused_days=40)
    services.push_subscribe(user=user, endpoint=back.endpoint, **KEYS)  # allowed again: kept
    with transaction.atomic():
        event = outbox.fixture_event(kinds.LIVE_GOAL, s["fixture"], key="t:goal", extra={"score": "1-0"})
    assert event is not None
    Delivery.objects.create(event=event, channel=Delivery.Channel.PUSH, user=user, push=gone, status="held")

    assert _sweep()["phones_deleted"] == 1
    assert set(PushSubscription.objects.values_list("id", flat=True)) == {recent.pk, active.pk, back.pk}
    assert not Delivery.objects.filter(push_id=gone.pk).exists()
    assert _sweep()["phones_deleted"] == 0  # run again (a redelivered beat): nothing twice
    with override_settings(NOTIFY_PUSH_PAUSED_DAYS=7):
        assert delivery.prune_paused_push() == 1
    assert set(PushSubscription.objects.values_list("id", flat=True)) == {active.pk, back.pk}
    # its browser subscribing again after the deletion makes the phone anew
    services.push_subscribe(user=user, endpoint=gone.endpoint, **KEYS)
    assert PushSubscription.objects.get(endpoint=gone.endpoint).paused_at is None


@pytest.mark.django_db
def test_the_pause_mail_of_a_phone_says_when_it_is_deleted() -> None:
    s = _clubs()
    with override_settings(NOTIFY_PUSH_PAUSED_DAYS=12):
        _phone(s["opponent"], 1, paused_days=0)
    (event,) = Event.objects.filter(kind=kinds.CHANNEL_PAUSED)
    lines = render(event).lines
    assert any("within 12 days, or it is removed" in line for line in lines), lines


@pytest.mark.django_db(transaction=True)
def test_a_phone_another_sweep_holds_is_skipped_then_deleted_once() -> None:
    s = _clubs()
    phone = _phone(s["opponent"], 1, paused_days=60)
    locked, release = threading.Event(), threading.Event()

    def other_sweep() -> None:
        try:
            with transaction.atomic():
                list(PushSubscription.objects.select_for_update().filter(pk=phone.pk))
                locked.set()
                release.wait(20)
        finally:
            connection.close()

    thread = threading.Thread(target=other_sweep)
    thread.start()
    try:
        assert locked.wait(20)
        assert delivery.prune_paused_push() == 0  # claimed by the other: not waited for, not touched
        assert PushSubscription.objects.filter(pk=phone.pk).exists()
    finally:
        release.set()
        thread.join(20)
    assert delivery.prune_paused_push() == 1
    assert delivery.prune_paused_push() == 0

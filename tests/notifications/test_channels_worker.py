"""Every kind reaches every channel (mail, web push, webhook) through the real outbox and a real
Celery worker; a webhook receiver that is down for a while gets every delivery once it is back
(the ids let it drop repeats) with signatures that verify; a channel that keeps failing is paused,
its owner told, and resuming sends what was held."""

from __future__ import annotations

import base64
import json
import secrets
from pathlib import Path
from typing import Any

import http_ece
import pytest
import standardwebhooks
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.db import transaction

from notifications import kinds, outbox, services, tasks
from notifications.models import Delivery, Event, Follow, Preference, Webhook
from tests.factories import CompetitionFactory, UserFactory, team_with_member
from tests.notifications.helpers import Receiver, mail_worker, mails_to, wait_until
from tournaments.models import Fixture, Stage
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import stage_create

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


class Phone:
    """A browser's push subscription: its key pair and auth secret, to read what it is sent."""

    def __init__(self, endpoint: str) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = secrets.token_bytes(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.endpoint, self.p256dh = endpoint, _b64(public)

    def read(self, body: bytes) -> dict[str, Any]:
        plain = http_ece.decrypt(body, private_key=self.key, auth_secret=self.auth, version="aes128gcm")
        return json.loads(plain)


def _vapid_pem() -> str:
    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    ).decode()


def _setup(settings: Any) -> dict[str, Any]:
    settings.WEBHOOK_ALLOW_PRIVATE = True
    competition = CompetitionFactory(slug="channels-cup")
    (home, member), (away, _) = team_with_member(competition, "H"), team_with_member(competition, "A")
    stage = stage_create(competition=competition, name="L", kind=Stage.Kind.ROUND_ROBIN, teams=[home, away])
    (fixture,) = fixture_generate(stage=stage)
    Preference.objects.create(user=member, channels={k: ["email", "push"] for k in kinds.CHOOSABLE})
    # Only the test's own notices (the fixtures' publication is queued, and then finds no event).
    Event.objects.all().delete()
    return {"competition": competition, "home": home, "member": member, "fixture": fixture}


def _emit(kind: str, fixture: Fixture, n: int = 0) -> None:
    with transaction.atomic():
        outbox.fixture_event(kind, fixture, key=f"test:{kind}:{n}", extra={"score": "1-0"})


def _all_sent(count: int) -> bool:
    events = Event.objects.filter(key__startswith="test:")
    return (
        events.count() == count
        and not events.filter(fanned_out_at__isnull=True).exists()
        and not Delivery.objects.filter(event__in=events).exclude(status=Delivery.Status.SENT).exists()
    )


def _verified(received: list[dict[str, Any]], secret: str) -> list[dict[str, Any]]:
    hook = standardwebhooks.Webhook(secret)
    return [hook.verify(r["body"], {k.lower(): v for k, v in r["headers"].items()}) for r in received]


def test_every_kind_reaches_mail_push_and_webhooks(real_celery: None, tmp_path: Path, settings: Any) -> None:
    s = _setup(settings)
    club_hook, public_hook, push_service = Receiver(), Receiver(), Receiver()
    fan = UserFactory(username="fan")
    Follow.objects.create(user=fan, team=s["home"])
    try:
        club = services.webhook_create(
            user=s["member"], url=club_hook.url(), style="standard", club=s["home"].club, include_private=True
        )
        Webhook.objects.create(
            competition=s["competition"],
            url=public_hook.url("/discord"),
            style="discord",
            secret=services.new_secret(),
        )
        phone = Phone(push_service.url("/push/abc"))
        services.push_subscribe(
            user=s["member"], endpoint=phone.endpoint, p256dh=phone.p256dh, auth=_b64(phone.auth)
        )
        worker = mail_worker(tmp_path, WEBPUSH_VAPID_PRIVATE_KEY=_vapid_pem())
        try:
            worker.wait_ready()
            for kind in kinds.CHOOSABLE:
                _emit(kind, s["fixture"])
            wait_until(lambda: _all_sent(len(kinds.CHOOSABLE)), "every delivery sent", worker)
        finally:
            worker.stop()

        subjects = [m["Subject"] for m in mails_to(tmp_path, s["member"].email)]
        assert len(subjects) == len(kinds.CHOOSABLE)
        assert {m["X-FUBA-Kind"] for m in mails_to(tmp_path, s["member"].email)} == set(kinds.CHOOSABLE)
        # The club's webhook asked for the private notices too; every post is signed.
        payloads = _verified(club_hook.received, club.secret)
        assert sorted(p["type"] for p in payloads) == sorted(f"fuba.{k}" for k in kinds.CHOOSABLE)
        # The phone: one push per kind, encrypted for it (RFC 8291), VAPID-signed.
        assert len(push_service.received) == len(kinds.CHOOSABLE)
        auth = [
            {k.lower(): v for k, v in r["headers"].items()}["authorization"] for r in push_service.received
        ]
        assert all(a.startswith("vapid t=") for a in auth)
        pushed = [phone.read(r["body"]) for r in push_service.received]
        assert {p["kind"] for p in pushed} == set(kinds.CHOOSABLE)
        assert all(p["title"] and p["url"].startswith("http://testserver/") for p in pushed)
        # The competition's channel is public: no unconfirmed score, no dispute; Discord's form.
        posted = [json.loads(r["body"])["content"] for r in public_hook.received]
        assert len(posted) == len(kinds.CHOOSABLE) - len(kinds.PRIVATE - {kinds.CHANNEL_PAUSED})
        assert not [
            p for p in posted if p.startswith(("**Confirm the score", "**Disputed", "**Dispute resolved"))
        ]
        # The team's follower: the public kinds for followers, nothing private, no deadline.
        fan_kinds = {m["X-FUBA-Kind"] for m in mails_to(tmp_path, fan.email)}
        assert fan_kinds == {k for k in kinds.FOR_FOLLOWERS if kinds.EMAIL in kinds.DEFAULT_CHANNELS[k]}
    finally:
        for r in (club_hook, public_hook, push_service):
            r.close()


def test_a_receiver_down_for_a_while_gets_every_delivery_once_back(
    real_celery: None, tmp_path: Path, settings: Any
) -> None:
    s = _setup(settings)
    receiver = Receiver()
    receiver.status = 503
    try:
        hook = services.webhook_create(
            user=s["member"], url=receiver.url(), style="standard", club=s["home"].club
        )
        worker = mail_worker(tmp_path, NOTIFY_RETRY_BASE="0.5", NOTIFY_RETRY_MAX="1")
        try:
            worker.wait_ready()
            for n, kind in enumerate((kinds.FIXTURE_MOVED, kinds.RESULT_COUNTS, kinds.SUSPENSION)):
                _emit(kind, s["fixture"], n)
            wait_until(lambda: receiver.refused >= 9, "three failed tries of each delivery", worker)
            receiver.status = 200
            wait_until(lambda: _all_sent(3), "every delivery sent once the receiver is back", worker)
        finally:
            worker.stop()
        ids = [r["headers"]["webhook-id"] for r in receiver.received]
        # At least once: a repeat would carry the same id, so the receiver keeps one of each.
        assert len(set(ids)) == 3
        assert {p["type"] for p in _verified(receiver.received, hook.secret)} == {
            "fuba.fixture_moved",
            "fuba.result_counts",
            "fuba.suspension",
        }
        for delivery in Delivery.objects.filter(webhook=hook):
            log = list(delivery.log.all())
            assert [a.ok for a in log][-1] is True and not any(a.ok for a in log[:-1]) and len(log) >= 4
            assert f"msg_{delivery.uid.hex}" in ids
    finally:
        receiver.close()


def test_a_webhook_that_keeps_failing_is_paused_its_owner_told_and_resumed(
    real_celery: None, tmp_path: Path, settings: Any
) -> None:
    s = _setup(settings)
    receiver = Receiver()
    receiver.status = 500
    try:
        hook = services.webhook_create(
            user=s["member"], url=receiver.url(), style="slack", club=s["home"].club
        )
        worker = mail_worker(
            tmp_path, NOTIFY_RETRY_BASE="0.3", NOTIFY_RETRY_MAX="0.5", NOTIFY_PAUSE_AFTER="4"
        )
        try:
            worker.wait_ready()
            _emit(kinds.RESULT_COUNTS, s["fixture"])
            _emit(kinds.DRAW_MADE, s["fixture"], 1)
            told = wait_until(
                lambda: [
                    m for m in mails_to(tmp_path, s["member"].email) if m["X-FUBA-Kind"] == "channel_paused"
                ],
                "the owner's mail that the webhook is paused",
                worker,
            )
            hook.refresh_from_db()
            assert hook.paused_at is not None and "4 tries in a row failed" in hook.paused_reason
            assert "Paused" in told[0]["Subject"]
            assert Delivery.objects.filter(webhook=hook, status=Delivery.Status.HELD).count() == 2
            refused = receiver.refused
            _emit(kinds.ROUND_PAIRED, s["fixture"], 2)  # held at once: nothing is posted while paused
            wait_until(
                lambda: Delivery.objects.filter(webhook=hook, status=Delivery.Status.HELD).count() == 3,
                "the new notice held",
                worker,
            )
            assert receiver.refused == refused
            receiver.status = 200
            assert (
                services.webhook_resume(user=s["member"], webhook_id=hook.pk, enqueue=tasks.enqueue_delivery)
                == 3
            )
            wait_until(lambda: len(receiver.received) == 3, "the held notices sent after resuming", worker)
        finally:
            worker.stop()
        assert all(json.loads(r["body"])["text"].startswith("*") for r in receiver.received)  # Slack's form
    finally:
        receiver.close()

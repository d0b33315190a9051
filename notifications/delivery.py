"""From the outbox to the receivers: the fan-out of an event into deliveries, one delivery's
send with its claim, retries with backoff, the pause of a channel that keeps failing, the sweep
and the daily digest.

Every step claims its work with a conditional UPDATE, so a task run twice (a redelivered message,
the sweep's copy) does nothing twice; a message can still be sent twice when a worker dies after
sending and before recording it (at least once): the delivery's uid, sent with every try, lets the
receiver drop the repeat.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import User
from django.core.mail import EmailMessage
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from notifications import channels, conf, kinds, outbox, recipients, tokens
from notifications.messages import render
from notifications.models import Delivery, DeliveryAttempt, Event, Preference, PushSubscription, Webhook

logger = logging.getLogger("fubaleague.notifications")

Enqueue = Callable[[int, float | None], Any]


def fanout(*, event_id: int, enqueue: Enqueue) -> int:
    """Write the event's deliveries (once: the claim is the event's fanned_out_at) and queue them."""
    with transaction.atomic():
        claimed = Event.objects.filter(id=event_id, fanned_out_at__isnull=True).update(
            fanned_out_at=timezone.now()
        )
        if not claimed:
            return 0
        event = Event.objects.get(id=event_id)
        rows = _deliveries_for(event)
        Delivery.objects.bulk_create(rows, ignore_conflicts=True)
        ids = list(
            Delivery.objects.filter(event_id=event_id, status=Delivery.Status.PENDING).values_list(
                "id", flat=True
            )
        )
        transaction.on_commit(lambda: [enqueue(i, None) for i in ids], robust=True)
    return len(rows)


def _deliveries_for(event: Event) -> list[Delivery]:
    audience = recipients.audience(event)
    prefs = recipients.preferences(audience.users)
    phones = recipients.push_subscriptions(audience.users)
    # A user without an address gets no mail row: it could only fail, retried with backoff until
    # it gave up (a bench's result day logged hundreds of such tries)
    mailable = set(User.objects.filter(id__in=audience.users).exclude(email="").values_list("id", flat=True))
    now = timezone.now()
    rows: list[Delivery] = []
    for user_id in sorted(audience.users):
        pref = prefs.get(user_id)
        chosen = recipients.channels_of(pref, event.kind)
        if kinds.EMAIL in chosen and user_id in mailable:
            digest = pref is not None and pref.digest and event.kind not in kinds.AT_ONCE
            status = Delivery.Status.DIGEST if digest else Delivery.Status.PENDING
            rows.append(
                Delivery(
                    event=event,
                    channel=Delivery.Channel.EMAIL,
                    user_id=user_id,
                    status=status,
                    next_attempt_at=now,
                )
            )
        if kinds.PUSH in chosen:
            # A paused phone gets nothing until its browser subscribes again (services.push_subscribe
            # lifts the pause): a phone has no resume that would send held rows, so none are kept.
            for sub in phones.get(user_id, []):
                if sub.paused_at is not None:
                    continue
                rows.append(
                    Delivery(
                        event=event,
                        channel=Delivery.Channel.PUSH,
                        user_id=user_id,
                        push=sub,
                        status=Delivery.Status.PENDING,
                        next_attempt_at=now,
                    )
                )
    for hook in audience.webhooks:
        status = Delivery.Status.HELD if hook.paused_at else Delivery.Status.PENDING
        rows.append(
            Delivery(
                event=event,
                channel=Delivery.Channel.WEBHOOK,
                webhook=hook,
                status=status,
                next_attempt_at=now,
            )
        )
    return rows


def _claim(delivery_id: int) -> bool:
    now = timezone.now()
    due = Q(status=Delivery.Status.PENDING) & (Q(next_attempt_at__isnull=True) | Q(next_attempt_at__lte=now))
    stale = Q(status=Delivery.Status.SENDING, claimed_at__lt=now - timedelta(seconds=conf.claim_timeout()))
    return bool(
        Delivery.objects.filter(due | stale, id=delivery_id).update(
            status=Delivery.Status.SENDING, claimed_at=now, attempts=F("attempts") + 1
        )
    )


def deliver(*, delivery_id: int, enqueue: Enqueue) -> str:
    """Send one delivery if it is due and not held by another run; record the try."""
    if not _claim(delivery_id):
        return "not due"
    delivery = Delivery.objects.select_related("event", "user", "webhook", "push").get(id=delivery_id)
    endpoint = delivery.webhook or delivery.push
    if endpoint is not None and endpoint.paused_at is not None:
        Delivery.objects.filter(id=delivery_id, status=Delivery.Status.SENDING).update(
            status=Delivery.Status.HELD
        )
        return "held"
    event = delivery.event
    message = render(event)
    started = time.monotonic()
    if delivery.channel == Delivery.Channel.EMAIL:
        outcome = channels.send_email(delivery, event, message)
    elif delivery.push is not None:
        outcome = channels.send_push(delivery, event, message, delivery.push)
    else:
        assert delivery.webhook is not None
        outcome = channels.send_webhook(delivery, event, message, delivery.webhook)
    took = int((time.monotonic() - started) * 1000)
    DeliveryAttempt.objects.create(
        delivery=delivery,
        ok=outcome.ok,
        status_code=outcome.status_code,
        error=outcome.error,
        duration_ms=took,
    )
    if outcome.ok:
        Delivery.objects.filter(id=delivery_id).update(
            status=Delivery.Status.SENT, sent_at=timezone.now(), last_error=""
        )
        if endpoint is not None and endpoint.failures:
            type(endpoint).objects.filter(id=endpoint.pk).update(failures=0)
        return "sent"
    return _failed(delivery, endpoint, outcome, enqueue)


def _failed(
    delivery: Delivery,
    endpoint: Webhook | PushSubscription | None,
    outcome: channels.Outcome,
    enqueue: Enqueue,
) -> str:
    give_up = outcome.gone or delivery.attempts >= conf.max_attempts()
    wait = conf.backoff(delivery.attempts)
    Delivery.objects.filter(id=delivery.pk).update(
        status=Delivery.Status.FAILED if give_up else Delivery.Status.PENDING,
        next_attempt_at=None if give_up else timezone.now() + timedelta(seconds=wait),
        last_error=outcome.error,
    )
    logger.warning(
        "delivery %s (%s) failed, try %d: %s",
        delivery.uid,
        delivery.channel,
        delivery.attempts,
        outcome.error,
    )
    if endpoint is not None:
        type(endpoint).objects.filter(id=endpoint.pk).update(failures=F("failures") + 1)
        endpoint.refresh_from_db(fields=["failures"])
        if outcome.gone or endpoint.failures >= conf.pause_after():
            last = outcome.error or outcome.status_code
            why = (
                "the push service says this subscription is gone"
                if outcome.gone
                else f"{endpoint.failures} tries in a row failed; the last: {last}"
            )
            pause(endpoint=endpoint, why=why)
            return "failed, channel paused"
    if not give_up:
        enqueue(delivery.pk, wait)
    return "failed" if give_up else f"retry in {wait:.0f} s"


def _describe(endpoint: Webhook | PushSubscription) -> tuple[str, int | None, str]:
    if isinstance(endpoint, Webhook):
        owner = endpoint.competition.name if endpoint.competition_id else endpoint.club.name  # type: ignore[union-attr]
        path = f"/notifications/webhooks/{endpoint.pk}/"
        return f"the webhook of {owner} to {endpoint.url}", endpoint.created_by_id, path
    return f"web push to {endpoint.user_agent or 'a phone'}", endpoint.user_id, "/notifications/settings/"


def pause(*, endpoint: Webhook | PushSubscription, why: str) -> bool:
    """Pause a webhook or phone (once), hold its waiting deliveries and tell its owner by mail."""
    with transaction.atomic():
        now = timezone.now()
        paused = (
            type(endpoint)
            .objects.filter(id=endpoint.pk, paused_at__isnull=True)
            .update(paused_at=now, paused_reason=why[:1000])
        )
        if not paused:
            return False
        field = "webhook_id" if isinstance(endpoint, Webhook) else "push_id"
        Delivery.objects.filter(**{field: endpoint.pk}, status=Delivery.Status.PENDING).update(
            status=Delivery.Status.HELD
        )
        what, owner_id, path = _describe(endpoint)
        data: dict[str, Any] = {"what": what, "why": why, "path": path}
        if isinstance(endpoint, PushSubscription):
            data["deleted_after_days"] = conf.push_paused_days()  # prune_paused_push
        if owner_id is not None:
            outbox.emit(
                kind=kinds.CHANNEL_PAUSED,
                key=f"channel_paused:{field}:{endpoint.pk}:{now.isoformat()}",
                user_id=owner_id,
                data=data,
            )
    return True


def resume(*, endpoint: Webhook | PushSubscription, enqueue: Enqueue) -> int:
    """Send again to a paused webhook or phone: what was held goes out, oldest first."""
    field = "webhook_id" if isinstance(endpoint, Webhook) else "push_id"
    with transaction.atomic():
        type(endpoint).objects.filter(id=endpoint.pk).update(paused_at=None, paused_reason="", failures=0)
        held = list(
            Delivery.objects.filter(
                **{field: endpoint.pk}, status__in=[Delivery.Status.HELD, Delivery.Status.FAILED]
            )
            .order_by("id")
            .values_list("id", flat=True)
        )
        Delivery.objects.filter(id__in=held).update(
            status=Delivery.Status.PENDING, next_attempt_at=timezone.now(), attempts=0
        )
        transaction.on_commit(lambda: [enqueue(i, None) for i in held], robust=True)
    return len(held)


def sweep(*, enqueue_fanout: Callable[[int], Any], enqueue: Enqueue, grace: float = 30.0) -> dict[str, int]:
    """What a lost message left behind: events not fanned out, deliveries due, claims gone stale;
    and the phones paused long enough to be deleted (prune_paused_push)."""
    now = timezone.now()
    before = now - timedelta(seconds=grace)
    events = list(
        Event.objects.filter(fanned_out_at__isnull=True, created_at__lt=before).values_list("id", flat=True)[
            :500
        ]
    )
    for event_id in events:
        enqueue_fanout(event_id)
    stale = now - timedelta(seconds=conf.claim_timeout())
    due = Delivery.objects.filter(
        Q(status=Delivery.Status.PENDING, next_attempt_at__lt=before)
        | Q(status=Delivery.Status.SENDING, claimed_at__lt=stale)
    ).values_list("id", flat=True)[:2000]
    deliveries = list(due)
    for delivery_id in deliveries:
        enqueue(delivery_id, None)
    return {
        "events": len(events),
        "deliveries": len(deliveries),
        "phones_deleted": prune_paused_push(now=now),
    }


def prune_paused_push(*, now: Any = None, batch: int = 500) -> int:
    """Delete the phones paused for NOTIFY_PUSH_PAUSED_DAYS or more (gone, or kept failing) and not
    subscribed again since, with their deliveries; how many. A paused phone gets nothing and has no
    resume (its browser subscribing again makes it anew), so nothing of use is lost.

    The rows are claimed (locked, skipping those another sweep holds) and deleted in one
    transaction: two sweeps never delete twice, and a browser subscribing again meanwhile waits
    for the commit and then subscribes afresh (or, having come first, keeps its phone)."""
    cutoff = (now or timezone.now()) - timedelta(days=conf.push_paused_days())
    with transaction.atomic():
        ids = list(
            PushSubscription.objects.select_for_update(skip_locked=True)
            .filter(paused_at__lte=cutoff)
            .order_by("id")
            .values_list("id", flat=True)[:batch]
        )
        if not ids:
            return 0
        PushSubscription.objects.filter(id__in=ids).delete()
    logger.info("deleted %d push subscription(s) paused since before %s", len(ids), cutoff.isoformat())
    return len(ids)


def digest(*, now: Any = None) -> int:
    """One mail per person who chose the digest, with what was kept for it since the last one."""
    now = now or timezone.now()
    users = set(Delivery.objects.filter(status=Delivery.Status.DIGEST).values_list("user_id", flat=True))
    sent = 0
    for user in User.objects.filter(id__in=users):
        sent += _digest_for(user, now)
    return sent


def _digest_for(user: User, now: Any) -> int:
    with transaction.atomic():
        rows = list(
            Delivery.objects.select_for_update(skip_locked=True)
            .filter(user=user, status=Delivery.Status.DIGEST)
            .select_related("event")
            .order_by("created_at", "id")
        )
        if not rows or not user.email:
            return 0
        lines = []
        for row in rows:
            message = render(row.event)
            lines += [f"* {message.title}", *[f"  {line}" for line in message.lines], f"  {message.url}", ""]
        settings_url = channels.absolute("notifications:settings")
        stop_url = channels.absolute(
            "notifications:unsubscribe", tokens.unsubscribe_token(user_id=user.pk, kind=kinds.EVERY_KIND)
        )
        footer = [
            f"No more notification mails: {stop_url}",
            f"Single mails instead, or fewer kinds: {settings_url}",
        ]
        mail = EmailMessage(
            subject=f"[FUBA] Your daily digest: {len(rows)} notice{'s' if len(rows) != 1 else ''}",
            body="\n".join([*lines, "-- ", *footer]),
            to=[user.email],
            headers={
                "Message-ID": f"<digest-{rows[0].uid}@fuba-league>",
                # RFC 8058 one-click, as every single mail has: the client POSTs to the address.
                "List-Unsubscribe": f"<{stop_url}>",
                "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            },
        )
        mail.send()
        Delivery.objects.filter(id__in=[r.pk for r in rows]).update(
            status=Delivery.Status.SENT, sent_at=now, attempts=F("attempts") + 1
        )
        DeliveryAttempt.objects.bulk_create(
            [DeliveryAttempt(delivery=r, ok=True, error="in the daily digest") for r in rows]
        )
        Preference.objects.filter(user=user).update(last_digest_at=now)
    return 1

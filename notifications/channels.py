"""The three channels: a mail (Django's mail), a web push (VAPID, pywebpush) and a webhook post
(signed by the Standard Webhooks spec, or a readable message for Discord and Slack).

Each sends one delivery and says how it went; it never raises for a failed send (the caller
logs the attempt, retries later or gives up).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import requests
import standardwebhooks
from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from pywebpush import WebPushException, webpush

from kernel.errors import ApplicationError
from notifications import conf, kinds, netguard, tokens, vapid
from notifications.messages import Message
from notifications.models import Delivery, Event, PushSubscription, Webhook


@dataclass(frozen=True)
class Outcome:
    ok: bool
    status_code: int | None = None
    error: str = ""
    # The address is gone for good (a push subscription 404/410, a user without an e-mail
    # address): no retry.
    gone: bool = False


def absolute(name: str, *args: Any) -> str:
    return conf.site_url() + reverse(name, args=args)


def _act_links(delivery: Delivery, event: Event) -> list[str]:
    submission_id = event.data.get("submission_id")
    if event.kind != kinds.SCORE_REPORTED or not submission_id or delivery.user_id is None:
        return []
    links = []
    for action, words in (("confirm", "Confirm with one tap"), ("dispute", "Dispute it")):
        token = tokens.act_token(user_id=delivery.user_id, submission_id=int(submission_id), action=action)
        links.append(f"{words}: {absolute('notifications:act', token)}")
    return links


def mail_body(delivery: Delivery, event: Event, message: Message, unsubscribe_url: str) -> str:
    parts = [message.title, "", *message.lines, "", *_act_links(delivery, event), message.url, "", "-- "]
    parts.append(f"Stop mails of this kind ({kinds.LABELS[event.kind].lower()}): {unsubscribe_url}")
    parts.append(f"All your notification choices: {absolute('notifications:settings')}")
    return "\n".join(parts)


def send_email(delivery: Delivery, event: Event, message: Message) -> Outcome:
    user = delivery.user
    if user is None or not user.email:
        # (removed since the fan-out: no retry will find one)
        return Outcome(ok=False, error="the recipient has no e-mail address", gone=True)
    token = tokens.unsubscribe_token(user_id=user.pk, kind=event.kind)
    unsubscribe_url = absolute("notifications:unsubscribe", token)
    mail = EmailMessage(
        subject=f"[FUBA] {message.title}",
        body=mail_body(delivery, event, message, unsubscribe_url),
        to=[user.email],
        headers={
            # RFC 8058 one-click unsubscribe: the mail client POSTs to the address.
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            # The same delivery sent twice (at least once) carries the same Message-ID.
            "Message-ID": f"<{delivery.uid}@fuba-league>",
            "X-FUBA-Delivery": str(delivery.uid),
            "X-FUBA-Kind": event.kind,
        },
    )
    try:
        mail.send()
    except Exception as exc:  # noqa: BLE001 - SMTP and backend errors of any kind are a failed try
        return Outcome(ok=False, error=f"{type(exc).__name__}: {exc}")
    return Outcome(ok=True)


def push_payload(delivery: Delivery, event: Event, message: Message) -> dict[str, Any]:
    return {
        "id": str(delivery.uid),
        "kind": event.kind,
        "title": message.title,
        "body": "\n".join(message.lines),
        "url": message.url,
        # One notification per event on a phone, however often it is delivered.
        "tag": f"fuba-{event.pk}",
    }


def send_push(delivery: Delivery, event: Event, message: Message, subscription: PushSubscription) -> Outcome:
    key = vapid.private_key()
    if key is None:
        return Outcome(ok=False, error="web push is off: no VAPID key (WEBPUSH_VAPID_PRIVATE_KEY)")
    try:
        netguard.check_url(subscription.endpoint)
        response = webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(push_payload(delivery, event, message)),
            vapid_private_key=key,
            vapid_claims={"sub": vapid.subject()},
            timeout=conf.send_timeout(),
            ttl=24 * 3600,
        )
    except ApplicationError as exc:
        return Outcome(ok=False, error=exc.message)
    except WebPushException as exc:
        code = exc.response.status_code if exc.response is not None else None
        return Outcome(ok=False, status_code=code, error=str(exc)[:500], gone=code in (404, 410))
    except (requests.RequestException, ValueError) as exc:
        return Outcome(ok=False, error=f"{type(exc).__name__}: {exc}"[:500])
    code = getattr(response, "status_code", None)
    return Outcome(ok=True, status_code=code)


def webhook_payload(event: Event, message: Message) -> dict[str, Any]:
    """The Standard Webhooks body: type, timestamp, data (the event's, with its text and link)."""
    data = {k: v for k, v in event.data.items() if k != "path"}
    return {
        "type": f"fuba.{event.kind}",
        "timestamp": event.created_at.astimezone(UTC).isoformat(),
        "data": {
            **data,
            "event_id": event.pk,
            "title": message.title,
            "text": message.text,
            "url": message.url,
        },
    }


def webhook_body(webhook: Webhook, event: Event, message: Message) -> str:
    if webhook.style == Webhook.Style.DISCORD:
        text = f"**{message.title}**\n" + "\n".join(message.lines) + f"\n<{message.url}>"
        # No @everyone or role pings from a team name.
        return json.dumps({"content": text[:2000], "allowed_mentions": {"parse": []}})
    if webhook.style == Webhook.Style.SLACK:
        text = f"*{message.title}*\n" + "\n".join(message.lines) + f"\n<{message.url}|Open>"
        return json.dumps({"text": text})
    return json.dumps(webhook_payload(event, message))


def send_webhook(delivery: Delivery, event: Event, message: Message, webhook: Webhook) -> Outcome:
    body = webhook_body(webhook, event, message)
    now = datetime.now(UTC)
    msg_id = f"msg_{delivery.uid.hex}"
    signature = standardwebhooks.Webhook(webhook.secret).sign(msg_id=msg_id, timestamp=now, data=body)
    headers = {
        "content-type": "application/json",
        "user-agent": "FUBA-League-Webhooks/1",
        "webhook-id": msg_id,
        "webhook-timestamp": str(int(now.timestamp())),
        "webhook-signature": signature,
    }
    try:
        netguard.check_url(webhook.url)
        response = requests.post(
            webhook.url,
            data=body.encode(),
            headers=headers,
            timeout=conf.send_timeout(),
            allow_redirects=False,
        )
    except ApplicationError as exc:
        return Outcome(ok=False, error=exc.message)
    except requests.RequestException as exc:
        return Outcome(ok=False, error=f"{type(exc).__name__}: {exc}"[:500])
    if 200 <= response.status_code < 300:
        return Outcome(ok=True, status_code=response.status_code)
    return Outcome(ok=False, status_code=response.status_code, error=response.text[:300])


def settings_summary() -> dict[str, Any]:
    return {"email_backend": settings.EMAIL_BACKEND, "push": bool(vapid.public_key())}

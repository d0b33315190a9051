"""Signed tokens in the mails: one-click unsubscribe from a kind, one-tap confirm or dispute."""

from __future__ import annotations

from typing import Any

from django.core import signing

from kernel.errors import ApplicationError

_UNSUBSCRIBE = "notifications.unsubscribe"
_ACT = "notifications.act"
# A confirm link is good for as long as a report may wait for the opponent, and then some.
ACT_MAX_AGE = 14 * 24 * 3600


class BadToken(ApplicationError):
    status_code = 400
    code = "bad_token"


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=_UNSUBSCRIBE, compress=True)


def unsubscribe_read(token: str) -> tuple[int, str]:
    try:
        data: Any = signing.loads(token, salt=_UNSUBSCRIBE)
        return int(data["u"]), str(data["k"])
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise BadToken("This unsubscribe link is not valid (cut short or changed?).") from None


def act_token(*, user_id: int, submission_id: int, action: str) -> str:
    return signing.dumps({"u": user_id, "s": submission_id, "a": action}, salt=_ACT, compress=True)


def act_read(token: str) -> tuple[int, int, str]:
    try:
        data: Any = signing.loads(token, salt=_ACT, max_age=ACT_MAX_AGE)
        return int(data["u"]), int(data["s"]), str(data["a"])
    except signing.SignatureExpired:
        raise BadToken("This link has expired: open the match page to confirm or dispute.") from None
    except (signing.BadSignature, KeyError, TypeError, ValueError):
        raise BadToken("This link is not valid (cut short or changed?).") from None

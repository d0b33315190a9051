"""Reads for the notification pages."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import User
from django.db.models import QuerySet

from notifications import kinds, recipients
from notifications.models import ClubMute, Delivery, Follow, Preference, PushSubscription, Webhook


def settings_rows(user: User) -> list[dict[str, Any]]:
    pref = Preference.objects.filter(user=user).first()
    rows = []
    for kind in kinds.CHOOSABLE:
        chosen = recipients.channels_of(pref, kind)
        rows.append(
            {
                "kind": kind,
                "label": kinds.LABELS[kind],
                "email": kinds.EMAIL in chosen,
                "push": kinds.PUSH in chosen,
                "private": kind in kinds.PRIVATE,
            }
        )
    return rows


def digest_on(user: User) -> bool:
    return bool(Preference.objects.filter(user=user, digest=True).exists())


def follows_of(user: User) -> QuerySet[Follow]:
    return Follow.objects.filter(user=user).select_related("team__competition", "competition", "coach")


def clubs_of(user: User) -> list[dict[str, Any]]:
    muted = set(ClubMute.objects.filter(user=user).values_list("club_id", flat=True))
    return [{"club": club, "following": club.pk not in muted} for club in user.fuba_clubs.order_by("name")]


def is_following(user: Any, *, kind: str, target_id: int) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    return Follow.objects.filter(user=user, **{f"{kind}_id": target_id}).exists()


def recent_deliveries(user: User, limit: int = 30) -> QuerySet[Delivery]:
    return (
        Delivery.objects.filter(user=user)
        .select_related("event", "push")
        .order_by("-created_at", "-id")[:limit]
    )


def phones_of(user: User) -> QuerySet[PushSubscription]:
    return PushSubscription.objects.filter(user=user).order_by("created_at")


def webhooks_of(*, competition_id: int | None = None, club_id: int | None = None) -> QuerySet[Webhook]:
    if competition_id is not None:
        return Webhook.objects.filter(competition_id=competition_id)
    return Webhook.objects.filter(club_id=club_id or 0)


def webhook_log(webhook: Webhook, limit: int = 50) -> QuerySet[Delivery]:
    return (
        Delivery.objects.filter(webhook=webhook)
        .select_related("event")
        .prefetch_related("log")
        .order_by("-created_at", "-id")[:limit]
    )

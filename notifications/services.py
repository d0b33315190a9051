"""What people change: their channels per kind and the digest, unsubscribing from a mail, what
they follow, their phones, and the webhooks of a competition or a club; the one-tap confirm and
dispute of a mailed score."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Iterable, Mapping
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, transaction

from kernel.errors import ApplicationError, NotFound, PermissionDenied
from matches import services as results
from matches.models import ResultSubmission
from notifications import delivery, kinds, netguard, tokens
from notifications.models import ClubMute, Follow, Preference, PushSubscription, Webhook
from tournaments.models import Club, Coach, Competition, Team
from tournaments.selectors import competition_permits


def _preference(user: User) -> Preference:
    pref, _ = Preference.objects.get_or_create(user=user)
    return pref


@transaction.atomic
def preferences_set(*, user: User, channels: Mapping[str, Iterable[str]], digest: bool) -> Preference:
    """Channels per kind (every choosable kind; one left out keeps its default) and the digest."""
    cleaned: dict[str, list[str]] = {}
    for kind, chosen in channels.items():
        if kind not in kinds.CHOOSABLE:
            raise ApplicationError(f"channels: no notification kind {kind!r}.")
        bad = [c for c in chosen if c not in kinds.PERSONAL_CHANNELS]
        if bad:
            raise ApplicationError(f"channels.{kind}: unknown channel {bad[0]!r} (email or push).")
        cleaned[kind] = [c for c in kinds.PERSONAL_CHANNELS if c in set(chosen)]
    pref = Preference.objects.select_for_update().get(pk=_preference(user).pk)
    pref.channels = {**pref.channels, **cleaned}
    pref.digest = digest
    pref.save(update_fields=["channels", "digest"])
    return pref


@transaction.atomic
def unsubscribe(*, token: str) -> tuple[User, str]:
    """The mail's one-click unsubscribe: no more mails of that kind (push stays as chosen); the
    digest's (kinds.EVERY_KIND): no more mails of any kind."""
    user_id, kind = tokens.unsubscribe_read(token)
    user = User.objects.filter(id=user_id).first()
    if user is None or (kind not in kinds.LABELS and kind != kinds.EVERY_KIND):
        raise tokens.BadToken("This unsubscribe link names nobody (the account may be gone).")
    pref = Preference.objects.select_for_update().get(pk=_preference(user).pk)
    stopped = kinds.CHOOSABLE if kind == kinds.EVERY_KIND else (kind,)
    channels = dict(pref.channels)
    for each in stopped:
        current = channels.get(each, list(kinds.DEFAULT_CHANNELS[each]))
        channels[each] = [c for c in current if c != kinds.EMAIL]
    pref.channels = channels
    pref.save(update_fields=["channels"])
    return user, kind


def _target(kind: str, target_id: int) -> dict[str, Any]:
    model: Any = {"team": Team, "competition": Competition, "coach": Coach}.get(kind)
    if model is None:
        raise ApplicationError(f"follow: one of team, competition or coach, not {kind!r}.")
    obj = model.objects.filter(id=target_id).first()
    if obj is None:
        raise NotFound(f"No {kind} {target_id}.")
    return {kind: obj}


def follow(*, user: User, kind: str, target_id: int) -> Follow:
    target = _target(kind, target_id)
    try:
        with transaction.atomic():
            found, _ = Follow.objects.get_or_create(user=user, **target)
    except IntegrityError:
        found = Follow.objects.get(user=user, **target)
    return found


def unfollow(*, user: User, kind: str, target_id: int) -> None:
    Follow.objects.filter(user=user, **_target(kind, target_id)).delete()


def club_follow_set(*, user: User, club_id: int, following: bool) -> None:
    """A club's members follow its fixtures by default; one may stop (and start again)."""
    if not Club.objects.filter(id=club_id, members=user).exists():
        raise PermissionDenied("Only the club's members follow its fixtures as members.")
    if following:
        ClubMute.objects.filter(user=user, club_id=club_id).delete()
    else:
        ClubMute.objects.get_or_create(user=user, club_id=club_id)


def push_subscribe(
    *, user: User, endpoint: str, p256dh: str, auth: str, user_agent: str = ""
) -> PushSubscription:
    for name, value, limit in (
        ("endpoint", endpoint, 800),
        ("keys.p256dh", p256dh, 200),
        ("keys.auth", auth, 100),
    ):
        if not isinstance(value, str) or not value or len(value) > limit:
            raise ApplicationError(
                f"{name}: required, at most {limit} characters (the browser's subscription)."
            )
    netguard.check_url(endpoint)
    sub, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint,
        defaults={
            "user": user,
            "p256dh": p256dh,
            "auth": auth,
            "user_agent": user_agent[:200],
            "paused_at": None,
            "paused_reason": "",
            "failures": 0,
        },
    )
    return sub


def push_unsubscribe(*, user: User, endpoint: str) -> int:
    if "\x00" in endpoint:
        raise ApplicationError("endpoint: the browser's push subscription address, without a NUL character.")
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return deleted


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(32)).decode()


def _check_kinds(chosen: Iterable[str], *, private_ok: bool) -> list[str]:
    out = []
    for kind in chosen:
        if kind not in kinds.CHOOSABLE or (kind in kinds.PRIVATE and not private_ok):
            raise ApplicationError(f"kinds: {kind!r} is not a kind this webhook may receive.")
        out.append(kind)
    return out


def webhook_create(
    *,
    user: User,
    url: str,
    style: str,
    competition: Competition | None = None,
    club: Club | None = None,
    chosen_kinds: Iterable[str] = (),
    include_private: bool = False,
) -> Webhook:
    """A competition's webhook (its organisers) or a club's (its members). Only a club's webhook
    may ask for the club's private notices: a competition's channel is public."""
    if (competition is None) == (club is None):
        raise ApplicationError("A webhook belongs to a competition or to a club.")
    webhook_owner_check(user=user, competition=competition, club=club)
    if style not in Webhook.Style.values:
        raise ApplicationError(f"style: one of {', '.join(Webhook.Style.values)}.")
    if len(url) > 500:
        raise ApplicationError("url: at most 500 characters.")
    netguard.check_url(url)
    private = bool(include_private and club is not None)
    return Webhook.objects.create(
        competition=competition,
        club=club,
        url=url,
        style=style,
        secret=new_secret(),
        kinds=_check_kinds(chosen_kinds, private_ok=private),
        include_private=private,
        created_by=user,
    )


def webhook_owner_check(*, user: User, competition: Competition | None, club: Club | None) -> None:
    """A competition's webhooks: its organisers and co-organisers (the one rule of roles, which
    keeps the instance's staff too); a club's: its members."""
    if competition is not None and not competition_permits(
        user=user, competition=competition, action="setup", staff_perms=("tournaments.change_competition",)
    ):
        raise PermissionDenied("A competition's webhooks are set by its organisers and co-organisers.")
    if club is not None and not (user.is_superuser or club.members.filter(id=user.pk).exists()):
        raise PermissionDenied("A club's webhooks are set by its members.")


def _owned(user: User, webhook_id: int) -> Webhook:
    hook = Webhook.objects.select_related("competition", "club").filter(id=webhook_id).first()
    if hook is None:
        raise NotFound(f"No webhook {webhook_id}.")
    webhook_owner_check(user=user, competition=hook.competition, club=hook.club)
    return hook


def webhook_delete(*, user: User, webhook_id: int) -> None:
    _owned(user, webhook_id).delete()


def webhook_resume(*, user: User, webhook_id: int, enqueue: delivery.Enqueue) -> int:
    return delivery.resume(endpoint=_owned(user, webhook_id), enqueue=enqueue)


def webhook_get(*, user: User, webhook_id: int) -> Webhook:
    return _owned(user, webhook_id)


def act(*, token: str, reason: str = "") -> tuple[str, ResultSubmission]:
    """The mailed score's one-tap confirm (or dispute, with a reason), as the member it was sent to.

    The link names the submission: once it is replaced, confirmed or disputed the link says so
    instead of acting on another report."""
    user_id, submission_id, action = tokens.act_read(token)
    user = User.objects.filter(id=user_id, is_active=True).first()
    submission = ResultSubmission.objects.select_related("fixture").filter(id=submission_id).first()
    if user is None or submission is None:
        raise tokens.BadToken("This link names a report or a member that no longer exists.")
    if submission.status != ResultSubmission.Status.OPEN:
        raise ApplicationError(
            f"This report is {submission.get_status_display().lower()} now: open the match page.",
            code="conflict",
        )
    if action == "confirm":
        results.result_confirm(fixture_id=submission.fixture_id, user=user, note="confirmed from the mail")
    elif action == "dispute":
        if not reason.strip():
            raise ApplicationError("reason: say what is wrong with the reported score.")
        results.result_dispute(fixture_id=submission.fixture_id, user=user, reason=reason.strip())
    else:
        raise tokens.BadToken(f"Unknown action {action!r}.")
    submission.refresh_from_db()
    return action, submission


def act_preview(*, token: str) -> ResultSubmission:
    """The report a confirm or dispute link names, for the page that asks before acting."""
    _, submission_id, _ = tokens.act_read(token)
    submission = (
        ResultSubmission.objects.select_related(
            "fixture__home_team", "fixture__away_team", "fixture__competition"
        )
        .filter(id=submission_id)
        .first()
    )
    if submission is None:
        raise tokens.BadToken("This link names a report that no longer exists.")
    return submission

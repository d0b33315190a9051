"""The notification pages: a person's choices, the mail's unsubscribe and one-tap links, follow
buttons and the phone's push subscription. They validate and delegate to notifications.services."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from notifications import kinds, selectors, services, tokens, vapid


@login_required
def settings_page(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request.user)
    if request.method == "POST":
        chosen = {
            kind: [c for c in kinds.PERSONAL_CHANNELS if request.POST.get(f"{c}_{kind}")]
            for kind in kinds.CHOOSABLE
        }
        services.preferences_set(user=user, channels=chosen, digest=bool(request.POST.get("digest")))
        messages.success(request, "Your notification choices are saved.")
        return redirect("notifications:settings")
    return render(
        request,
        "notifications/settings.html",
        {
            "rows": selectors.settings_rows(user),
            "digest": selectors.digest_on(user),
            "follows": selectors.follows_of(user),
            "clubs": selectors.clubs_of(user),
            "phones": selectors.phones_of(user),
            "deliveries": selectors.recent_deliveries(user),
            "vapid_key": vapid.public_key(),
            "has_email": bool(user.email),
        },
    )


# RFC 8058: a mail client's one-click unsubscribe is a POST without a cookie or a CSRF token; the
# signed token in the address is the authority, and it can only take mails away.
@csrf_exempt
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    if request.method == "POST":
        _, kind = services.unsubscribe(token=token)
        return render(
            request, "notifications/unsubscribed.html", {"label": kinds.unsubscribe_label(kind), "done": True}
        )
    _, kind = tokens.unsubscribe_read(token)
    return render(
        request, "notifications/unsubscribed.html", {"label": kinds.unsubscribe_label(kind), "done": False}
    )


def act(request: HttpRequest, token: str) -> HttpResponse:
    """A mailed score's confirm or dispute: the page asks (a mail scanner's GET changes nothing),
    one tap on its button acts."""
    _, _, action = tokens.act_read(token)
    if request.method == "POST":
        done, submission = services.act(token=token, reason=request.POST.get("reason", ""))
        return render(
            request, "notifications/act.html", {"done": done, "submission": submission, "action": action}
        )
    from_link = services.act_preview(token=token)
    return render(
        request, "notifications/act.html", {"done": None, "submission": from_link, "action": action}
    )


def _back(request: HttpRequest, fallback: str) -> HttpResponse:
    target = request.POST.get("next", "")
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}):
        return redirect(target)
    return redirect(fallback)


@login_required
@require_POST
def follow(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request.user)
    kind = request.POST.get("kind", "")
    try:
        target_id = int(request.POST.get("id", ""))
    except ValueError:
        raise ApplicationError("id: the number of the team, competition or coach to follow.") from None
    if request.POST.get("action") == "unfollow":
        services.unfollow(user=user, kind=kind, target_id=target_id)
        messages.success(request, "You no longer follow it.")
    else:
        services.follow(user=user, kind=kind, target_id=target_id)
        messages.success(request, "Followed: its notices come as your notification choices say.")
    return _back(request, "notifications:settings")


@login_required
@require_POST
def club_follow(request: HttpRequest) -> HttpResponse:
    try:
        club_id = int(request.POST.get("club", ""))
    except ValueError:
        raise ApplicationError("club: the number of your club.") from None
    following = request.POST.get("following") == "1"
    services.club_follow_set(user=signed_in_user(request.user), club_id=club_id, following=following)
    return _back(request, "notifications:settings")


def _json(request: HttpRequest) -> dict:
    try:
        data = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise ApplicationError("The body must be the browser's push subscription as JSON.") from None
    if not isinstance(data, dict):
        raise ApplicationError("The body must be a JSON object.")
    return data


@login_required
@require_POST
def push_subscribe(request: HttpRequest) -> HttpResponse:
    data = _json(request)
    keys: dict = data["keys"] if isinstance(data.get("keys"), dict) else {}
    sub = services.push_subscribe(
        user=signed_in_user(request.user),
        endpoint=data.get("endpoint", ""),
        p256dh=keys.get("p256dh", ""),
        auth=keys.get("auth", ""),
        user_agent=request.headers.get("User-Agent", ""),
    )
    return JsonResponse({"subscribed": True, "id": sub.pk}, status=201)


@login_required
@require_POST
def push_unsubscribe(request: HttpRequest) -> HttpResponse:
    data = _json(request)
    endpoint = data.get("endpoint", "") if isinstance(data.get("endpoint"), str) else ""
    deleted = services.push_unsubscribe(user=signed_in_user(request.user), endpoint=endpoint)
    return JsonResponse({"unsubscribed": bool(deleted)})

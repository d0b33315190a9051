"""Webhook pages: a competition's (its organisers, linked from the console) and a club's (its
members, linked from the club page); each webhook's page shows its delivery log and resumes it."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render

from kernel.auth import signed_in_user
from kernel.errors import ApplicationError
from notifications import kinds, selectors, services, tasks
from notifications.models import Webhook
from tournaments.models import Club, Competition


def _create(request: HttpRequest, *, competition: Competition | None, club: Club | None) -> Webhook:
    return services.webhook_create(
        user=signed_in_user(request.user),
        url=request.POST.get("url", "").strip(),
        style=request.POST.get("style", Webhook.Style.STANDARD),
        competition=competition,
        club=club,
        chosen_kinds=request.POST.getlist("kinds"),
        include_private=bool(request.POST.get("include_private")),
    )


def _page(request: HttpRequest, *, competition: Competition | None, club: Club | None) -> HttpResponse:
    user = signed_in_user(request.user)
    services.webhook_owner_check(user=user, competition=competition, club=club)
    error = ""
    if request.method == "POST":
        try:
            hook = _create(request, competition=competition, club=club)
        except ApplicationError as exc:
            if exc.status_code == 403:
                raise
            error = exc.message  # said on the form, with what was typed kept to correct it
        else:
            messages.success(request, "Webhook added. Its signing secret is on its page.")
            return redirect("notifications:webhook", hook.pk)
    hooks = selectors.webhooks_of(
        competition_id=competition.pk if competition else None, club_id=club.pk if club else None
    )
    choosable = [(k, kinds.LABELS[k]) for k in kinds.CHOOSABLE if club is not None or k not in kinds.PRIVATE]
    return render(
        request,
        "notifications/webhooks.html",
        {
            "competition": competition,
            "club": club,
            "hooks": hooks,
            "styles": Webhook.Style.choices,
            "kinds": choosable,
            "error": error,
            "typed": request.POST if error else {},
        },
        status=400 if error else 200,
    )


@login_required
def competition_webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    return _page(request, competition=get_object_or_404(Competition, slug=slug), club=None)


@login_required
def club_webhooks(request: HttpRequest, club_id: int) -> HttpResponse:
    return _page(request, competition=None, club=get_object_or_404(Club, pk=club_id))


@login_required
def webhook_detail(request: HttpRequest, webhook_id: int) -> HttpResponse:
    user = signed_in_user(request.user)
    hook = services.webhook_get(user=user, webhook_id=webhook_id)
    back = (
        redirect("notifications:competition_webhooks", hook.competition.slug)
        if hook.competition is not None
        else redirect("notifications:club_webhooks", hook.club_id)
    )
    if request.method == "POST":
        if request.POST.get("action") == "delete":
            services.webhook_delete(user=user, webhook_id=webhook_id)
            messages.success(request, "Webhook deleted.")
            return back
        if request.POST.get("action") == "resume":
            count = services.webhook_resume(user=user, webhook_id=webhook_id, enqueue=tasks.enqueue_delivery)
            messages.success(request, f"Resumed: {count} held notice(s) are being sent.")
        return redirect("notifications:webhook", webhook_id)
    return render(request, "notifications/webhook.html", {"hook": hook, "log": selectors.webhook_log(hook)})

"""Console: a competition's teams and clubs — teams pasted, members invited one by one or in bulk,
the sign-up page opened or closed and each club's application approved or refused."""

from __future__ import annotations

import csv
import io
from typing import Any

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse

from fubaleague.console.access import competition_of, competition_required
from fubaleague.console.setup_views import team_rows
from kernel.errors import ApplicationError, posted_id
from tournaments.game_systems import game_system_rules
from tournaments.models import Club, ClubApplication, Competition, Invitation
from tournaments.services.clubs import teams_bulk_create
from tournaments.services.invitations import club_member_invite, invitations_bulk
from tournaments.services.signups import application_decide, signup_set


class InviteForm(forms.Form):
    club = forms.CharField(max_length=120, help_text="The club of this name (created when new)")
    username = forms.CharField(max_length=150, label="Member's user name")
    email = forms.EmailField(
        required=False,
        help_text="The link is e-mailed when given; copy it otherwise",
        # Each club's address is typed for it: the browser offers no earlier club's address.
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )


class BulkInviteForm(forms.Form):
    invitations = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 6, "placeholder": "Wolves FC, wolves, wolves@example.org"}),
        label="One a line: club, member's user name, e-mail",
    )


# The links of the invitations just made, shown once on the page the redirect leads to.
_LINK_KEY = "console_invite_links"


def link_maker(request: HttpRequest) -> Any:
    return lambda token: request.build_absolute_uri(reverse("tournaments:join", args=[token]))


def _error(form: forms.Form, exc: ApplicationError) -> None:
    field = exc.details.get("field") if isinstance(exc.details, dict) else None
    form.add_error(field if isinstance(field, str) and field in form.fields else None, exc.message)


def _invite(request: HttpRequest, competition: Competition, form: InviteForm) -> bool:
    d = form.cleaned_data
    try:
        made = club_member_invite(
            competition=competition,
            club_name=d["club"],
            username=d["username"],
            email=d.get("email") or "",
            by=request.user,
            link_for=link_maker(request),
        )
    except ApplicationError as exc:
        _error(form, exc)
        return False
    invitation = made.invitation
    request.session[_LINK_KEY] = [
        (invitation.username, invitation.club.name if invitation.club else "", made.link)
    ]
    where = f"e-mailed to {invitation.email}" if invitation.email else "to copy below"
    messages.success(request, f"{invitation.username} of {d['club']} invited: the link is {where}.")
    return True


def _bulk(request: HttpRequest, competition: Competition, form: BulkInviteForm) -> bool:
    rows = [r for r in csv.reader(io.StringIO(form.cleaned_data["invitations"])) if any(p.strip() for p in r)]
    try:
        made = invitations_bulk(
            competition=competition, rows=rows, by=request.user, link_for=link_maker(request)
        )
    except ApplicationError as exc:
        _error(form, exc)
        return False
    request.session[_LINK_KEY] = [
        (m.invitation.username, m.invitation.club.name if m.invitation.club else "", m.link) for m in made
    ]
    mailed = sum(1 for m in made if m.invitation.email)
    messages.success(request, f"{len(made)} members invited ({mailed} by e-mail).")
    return True


def _signup_actions(request: HttpRequest, competition: Competition) -> bool:
    """Open or close the sign-up page, approve or refuse an application: True when one was done."""
    try:
        if "signup" in request.POST:
            signup_set(competition=competition, open=request.POST["signup"] == "open", by=request.user)
            state = "open" if competition.signup_open else "closed"
            messages.success(request, f"The sign-up page is {state}.")
            return True
        for verb in ("approve", "refuse"):
            if verb in request.POST:
                application = get_object_or_404(
                    ClubApplication, pk=posted_id(request.POST, verb, "application"), competition=competition
                )
                application_decide(application=application, approve=verb == "approve", by=request.user)
                messages.success(request, f"{application.team_name} ({application.club_name}): {verb}d.")
                return True
    except ApplicationError as exc:
        messages.error(request, exc.message)
        return True
    return False


@competition_required("setup")
def teams(request: HttpRequest, slug: str) -> HttpResponse:
    competition = competition_of(slug)
    post = request.POST if request.method == "POST" else None
    invite = InviteForm(post if post and "invite" in post else None)
    bulk = BulkInviteForm(post if post and "bulk" in post else None)
    if post is not None and "paste" in post:
        try:
            created = teams_bulk_create(competition=competition, rows=team_rows(post.get("teams", "")))
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{len(created)} teams entered.")
            return redirect("console:teams", slug=slug)
    done = post is not None and (
        (invite.is_bound and invite.is_valid() and _invite(request, competition, invite))
        or (bulk.is_bound and bulk.is_valid() and _bulk(request, competition, bulk))
        or _signup_actions(request, competition)
    )
    if done:
        # Redirect so the next club starts from an empty form: a re-shown bound form carried the
        # previous club's address into every later invitation (issue 32).
        return redirect("console:teams", slug=slug)
    links = request.session.pop(_LINK_KEY, []) if request.method == "GET" else []
    clubs = (
        Club.objects.filter(teams__competition=competition)
        .distinct()
        .prefetch_related("members")
        .order_by("name")
    )
    pending = Invitation.objects.filter(competition=competition, club__isnull=False, accepted_at=None)
    context = {
        "competition": competition,
        "game": game_system_rules(competition.game_system),
        "teams": competition.teams.select_related("club").prefetch_related("roster_skills__skill"),
        "clubs": clubs,
        "pending": pending.select_related("club").order_by("club__name", "username"),
        "applications": competition.applications.select_related("applicant").order_by("status", "created_at"),
        "invite": invite,
        "bulk": bulk,
        "links": links,
        "signup_url": request.build_absolute_uri(reverse("tournaments:signup", args=[competition.slug])),
    }
    return TemplateResponse(request, "console/teams.html", context)

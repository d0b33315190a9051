"""A club member's own page after signing in: what the club has to do next."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from fubaleague.web import selectors as ps
from kernel.auth import signed_in_user
from kernel.errors import ApplicationError, posted_id
from scoring.selectors import live_sessions
from tournaments.models import Club, Invitation
from tournaments.services.invitations import club_member_invite, club_member_remove


@login_required(login_url="tournaments:login")
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    board = ps.club_dashboard(user=signed_in_user(request.user))
    live = live_sessions(team_ids=[t.pk for t in board.teams])
    return render(request, "tournaments/dashboard.html", {"board": board, "live_sessions": live})


class MemberInviteForm(forms.Form):
    username = forms.CharField(max_length=150, label="Their user name")
    email = forms.EmailField(
        required=False,
        help_text="The link is e-mailed when given; copy it otherwise",
        widget=forms.EmailInput(attrs={"autocomplete": "off"}),
    )


_LINK_KEY = "club_invite_link"


@login_required(login_url="tournaments:login")
@require_http_methods(["GET", "POST"])
def members(request: HttpRequest, club_id: int) -> HttpResponse:
    """A club's own members invite and remove its members."""
    club = get_object_or_404(Club, pk=club_id, members=request.user)
    # The competition the club plays in last: the invitation names it.
    team = club.teams.select_related("competition").order_by("-competition__created_at").first()
    competition = team.competition if team is not None else None
    form = MemberInviteForm(request.POST if "invite" in request.POST else None)
    if request.method == "POST" and "remove" in request.POST:
        member = get_object_or_404(get_user_model(), pk=posted_id(request.POST, "remove", "member"))
        try:
            club_member_remove(club=club, user=member, by=request.user)
        except ApplicationError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{member.get_username()} is no longer a member of {club.name}.")
        return redirect("tournaments:club_members", club_id=club.pk)
    if request.method == "POST" and competition is not None and form.is_valid():
        try:
            made = club_member_invite(
                competition=competition,
                club_name=club.name,
                username=form.cleaned_data["username"],
                email=form.cleaned_data.get("email") or "",
                by=request.user,
                link_for=lambda token: request.build_absolute_uri(reverse("tournaments:join", args=[token])),
            )
        except ApplicationError as exc:
            form.add_error(None, exc.message)
        else:
            request.session[_LINK_KEY] = made.link
            messages.success(request, f"{made.invitation.username} invited to {club.name}.")
            return redirect("tournaments:club_members", club_id=club.pk)
    context = {
        "club": club,
        "competition": competition,
        "members": list(club.members.order_by("username")),
        "pending": Invitation.objects.filter(club=club, accepted_at=None).order_by("username"),
        "form": form,
        "link": request.session.pop(_LINK_KEY, "") if request.method == "GET" else "",
    }
    return render(request, "tournaments/club_members.html", context)

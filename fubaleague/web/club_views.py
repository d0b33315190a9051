"""A club member's own page after signing in: what the club has to do next."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from fubaleague.web import selectors as ps
from kernel.auth import signed_in_user
from scoring.selectors import live_sessions


@login_required(login_url="tournaments:login")
@require_GET
def dashboard(request: HttpRequest) -> HttpResponse:
    board = ps.club_dashboard(user=signed_in_user(request.user))
    live = live_sessions(team_ids=[t.pk for t in board.teams])
    return render(request, "tournaments/dashboard.html", {"board": board, "live_sessions": live})

"""Who may use the console: staff with the permissions the set-up API asks for."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournaments.models import Competition

ORGANISER_PERMISSIONS = (
    "tournaments.add_competition",
    "tournaments.change_competition",
    "tournaments.add_stage",
    "tournaments.change_stage",
    "tournaments.change_group",
    "tournaments.add_team",
    "tournaments.change_team",
    "tournaments.add_draw",
    "tournaments.change_fixture",
    "matches.change_result",
)


def organiser_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if not (request.user.is_staff and request.user.has_perms(ORGANISER_PERMISSIONS)):
            raise PermissionDenied("The console is for organisers: staff with the competition permissions.")
        return view(request, *args, **kwargs)

    return wrapped


def competition_of(slug: str) -> Competition:
    return get_object_or_404(Competition, slug=slug)

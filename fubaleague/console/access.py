"""Who may use the console: anyone holding a role in a competition sees that competition's pages,
and does there what tournaments.selectors.competition_permits allows (the rule the API and the
services apply); the instance's staff with the competition permissions run every competition."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournaments.models import Competition
from tournaments.selectors import competition_permits

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

REFUSALS = {
    "view": "You hold no role in {c}: ask its organiser.",
    "setup": "Only the organisers of {c} change its set-up; the results desk enters results only.",
    "results": "You hold no role in {c}: ask its organiser.",
    "people": "Only the organisers of {c} change who runs it.",
}


def signed_in_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        return view(request, *args, **kwargs)

    return wrapped


def permits(request: HttpRequest, competition: Competition, action: str) -> bool:
    return competition_permits(
        user=request.user, competition=competition, action=action, staff_perms=ORGANISER_PERMISSIONS
    )


def competition_required(action: str) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """A console page of one competition, for those whose role allows `action` there."""

    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            competition = competition_of(slug)
            if not permits(request, competition, action):
                raise PermissionDenied(REFUSALS.get(action, REFUSALS["view"]).format(c=competition))
            return view(request, slug, *args, **kwargs)

        return wrapped

    return decorate


def competition_of(slug: str) -> Competition:
    return get_object_or_404(Competition, slug=slug)

"""What every page's header and the console's steps show of the console, by the one rule of roles."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from django.utils.functional import SimpleLazyObject

from fubaleague.console.access import permits
from tournaments.models import Competition
from tournaments.selectors import holds_any_role, may_create_competition


def _steps(request: HttpRequest) -> dict[str, bool]:

    match = getattr(request, "resolver_match", None)
    slug = match.kwargs.get("slug") if match is not None and match.namespace == "console" else None
    competition = Competition.objects.filter(slug=slug).first() if slug else None
    if competition is None:
        return {}
    return {action: permits(request, competition, action) for action in ("setup", "results", "people")}


def console(request: HttpRequest) -> dict[str, Any]:
    """`console_link`: the header's way to the console, for anyone holding a role (or staff) and
    anyone who may create a competition;
    `console_may`: on a competition's console page, which of its steps the user may take."""
    return {
        "console_link": SimpleLazyObject(
            lambda: holds_any_role(user=request.user) or may_create_competition(user=request.user)
        ),
        "console_may": SimpleLazyObject(lambda: _steps(request)),
    }

"""The follow button of a team's, a competition's or a coach's public page."""

from __future__ import annotations

from typing import Any

from django import template

from notifications import selectors

register = template.Library()


@register.inclusion_tag("notifications/follow_button.html", takes_context=True)
def follow_button(context: dict[str, Any], kind: str, target_id: int, name: str) -> dict[str, Any]:
    request = context.get("request")
    user = getattr(request, "user", None)
    signed_in = bool(getattr(user, "is_authenticated", False))
    # An anonymous visitor's page is kept and served to the next ones (page_cache, fragments):
    # it must not carry this visitor's query string back to them.
    back = "/" if request is None else request.path
    if signed_in and request is not None:
        back = request.get_full_path()
    return {
        "kind": kind,
        "target_id": target_id,
        "name": name,
        "signed_in": signed_in,
        "following": selectors.is_following(user, kind=kind, target_id=target_id),
        "next": back,
        "csrf_token": context.get("csrf_token"),
    }

"""Formatting of chances: percentages that never show 100% or 0% unless certain."""

from __future__ import annotations

from django import template

from chances.views import chances_context
from tournaments.models import Competition

register = template.Library()


@register.inclusion_tag("chances/partials/summary.html")
def chances_summary(competition: Competition) -> dict[str, object]:
    """The standings page's chances: every team's chance to qualify and to win, and the chart."""
    return {"competition": competition, **chances_context(competition)}


@register.filter
def pct(value: float | None) -> str:
    if value is None:
        return ""
    if value >= 1.0:
        return "100%"
    if value <= 0.0:
        return "–"
    if value > 0.99:
        return ">99%"
    if value < 0.01:
        return "<1%"
    return f"{value * 100:.0f}%"


@register.filter
def signed_pct(value: float | None) -> str:
    if value is None:
        return ""
    points = value * 100
    if abs(points) < 0.5:
        return "±0"
    return f"{points:+.0f}"


@register.filter
def ordinal_place(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


@register.filter
def slice_after_colon(text: str) -> str:
    return text.rsplit(": ", 1)[-1]

"""The drawn pitch of a match page (the replay's, the live panel's), kept per process.

The pitch is the engine's geometry with the two teams' names in it: rendering its template
(a floatformat per area) was a third of a match page's rendering, for the same few hundred
lines each time two teams meet.
"""

from __future__ import annotations

from functools import lru_cache

from django.template.loader import render_to_string
from django.utils.safestring import SafeString, mark_safe

from matches.replay import pitch_geometry


@lru_cache(maxsize=512)
def pitch_html(home: str, away: str, pitch_id: str) -> SafeString:
    """``{% include "tournaments/partials/pitch.html" %}`` for these names and id."""
    names = {"home": home, "away": away}
    context = {"pitch": pitch_geometry(names=names), "names": names, "pitch_id": pitch_id}
    return mark_safe(render_to_string("tournaments/partials/pitch.html", context))  # noqa: S308

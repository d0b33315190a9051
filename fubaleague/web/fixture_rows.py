"""A list of fixtures as the public pages show it (competition home, fixtures): one ``<li>`` a row.

Rendered here rather than by a template included once per row: the include and its ``{% url %}``
and ``|date`` tags were half of a fixtures page's rendering time on a cache miss (issue 35). The
markup is the one the pages have always had, byte for byte.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from datetime import datetime

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from fubaleague.web.selectors import FixtureRow, id_url
from tournaments.models import Fixture

# The badge a fixture's status shows when no result counts (and it is not void).
_STATUS_BADGES = {
    Fixture.Status.DISPUTED: '<span class="badge badge--disputed">Disputed</span>',
    Fixture.Status.SUBMITTED: '<span class="badge badge--submitted">Awaiting confirmation</span>',
    Fixture.Status.SIMULATING: '<span class="badge badge--sim">Being simulated</span>',
}
_SIMULATED = (
    '<span class="badge badge--sim" title="This result was simulated by the rules engine">Simulated</span>'
)
_VOID = (
    '<span class="badge badge--void" '
    'title="Voided by the organisers: not played, counts for nothing">Void</span>'
)
_OVERDUE = (
    '<span class="badge badge--overdue" data-testid="overdue" '
    'title="Past its reporting deadline: the match will be simulated (or awarded)">Overdue</span>'
)
_GAP = "\n    "


class _Times(dict[tuple[datetime, str], str]):
    """A ``<time>`` element per moment and format, made once a list (kick-offs repeat)."""

    def __missing__(self, key: tuple[datetime, str]) -> str:
        local = timezone.localtime(key[0])
        made = self[key] = f'<time datetime="{date_format(local, "c")}">{date_format(local, key[1])}</time>'
        return made


def _when(row: FixtureRow, times: _Times) -> str:
    fixture = row.fixture
    out = times[fixture.kickoff, "D j M, H:i"] if fixture.kickoff else ""
    if fixture.group:
        out += f" · Group {escape(fixture.group.name)}"
    if fixture.deadline and not row.result:
        out += f' · <span class="fixture__deadline">due {times[fixture.deadline, "j M, H:i"]}</span>'
    return out


def _side(name: str, placeholder: bool, url: str) -> str:
    if placeholder:
        return f'<span class="placeholder">{escape(name)}</span>'
    return f'<a href="{escape(url)}">{escape(name)}</a>'


def _status(row: FixtureRow, live: bool, held: bool) -> str:
    fixture = row.fixture
    url = escape(row.url)
    note = escape(row.note) if row.result else ""
    parts = [
        f'<a class="badge badge--disputed" href="{url}" data-testid="live-mark">● Live</a>' if live else ""
    ]
    if row.simulated:
        branch = _SIMULATED + _GAP
    elif row.result:
        branch = (f'<span class="small muted">{note}</span>' if note else "") + _GAP
    elif row.void:
        branch = _VOID + _GAP
    else:
        badge = _STATUS_BADGES.get(fixture.status)  # type: ignore[call-overload]
        branch = badge + _GAP if badge else ""
    parts.append(branch)
    parts.append(_OVERDUE if fixture.is_overdue and not held else "")
    parts.append(f'<span class="small muted">{note}</span>' if row.simulated and note else "")
    return _GAP.join(parts)


def fixture_item(
    row: FixtureRow, *, live: bool, held: bool, team_url: Callable[[int], str], times: _Times
) -> str:
    fixture = row.fixture
    home, away = escape(row.home), escape(row.away)
    score = escape(row.score)
    sim = " fixture__score--sim" if row.simulated else ""
    label = f"Match page: {home} v {away}" + (f", {score}" if row.result else "")
    label += " (simulated)" if row.simulated else ""
    home_url = "" if row.home_placeholder else team_url(fixture.home_team_id)  # type: ignore[arg-type]
    away_url = "" if row.away_placeholder else team_url(fixture.away_team_id)  # type: ignore[arg-type]
    return (
        f'<li class="fixture" data-fixture="{fixture.pk}">\n'
        f'  <span class="fixture__when">{_when(row, times)}</span>\n'
        f'  <span class="fixture__home">{_side(row.home, row.home_placeholder, home_url)}</span>\n'
        f'  <a class="fixture__score{sim}" href="{escape(row.url)}" aria-label="{label}">'
        f"{score if row.result else 'v'}</a>\n"
        f'  <span class="fixture__away">{_side(row.away, row.away_placeholder, away_url)}</span>\n'
        f'  <span class="fixture__status">\n    {_status(row, live, held)}\n  </span>\n'
        "</li>\n"
    )


def fixture_items(
    rows: Iterable[FixtureRow], *, slug: str, live_ids: Collection[int], held_ids: Collection[int]
) -> SafeString:
    """The ``<li>`` of each row, as the fixture lists of the pages show them."""
    team_url, times = id_url("tournaments:team", slug), _Times()
    items = (
        fixture_item(
            r, live=r.fixture.pk in live_ids, held=r.fixture.pk in held_ids, team_url=team_url, times=times
        )
        for r in rows
    )
    return mark_safe("".join(items))  # noqa: S308 - every value in it is escaped above


def turns_overdue(rows: Iterable[FixtureRow]) -> float | None:
    """When the first of these rows turns "overdue" (epoch seconds), or None: a kept list of them
    is stale from then on (fragments.Html.until)."""
    now = timezone.now()
    deadlines = [
        r.fixture.deadline
        for r in rows
        if r.fixture.deadline is not None
        and r.fixture.status == Fixture.Status.SCHEDULED
        and r.fixture.deadline >= now
    ]
    return min(deadlines).timestamp() if deadlines else None

"""The fixtures' calendar (.ics) and spreadsheet (.csv) exports, kept like the fixtures page (issue 35).

Both were rendered whole on every miss (every fixture of the competition, after any change in it),
and the calendar's entry, named by its path alone, held the host of whichever request rendered it
(its events' UIDs and links) for every other visitor. They are now cut as the fixtures page is
(fragments.py): a fragment per stage, kept under the versions of "c" and that stage (the same
parts as the page's stage rounds), so a counted result or a moved kick-off re-renders its stage's
lines alone, and the refresh task (refresh.py) keeps them before any reader asks. A fragment holds
no request's data: the calendar's host, links and stamp are slots filled per request, and the
folding of its lines (which depends on the host's length) is done after that. The round titles
are each fixture's own (``round_title``: its name, or its stage's matchday or round), so a stage's
fragment needs no number from the stages before it, unlike the page's headings.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from datetime import UTC, timedelta
from functools import cache as cache_once
from functools import partial

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404
from django.utils import timezone

from fubaleague.web import fragments
from fubaleague.web import selectors as ps
from matches.standings.cache import WHOLE
from tournaments.models import Competition

_HOST, _BASE, _STAMP = fragments.slot("host"), fragments.slot("base"), fragments.slot("stamp")

CSV_HEADER = (
    "fixture_id",
    "stage",
    "round",
    "group",
    "match_number",
    "leg",
    "kickoff_utc",
    "home",
    "away",
    "home_goals",
    "away_goals",
    "extra_time",
    "home_penalties",
    "away_penalties",
    "status",
    "simulated",
)

Loader = Callable[[], Competition]


def ics_escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,").replace("\n", "\\n")


def ics_fold(line: str) -> list[str]:
    # RFC 5545 3.1: lines longer than 75 octets are folded with CRLF + space.
    out = []
    raw = line.encode()
    while len(raw) > 75:
        cut = 75
        while (raw[cut] & 0xC0) == 0x80:  # do not split a UTF-8 sequence
            cut -= 1
        out.append(raw[:cut].decode())
        raw = b" " + raw[cut:]
    out.append(raw.decode())
    return out


def csv_safe(text: str) -> str:
    # A cell starting with = + - @ is run as a formula by spreadsheets (CSV injection).
    return "'" + text if text[:1] in ("=", "+", "-", "@") else text


def _ics_head(competition: Loader) -> str:
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//FUBA League//Fixtures//EN",
        "CALSCALE:GREGORIAN",
        f"X-WR-CALNAME:{ics_escape(competition().name)}",
    ]
    return "".join(line + "\r\n" for line in lines)


def _ics_stage(competition: Loader, stage_id: int, team_id: int | None) -> str:
    """The stage's events, lines unfolded, the request's host, links and stamp left as slots."""
    name = competition().name
    lines: list[str] = []
    for block in ps.fixtures_by_round(competition(), team_id=team_id, stage_id=stage_id):
        for row in block.rows:
            f = row.fixture
            if f.kickoff is None:
                continue
            start = f.kickoff.astimezone(UTC)
            end = start + timedelta(hours=2)
            summary = f"{row.home} v {row.away}"
            if row.result is not None:
                summary = f"{row.home} {row.result.home_goals}-{row.result.away_goals} {row.away}"
                if row.simulated:
                    summary += " (simulated)"
            lines += [
                "BEGIN:VEVENT",
                f"UID:fixture-{f.pk}@{_HOST}",
                f"DTSTAMP:{_STAMP}",
                f"DTSTART:{start.strftime('%Y%m%dT%H%M%SZ')}",
                f"DTEND:{end.strftime('%Y%m%dT%H%M%SZ')}",
                f"SUMMARY:{ics_escape(summary)}",
                f"DESCRIPTION:{ics_escape(f'{name} – {block.title}')}",
                f"URL:{_BASE}{row.url}",
                "END:VEVENT",
            ]
    return "".join(line + "\r\n" for line in lines)


def _csv_stage(competition: Loader, stage_id: int, team_id: int | None) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    for block in ps.fixtures_by_round(competition(), team_id=team_id, stage_id=stage_id):
        for row in block.rows:
            f, r = row.fixture, row.result
            writer.writerow(
                [
                    f.pk,
                    f.stage.name,
                    block.title,
                    f.group.name if f.group else "",
                    f.match_number or "",
                    f.leg,
                    f.kickoff.astimezone(UTC).isoformat() if f.kickoff else "",
                    csv_safe(row.home),
                    csv_safe(row.away),
                    r.home_goals if r else "",
                    r.away_goals if r else "",
                    ("yes" if r.extra_time else "no") if r else "",
                    r.home_penalties if r and r.home_penalties is not None else "",
                    r.away_penalties if r and r.away_penalties is not None else "",
                    f.status,
                    ("yes" if row.simulated else "no") if r else "",
                ]
            )
    return out.getvalue()


def _fragments(
    kind: str, slug: str, team_id: int | None
) -> Callable[[fragments.Outline], list[fragments.Fragment]]:
    """The export's fragments as laid out by the outline: (the calendar's head, under "c"), then
    a stage's lines each, under "c" (names, the competition's) and the stage, as the page's."""
    competition = cache_once(partial(get_object_or_404, Competition, slug=slug))
    stage = _ics_stage if kind == "ics" else _csv_stage

    def laid_out(outline: fragments.Outline) -> list[fragments.Fragment]:
        head = [fragments.Fragment("ics:head", (WHOLE,), partial(_ics_head, competition))]
        return [
            *(head if kind == "ics" else []),
            *(
                fragments.Fragment(
                    f"{kind}:{team_id or ''}:s{i}", (WHOLE, f"s{i}"), partial(stage, competition, i, team_id)
                )
                for i, _ in outline.stages
            ),
        ]

    return laid_out


def keep(slug: str) -> None:
    """Both exports' stale fragments (of the whole competition) rendered and kept: the refresh
    task's share (no page is kept, the calendar's would be the task's host's)."""
    for kind in ("ics", "csv"):
        fragments.laid_out_fetch(slug, _fragments(kind, slug, None))


def ics_response(request: HttpRequest, slug: str, team_id: int | None) -> HttpResponse:
    _, fetched = fragments.laid_out_fetch(slug, _fragments("ics", slug, team_id))
    text = "".join(fetched.html.values()) + "END:VCALENDAR\r\n"
    host = request.get_host()
    text = fragments.filled(
        text,
        {
            "host": host.split(":")[0],
            "base": request.build_absolute_uri("/")[:-1],
            "stamp": timezone.now().strftime("%Y%m%dT%H%M%SZ"),
        },
    )
    body = "".join(part + "\r\n" for line in text.split("\r\n")[:-1] for part in ics_fold(line))
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{slug}.ics"'
    return response


def csv_response(slug: str, team_id: int | None) -> HttpResponse:
    _, fetched = fragments.laid_out_fetch(slug, _fragments("csv", slug, team_id))
    header = io.StringIO()
    csv.writer(header).writerow(CSV_HEADER)
    body = header.getvalue() + "".join(fetched.html.values())
    response = HttpResponse(body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}-fixtures.csv"'
    return response

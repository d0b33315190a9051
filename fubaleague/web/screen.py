"""The big screen's document (issue 33, item 5): what a projector at the venue cycles through
besides the live matches (those come from the live centre's document, scoring.centre): the
standings, the next fixtures with their times, and the bracket.

One JSON a competition, the same for everyone, kept under the competition's standings version
(matches.standings.cache.by_slug: bumped by every change of results, fixtures, draws), and
at most SCREEN_SECONDS old so that "next" follows the clock. Every screen of the venue reads it
with its ETag: a 304 costs one cache round trip.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.template.loader import render_to_string
from django.utils import timezone

from fubaleague.web import selectors as ps
from matches.standings import cache, presentation
from scoring.models import ScoringSession
from tournaments.models import Competition, Fixture, RoundClock, Stage

SCREEN_SECONDS = 60
# How long the big screen shows a page before the next (?seconds= on its address changes it).
PAGE_SECONDS = 12
UPCOMING_SHOWN = 40


def _standings(competition: Competition) -> list[dict[str, Any]]:
    tables = []
    for table in presentation.competition_tables(competition):
        title = table.stage + (f" · Group {table.group}" if table.group else "")
        rows = [
            {
                "position": r.row.position,
                "team": r.team,
                "played": r.row.played,
                "won": r.row.won,
                "drawn": r.row.drawn,
                "lost": r.row.lost,
                "goal_difference": r.row.goal_difference,
                "points": r.row.points,
            }
            for r in table.rows
        ]
        tables.append({"title": title, "rows": rows})
    return tables


def _side(fixture: Fixture, side: str) -> str:
    team = getattr(fixture, f"{side}_team")
    return team.name if team is not None else getattr(fixture, f"{side}_placeholder") or "?"


def _upcoming(competition: Competition) -> list[dict[str, Any]]:
    # The matches being scored are the live view's: "next" is what has not started.
    running = ScoringSession.objects.filter(
        fixture__competition=competition, status__in=ScoringSession.ACTIVE_STATUSES
    ).values("fixture_id")
    fixtures = (
        ps.fixtures_qs()
        .filter(competition=competition)
        .exclude(status__in=Fixture.DONE_STATUSES)
        .exclude(id__in=running)
        .order_by("kickoff", "stage__order", "round", "match_number", "id")[:UPCOMING_SHOWN]
    )
    return [
        {
            "fixture": f.id,
            "home": _side(f, "home"),
            "away": _side(f, "away"),
            "kickoff": f.kickoff.isoformat() if f.kickoff else None,
            "when": timezone.localtime(f.kickoff).strftime("%a %H:%M") if f.kickoff else "",
            "table": f.table_number,
            "place": " · ".join(
                x for x in (f.stage.name, f"Group {f.group.name}" if f.group else "", f.round_name) if x
            ),
        }
        for f in fixtures
    ]


def _brackets(competition: Competition) -> list[dict[str, Any]]:
    out = []
    for stage in competition.stages.filter(kind=Stage.Kind.KNOCKOUT).order_by("order"):
        bracket = ps.bracket(stage)
        if not bracket.boxes:
            continue
        svg = render_to_string(
            "tournaments/partials/screen_bracket.html", {"stage": stage, "bracket": bracket}
        )
        out.append({"title": stage.name, "svg": svg})
    return out


def build(competition: Competition) -> dict[str, Any]:
    return {
        "competition": competition.name,
        "standings": _standings(competition),
        "upcoming": _upcoming(competition),
        "brackets": _brackets(competition),
    }


def _clocks(competition: Competition) -> list[dict[str, Any]]:
    # A knockout round has a name ("Quarter-finals"); the others are numbered.
    names = {
        (stage, round): name
        for stage, round, name in Fixture.objects.filter(competition=competition)
        .exclude(round_name="")
        .values_list("stage_id", "round", "round_name")
        .distinct()
    }
    out = []
    for clock in RoundClock.objects.filter(competition=competition).select_related("stage"):
        name = names.get((clock.stage_id, clock.round)) or f"Matchday {clock.round}"
        out.append(
            {
                "stage": clock.stage_id,
                "round": clock.round,
                "title": f"{clock.stage.name} · {name}",
                "starts_at": clock.starts_at.isoformat(),
                "ends_at": clock.ends_at.isoformat(),
            }
        )
    return out


def clock_document(competition: Competition) -> bytes:
    """The rounds' clocks with the server's now (docs/venue.md, "Round clock"): the clocks are kept
    under the competition's version, the now is this answer's own."""
    rounds = cache.by_slug(competition.slug, "clocks", lambda: _clocks(competition), seconds=SCREEN_SECONDS)
    return json.dumps({"now": timezone.now().isoformat(), "rounds": rounds}, separators=(",", ":")).encode()


def document(competition: Competition) -> tuple[str, bytes]:
    """(ETag, body) of the competition's screen document, shared by every screen."""

    def compute() -> tuple[str, bytes]:
        body = json.dumps(build(competition), separators=(",", ":")).encode()
        return f'"screen-{hashlib.sha1(body, usedforsecurity=False).hexdigest()[:16]}"', body

    return cache.by_slug(competition.slug, "screen", compute, seconds=SCREEN_SECONDS)

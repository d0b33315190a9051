"""The tournament live centre's document: every match of a competition being scored live, and
the ones scored live whose result counts, in one small JSON shared by every reader (the live
centre page, the big screen; docs/web.md).

One document per competition, cached under its version. The version is read in one query from
the sessions themselves (how many, the sum of their versions, how many of their fixtures count):
a session's version moves with every write, so any session that moves bumps the competition's
version, and a result that starts counting does too. A version's document never changes, so the
ETag is the version and a reader who has it gets a 304 from that one query.

Only what is public goes in: from full time until the result counts a session is private
(scoring.selectors.result_private), so such a match is listed with its teams and status alone,
never its score or its moments, and a finished match shows the counted result, never the
session's own final score.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.cache import cache
from django.db.models import Count, Max, Q, Sum
from django.db.models.signals import post_save

from matches.standings.cache import committed
from matchplay import scorer_view
from scoring import held, selectors
from scoring.models import ScoringSession
from tournaments.models import Competition, Fixture

CENTRE_CACHE_SECONDS = 3600
# The finished matches listed: the latest ones whose result counts (a screen shows a round's worth).
FINISHED_SHOWN = 24
# Goals, cards and the whistles: what the live centre lists under each match as it happens.
MOMENT_KINDS = frozenset({"goal", "yellow", "red", "second_yellow", "var"})
MOMENTS_SHOWN = 12


def _sessions(competition_id: int) -> Any:
    return _live(ScoringSession.objects.filter(fixture__competition_id=competition_id))


def _live(sessions: Any) -> Any:
    return sessions.exclude(status=ScoringSession.Status.ABANDONED)


def _version_row(sessions: Any) -> tuple[int | None, str]:
    """The competition and the version of its sessions in one aggregate: how many, the sum of
    their versions, how many of their fixtures count."""
    row = sessions.aggregate(
        competition=Max("fixture__competition_id"),
        n=Count("id"),
        v=Sum("version"),
        counted=Count("id", filter=Q(fixture__status__in=Fixture.COUNTED_STATUSES)),
    )
    return row["competition"], f"{row['n']}.{row['v'] or 0}.{row['counted']}"


def version(*, competition_id: int) -> str:
    """The competition's live version, as committed: moves whenever one of its sessions moves or
    the result of a fixture scored live starts (or stops) counting."""
    return _version_row(_sessions(competition_id))[1]


def version_by_slug(*, slug: str) -> tuple[int, str] | None:
    """The competition's id and live version in the one query a poll costs, or None when it has
    no session (then the caller looks the competition up: a rare case, not worth a join)."""
    competition, ver = _version_row(_live(ScoringSession.objects.filter(fixture__competition__slug=slug)))
    return None if competition is None else (int(competition), ver)


def held_version(*, slug: str) -> tuple[int, str] | None:
    """The competition's id and live version as this process read them at most
    ``held.HELD_SECONDS`` ago (a poll then costs no query); None when there is no such competition."""
    found = held.get(slug)
    if found is not None:
        return found
    read_at = time.monotonic()
    found = version_by_slug(slug=slug)
    if found is None:
        competition_id = Competition.objects.filter(slug=slug).values_list("id", flat=True).first()
        if competition_id is None:
            return None  # (nothing held: random slugs cost no entry)
        found = competition_id, version(competition_id=competition_id)
    held.put(slug, found, read_at)
    return found


def connect() -> None:
    """Forget the held versions on what moves them without the scorer's services (those forget
    them themselves: sessions are written without signals): a session created, a fixture's
    status (its result counts), a change committed elsewhere in the results (a forfeit's
    update()). Connected by ScoringConfig.ready."""
    post_save.connect(held.forget, sender=ScoringSession, dispatch_uid="scoring_centre_held_session")
    post_save.connect(held.forget, sender=Fixture, dispatch_uid="scoring_centre_held_fixture")
    committed.connect(held.forget, dispatch_uid="scoring_centre_held_committed")


def etag(competition_id: int, ver: str) -> str:
    return f'"c{competition_id}v{ver}"'


def _key(competition_id: int, ver: str) -> str:
    return f"scoring:centre:{competition_id}:{ver}"


def document(*, competition_id: int, ver: str) -> bytes:
    """The live centre's JSON at version ``ver`` (built once a version, then shared)."""
    key = _key(competition_id, ver)
    body = cache.get(key)
    if isinstance(body, bytes):
        return body
    doc = build(competition_id=competition_id)
    body = json.dumps(doc, separators=(",", ":")).encode()
    # Built from the sessions as they are now: a write since the version was read made a newer
    # document, which must not be kept as this version's.
    if doc["version"] == ver:
        cache.set(key, body, CENTRE_CACHE_SECONDS)
    return body


def _fixture_row(fixture: Fixture) -> dict[str, Any]:
    stage = fixture.stage
    return {
        "fixture": fixture.id,
        "home": fixture.home_team.name if fixture.home_team else "",
        "away": fixture.away_team.name if fixture.away_team else "",
        "stage": stage.name,
        "group": fixture.group.name if fixture.group is not None else "",
        "round": fixture.round,
        "round_name": fixture.round_name or f"Round {fixture.round}",
    }


def _moments(state: dict[str, Any]) -> list[dict[str, Any]]:
    shown = [m for m in state["moments"] if m["kind"] in MOMENT_KINDS]
    return [{"minute": m["minute"], "kind": m["kind"], "text": m["text"]} for m in shown[-MOMENTS_SHOWN:]]


def _live_row(session: ScoringSession) -> dict[str, Any]:
    row = _fixture_row(session.fixture)
    if selectors.result_private(session):
        # At full time the score is the clubs' until they confirm it: nothing of it leaves here.
        return {**row, "session": session.id, "status": "unconfirmed"}
    state = selectors.session_state(session)
    st = state["state"]
    last = state["events"][0]["text"] if state["events"] else ""
    return {
        **row,
        "session": session.id,
        "status": "live",
        "version": state["version"],
        "score": list(st["score"]),
        "minute": st["minute"],
        "turn": st["turn"],
        "last_text": last,
        "question": state["question"] or "",
        "pitch": {"teams": st["teams"], "ball": st["ball"], "value": st["value"], "last": st.get("last")},
        "moments": _moments(state),
    }


def _finished_row(session: ScoringSession) -> dict[str, Any]:
    fixture = session.fixture
    result = getattr(fixture, "result", None)
    row = {**_fixture_row(fixture), "session": session.id, "status": "final"}
    if result is not None:
        row["score"] = [result.home_goals, result.away_goals]
    # The counted log is public now: its goals and cards as the session scored them.
    row["moments"] = _moments(selectors.session_state(session))
    return row


def build(*, competition_id: int) -> dict[str, Any]:
    """The document as the sessions are now (its ``version`` read first, so that a write while it
    is built gives a document newer than its version, never older)."""
    ver = version(competition_id=competition_id)
    related = ("fixture", "fixture__home_team", "fixture__away_team", "fixture__stage", "fixture__group")
    # Being scored, at full time, or submitted and waiting for the other club or a dispute's
    # decision: listed (as unconfirmed) until the result counts, then among the finished.
    waiting = Q(status=ScoringSession.Status.SUBMITTED) & ~Q(fixture__status__in=Fixture.DONE_STATUSES)
    running = list(
        _sessions(competition_id)
        .filter(Q(status__in=ScoringSession.ACTIVE_STATUSES) | waiting)
        .select_related(*related, "submission")
        .order_by("fixture__round", "fixture__match_number", "fixture_id")
    )
    finished = list(
        _sessions(competition_id)
        .filter(status=ScoringSession.Status.SUBMITTED, fixture__status__in=Fixture.COUNTED_STATUSES)
        .select_related(*related, "fixture__result")
        .order_by("-updated_at")[:FINISHED_SHOWN]
    )
    return {
        "version": ver,
        "competition": competition_id,
        # the areas' codes in board order: the order of the pieces in each match's pitch
        "areas": [a["code"] for a in scorer_view.areas({"home": "home", "away": "away"})],
        "live": [_live_row(s) for s in running],
        "finished": [_finished_row(s) for s in finished],
    }

"""Writing the outbox: what the league announces, as the events the notifications fan out.

The services of the league (results, discipline, draws, Swiss pairing, scheduling) send the
signals of tournaments.announcements inside the transaction of their change; ``connect`` (called
by notifications.apps) hands each to the function of the same name here, so the event row commits
or rolls back with the change and the league imports nothing of the notifications. The live
scorer, above the notifications, calls ``live_goal`` directly. After the commit the fan-out task
is queued by name (it lives above, in notifications.tasks, which imports this module); a queue
that is down loses nothing, the beat sweep (notifications.sweep) queues every event not fanned
out yet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from typing import Any

from celery import current_app
from django.db import transaction

from kernel.broker import publish
from notifications import kinds
from notifications.models import Event
from tournaments import announcements
from tournaments.models import Competition, Fixture

FANOUT_TASK = "notifications.fanout"


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def fixture_data(fixture: Fixture) -> dict[str, Any]:
    """What every message about a fixture names, as it was when the event happened."""
    home = fixture.home_team.name if fixture.home_team else fixture.home_placeholder or "?"
    away = fixture.away_team.name if fixture.away_team else fixture.away_placeholder or "?"
    competition = fixture.competition
    return {
        "fixture_id": fixture.pk,
        "title": f"{home} v {away}",
        "label": str(fixture),
        "home": home,
        "away": away,
        "competition": competition.name,
        "slug": competition.slug,
        "round": fixture.round_name or f"Round {fixture.round}",
        "kickoff": _iso(fixture.kickoff),
        "deadline": _iso(fixture.deadline),
        # A venue round's table (docs/venue.md), so the mail says where to sit.
        "table": fixture.table_number,
    }


def _team_ids(fixture: Fixture) -> list[int]:
    return [t for t in (fixture.home_team_id, fixture.away_team_id) if t is not None]


def emit(
    *,
    kind: str,
    key: str,
    competition_id: int | None = None,
    fixture_id: int | None = None,
    team_ids: Iterable[int] = (),
    for_team_ids: Iterable[int] = (),
    user_id: int | None = None,
    data: Mapping[str, Any] | None = None,
) -> Event | None:
    """Write one event to the outbox (once per ``key``: a second emit of the same key does
    nothing and returns None) and queue its fan-out after the commit."""
    if kind not in kinds.LABELS:
        raise ValueError(f"unknown notification kind {kind!r}")
    event, created = Event.objects.get_or_create(
        key=key[:200],
        defaults={
            "kind": kind,
            "competition_id": competition_id,
            "fixture_id": fixture_id,
            "team_ids": sorted(set(team_ids)),
            "for_team_ids": sorted(set(for_team_ids)),
            "user_id": user_id,
            "data": dict(data or {}),
        },
    )
    if not created:
        return None
    event_id = event.pk
    # robust: a broker that is down (publish logs and counts it) must not stop the hooks behind.
    transaction.on_commit(lambda: publish(current_app.signature(FANOUT_TASK), (event_id,)), robust=True)
    return event


def fixture_event(
    kind: str,
    fixture: Fixture,
    *,
    key: str,
    extra: Mapping[str, Any] | None = None,
    for_team_ids: Iterable[int] = (),
) -> Event | None:
    return emit(
        kind=kind,
        key=key,
        competition_id=fixture.competition_id,
        fixture_id=fixture.pk,
        team_ids=_team_ids(fixture),
        for_team_ids=for_team_ids,
        data={**fixture_data(fixture), **(extra or {})},
    )


# ------------------------------------------------------------------ the results workflow

_COUNTING_ACTIONS = {"confirm", "resolve", "override", "simulate", "award"}


def _score_text(result: Mapping[str, Any] | None) -> str:
    if not result:
        return ""
    text = f"{result['home_goals']}-{result['away_goals']}"
    if result.get("extra_time"):
        text += " a.e.t."
    if result.get("home_penalties") is not None:
        text += f" ({result['home_penalties']}-{result['away_penalties']} on penalties)"
    return text


def result_audited(
    *, fixture: Fixture, action: str, audit_id: int, after: Any, reporting_team_id: int | None, note: str
) -> None:
    """An entry of a fixture's audit trail (matches.services.shared.audit): what it tells whom.

    A score is reported to the opponent once it can be confirmed (at once without a turn log,
    after the engine found the log valid with one); a result is told to everyone once it counts."""
    after = after if isinstance(after, Mapping) else {}
    opponents = [t for t in _team_ids(fixture) if t != reporting_team_id]
    if action in ("submit", "validate") and after.get("status") == "open":
        if after.get("validation_status") not in ("not_required", "valid"):
            return
        fixture_event(
            kinds.SCORE_REPORTED,
            fixture,
            key=f"score_reported:{after.get('submission')}",
            for_team_ids=opponents,
            extra={"score": _score_text(after), "submission_id": after.get("submission")},
        )
    elif action == "dispute":
        fixture_event(
            kinds.DISPUTE_OPENED,
            fixture,
            key=f"dispute_opened:{audit_id}",
            extra={"score": _score_text(after), "reason": note},
        )
    if action == "resolve":
        fixture_event(
            kinds.DISPUTE_RESOLVED,
            fixture,
            key=f"dispute_resolved:{audit_id}",
            extra={"score": _score_text(after.get("result")), "note": note},
        )
    if action in _COUNTING_ACTIONS and after.get("status") in Fixture.COUNTED_STATUSES:
        fixture_event(
            kinds.RESULT_COUNTS,
            fixture,
            key=f"result_counts:{audit_id}",
            extra={"score": _score_text(after.get("result")), "how": action},
        )


# ------------------------------------------------------------------ scheduling, draws, rounds


def fixture_dates_changed(*, fixture: Fixture, kickoff_before: datetime | None) -> None:
    """A kickoff set (scheduled) or changed (moved); a kickoff taken away says nothing."""
    if fixture.kickoff is None or fixture.kickoff == kickoff_before:
        return
    kind = kinds.FIXTURE_SCHEDULED if kickoff_before is None else kinds.FIXTURE_MOVED
    fixture_event(
        kind,
        fixture,
        key=f"{kind}:{fixture.pk}:{fixture.kickoff.isoformat()}",
        extra={"kickoff_before": _iso(kickoff_before)},
    )


def fixtures_published(
    *, competition: Competition, stage_id: int, stage_name: str, fixtures: list[Fixture]
) -> None:
    """The fixtures of a stage are generated: one notice for the stage, not one per fixture."""
    if not fixtures:
        return
    teams = {t for f in fixtures for t in _team_ids(f)}
    kickoffs = sorted(f.kickoff for f in fixtures if f.kickoff is not None)
    emit(
        kind=kinds.FIXTURE_SCHEDULED,
        key=f"fixtures_published:{stage_id}:{min(f.pk for f in fixtures)}",
        competition_id=competition.pk,
        team_ids=teams,
        data={
            "competition": competition.name,
            "slug": competition.slug,
            "title": f"{stage_name}: {len(fixtures)} fixtures",
            "stage": stage_name,
            "count": len(fixtures),
            "kickoff": _iso(kickoffs[0]) if kickoffs else None,
        },
    )


def draw_made(
    *,
    competition: Competition,
    draw_id: int,
    stage_name: str,
    kind: str,
    team_ids: Iterable[int],
    summary: str,
) -> None:
    emit(
        kind=kinds.DRAW_MADE,
        key=f"draw_made:{draw_id}",
        competition_id=competition.pk,
        team_ids=team_ids,
        data={
            "competition": competition.name,
            "slug": competition.slug,
            "title": f"{stage_name}: {kind} drawn",
            "stage": stage_name,
            "summary": summary,
        },
    )


def round_paired(
    *,
    competition: Competition,
    stage_id: int,
    stage_name: str,
    round: int,
    fixtures: list[Fixture],
    bye: str | None,
) -> None:
    pairs = [fixture_data(f)["title"] for f in fixtures]
    emit(
        kind=kinds.ROUND_PAIRED,
        key=f"round_paired:{stage_id}:{round}",
        competition_id=competition.pk,
        team_ids={t for f in fixtures for t in _team_ids(f)},
        data={
            "competition": competition.name,
            "slug": competition.slug,
            "title": f"{stage_name}: round {round} paired",
            "stage": stage_name,
            "round": round,
            "pairs": pairs,
            "bye": bye,
        },
    )


def suspension_made(
    *,
    key: str,
    competition: Competition,
    team_id: int,
    team_name: str,
    reason: str,
    served_in: str | None,
) -> None:
    emit(
        kind=kinds.SUSPENSION,
        key=f"suspension:{key}",
        competition_id=competition.pk,
        team_ids=[team_id],
        data={
            "competition": competition.name,
            "slug": competition.slug,
            "title": f"{team_name}: {reason}",
            "team": team_name,
            "reason": reason,
            "served_in": served_in,
        },
    )


# ------------------------------------------------------------------ the live scorer


def live_goal(*, fixture_id: int, session_id: int, seq: int, score: tuple[int, int], note: str) -> None:
    """A goal of a match scored live, to its followers. The scorer stores an event with one
    compare-and-set statement, so the notice is written right after it in its own transaction.
    An undone goal is not taken back: the live panel shows the score as it is."""
    fixture = Fixture.objects.select_related("competition", "home_team", "away_team").get(id=fixture_id)
    with transaction.atomic():
        fixture_event(
            kinds.LIVE_GOAL,
            fixture,
            key=f"live_goal:{session_id}:{seq}",
            extra={"score": f"{score[0]}-{score[1]}", "text": note},
        )


# ------------------------------------------------------------------ the league's announcements


def connect() -> None:
    """Write the outbox on each of the league's announcements (tournaments.announcements)."""
    for name, signal in announcements.SIGNALS.items():
        signal.connect(_receiver(globals()[name]), weak=False, dispatch_uid=f"notifications.outbox.{name}")


def _receiver(write: Callable[..., None]) -> Callable[..., None]:
    def receive(sender: object, signal: object = None, **kwargs: Any) -> None:
        write(**kwargs)

    return receive

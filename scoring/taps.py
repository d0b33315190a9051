"""One tap, one record: ``POST /api/v1/scoring-sessions/{id}/events`` (docs/scorer-internals.md).

A tap is everything one touch of the scorer entered, in order: the answer, the answer it implies
(``pending.then``), the roll's dice, the page's own answers after it, and at most one trailing
``roll_for_me`` per roll due. It names the stored event it extends (``after``, that event's client
id; "" at kick-off) and is stored whole or not at all, only on top of that event:

- the hot path is one read and one write statement, as for a single event before: the read gives
  the session row, the poster's clubs and whether the tap or any of its client ids is stored; the
  engine applies the batch to the match of the row read (no lock held); the write moves the session
  row on only if it is still at the version and head read, and inserts every event with it;
- a tap whose events are already stored after ``after`` (the other phone's automatic entry, a
  resend after a lost answer, a repeated ``roll_for_me``) is answered as stored, 200: the same
  event twice is one event; a longer tap whose first events repeat the stored ones up to the head
  has the rest applied on top;
- anything else that does not extend the stored head is refused whole, 409 ``stale_head`` with
  what the store holds since ``after``: no client can splice two branches;
- an event the rules refuse refuses the tap, 422 with its index and client id, nothing stored.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.db.models import F, JSONField
from django.utils import timezone

from kernel.errors import ApplicationError, Conflict, NotFound
from notifications import outbox
from scoring import held, quotas, rolls, session_engine
from scoring.models import ScoringEvent, ScoringSession
from scoring.selectors import SessionChanged, cache_key, fixture_tie, match_of, session_names, stale_head
from scoring.services import RECENT_EVENTS, side_of
from tournaments.models import Club, Fixture, Team

ID_MAX = 64
EVENTS_MAX = 64


@dataclass(frozen=True)
class Item:
    """One entry of a tap: its client id and the event (None for ``roll_for_me``)."""

    client_id: str
    event: Any
    roll_for_me: bool
    rolled_offline: bool


@dataclass(frozen=True)
class TapAnswer:
    session: ScoringSession
    created: bool
    stored: list[dict[str, Any]]


def _check_id(value: Any, name: str) -> str:
    if not isinstance(value, str) or not 1 <= len(value) <= ID_MAX:
        raise ApplicationError(f"{name}: a string of 1 to {ID_MAX} characters made by the client.")
    return value


def _items(events: Any) -> list[Item]:
    """The tap's entries, parsed (a malformed one is 422 naming its index)."""
    if not isinstance(events, Sequence) or isinstance(events, str | bytes) or not events:
        raise ApplicationError("events: a tap is a list of 1 to 64 {client_id, event | roll_for_me}.")
    if len(events) > EVENTS_MAX:
        raise ApplicationError(f"events: at most {EVENTS_MAX} events in one tap, not {len(events)}.")
    items, seen = [], set()
    for i, entry in enumerate(events):
        if not isinstance(entry, Mapping):
            raise ApplicationError(f"events[{i}]: an object {{client_id, event | roll_for_me}}.")
        client_id = _check_id(entry.get("client_id"), f"events[{i}].client_id")
        if client_id in seen:
            raise ApplicationError(f"events[{i}].client_id: {client_id!r} is used twice in this tap.")
        seen.add(client_id)
        roll_for_me = entry.get("roll_for_me") is True
        offline = entry.get("rolled_offline") is True
        if roll_for_me == (entry.get("event") is not None):
            raise ApplicationError(f"events[{i}]: send either 'event' or 'roll_for_me': true.")
        if roll_for_me and offline:
            raise ApplicationError(f"events[{i}]: a roll is rolled offline on the phone or by the server.")
        if roll_for_me and i != len(events) - 1:
            raise ApplicationError(f"events[{i}]: roll_for_me ends a tap (the server rolls it when due).")
        event = None
        if not roll_for_me:
            try:
                event = session_engine.parse(entry["event"])
            except session_engine.MalformedEvent as exc:
                exc.details = {**exc.details, "index": i, "client_id": client_id}
                exc.message = f"events[{i}] ({client_id}): {exc.message}"
                raise
            if offline and not session_engine.is_roll(event):
                raise ApplicationError(f"events[{i}]: rolled_offline marks a roll, not a decision.")
        items.append(Item(client_id, event, roll_for_me, offline))
    return items


def tap_post(
    *, session_id: int, user: User, tap_id: str, after: str, after_seq: int, events: Any
) -> TapAnswer:
    """Store one tap on top of the stored event ``after`` (module docstring)."""
    tap_id = _check_id(tap_id, "tap_id")
    if not isinstance(after, str) or len(after) > ID_MAX:
        raise ApplicationError("after: the client id of the stored event this tap extends ('' at kick-off).")
    if isinstance(after_seq, bool) or not isinstance(after_seq, int) or after_seq < 0:
        raise ApplicationError("after_seq: the seq of the event named by 'after' (0 at kick-off).")
    items = _items(events)
    for _ in range(3):
        outcome = _try(session_id, user, tap_id, after, after_seq, items)
        if outcome is not None:
            return outcome
    raise SessionChanged("Other devices kept changing the session; catch up and try again.")


def _try(
    session_id: int, user: User, tap_id: str, after: str, after_seq: int, items: list[Item]
) -> TapAnswer | None:
    """One try of tap_post; None when another write changed the session since it was read."""
    # a process holding no copy of the match (a new worker) reads the log with the row
    with_log = not session_engine.held(session_id)
    session, home, away, seen, log = _read(session_id, user, tap_id, [i.client_id for i in items], with_log)
    side = side_of(user, (home, away), staff_ok=True, label=_fixture_label(session.fixture_id))
    repeated: list[dict[str, Any]] = []
    if seen or after != session.head or after_seq != session.seq:
        settled = _settle(session, tap_id, after, after_seq, items)
        if settled is None:
            return None
        repeated, rest = settled
        if not rest:
            return TapAnswer(session, False, repeated)
        items = rest
    quotas.check_events(session.fixture_id, side, count=len(items))
    if session.status != ScoringSession.Status.LIVE:
        raise Conflict(
            f"The session is {session.get_status_display().lower()}; no more events.",
            details={"seq": session.seq, "version": session.version, "session": session.id},
        )
    try:
        match = match_of(session, log)
    except SessionChanged:
        return None
    goals_before = session_engine.goals(match)
    rows = _apply(session, match, items, side, tap_id, first_index=len(repeated))
    after_row = {
        "seq": session.seq + len(rows),
        "head": rows[-1]["client_id"],
        "recent": [*reversed(rows), *session.recent][:RECENT_EVENTS],
        "status": "live" if match.pending() is not None else "full_time",
        "home_entered": session.home_entered or side == "home",
        "away_entered": session.away_entered or side == "away",
        "updated_at": timezone.now(),
    }
    if not _store(session, after_row, rows, side, tap_id, user):
        session_engine.forget(session.id)  # it holds events that were not stored
        return None
    for name, value in after_row.items():
        setattr(session, name, value)
    session.reached_full_time = session.reached_full_time or after_row["status"] == "full_time"
    session.version += 1
    held.moved()  # (the live centre's version held here: scoring.held)
    session_engine.keep(session.id, cache_key(session), match)
    _tell_goal(session, match, goals_before, rows[-1]["seq"])
    return TapAnswer(session, True, [*repeated, *(_answer_row(r, side) for r in rows)])


def _tell_goal(session: ScoringSession, match: Any, before: tuple[int, int], seq: int) -> None:
    """A goal this tap scored, to the followers of the two teams (issue 33). The score of a live
    match is public (the live centre shows it); from full time on the session is the clubs' until
    the result counts (docs/scorer.md), so a tap that also ends the match tells nothing. The
    notice is keyed by session and seq: a resent tap is answered as stored and tells nothing twice."""
    after = session_engine.goals(match)
    if after == before or session.status != ScoringSession.Status.LIVE or session.reached_full_time:
        return
    names = session_names(session)
    scorer = "home" if after[0] > before[0] else "away"
    outbox.live_goal(
        fixture_id=session.fixture_id,
        session_id=session.pk,
        seq=seq,
        score=after,
        note=f"{session_engine.minute(match)}' GOAL for {names[scorer]}!",
    )


def _apply(
    session: ScoringSession, match: Any, items: list[Item], side: str, tap_id: str, *, first_index: int
) -> list[dict[str, Any]]:
    """The tap's events applied in order to ``match`` by the one apply the phone runs too
    (session_engine.apply_tap, matchplay.tap), as rows to store; a refused one refuses the tap (422
    naming its index and client id; the cached match is dropped, since a refused event may have
    taken defaults before it and the earlier events are not stored). With app dice a roll is the
    server's (``roll_for_me``, rolled when due) or the phone's rolled offline; dice typed in are
    refused."""
    entries = [
        {"client_id": i.client_id, "roll_for_me": True}
        if i.roll_for_me
        else {
            "client_id": i.client_id,
            "event": session_engine.event_to_dict(i.event),
            "rolled_offline": i.rolled_offline,
        }
        for i in items
    ]
    # the tie is read only for an answer to the extra-time question (I-38)
    tie = (
        fixture_tie(session.fixture)
        if any(session_engine.answers_extra_time(i.event) for i in items)
        else None
    )
    try:
        stored = session_engine.apply_tap(
            match, entries, tie=tie, faces=rolls.faces, app_dice=session.app_dice
        )
    except (session_engine.IllegalEvent, session_engine.MalformedEvent) as exc:
        session_engine.forget(session.id)
        raise _at(exc, first_index) from None
    rows: list[dict[str, Any]] = []
    for offset, entry in enumerate(stored):
        data = entry["event"]
        if entry["rolled_offline"]:
            team = session_names(session).get(side, "a staff member")
            data["note"] = f"rolled offline by the app on {team}'s phone"
        elif entry["rolled_by_app"]:
            data["note"] = "rolled by the app"
        rows.append(
            {
                "seq": session.seq + offset + 1,
                "client_id": entry["client_id"],
                "data": data,
                "side": side,
                "rolled_by_app": entry["rolled_by_app"],
                "rolled_offline": entry["rolled_offline"],
            }
        )
    return rows


def _at(exc: ApplicationError, first_index: int) -> ApplicationError:
    """The one apply's refusal with the entry's index in the whole tap (the first ``first_index``
    entries repeated stored ones) and the entry named in the message."""
    details = {**exc.details, "index": first_index + exc.details["index"]}
    where = f"events[{details['index']}] ({details['client_id']})"
    return type(exc)(f"{where}: {exc.message}", code=exc.code, details=details)


def _answer_row(row: Mapping[str, Any], side: str) -> dict[str, Any]:
    return {
        "seq": row["seq"],
        "client_id": row["client_id"],
        "event": row["data"],
        "side": row.get("side", side),
        "rolled_by_app": row["rolled_by_app"],
        "rolled_offline": row.get("rolled_offline", False),
    }


def _settle(
    session: ScoringSession, tap_id: str, after: str, after_seq: int, items: list[Item]
) -> tuple[list[dict[str, Any]], list[Item]] | None:
    """A tap that is not simply on top of the head read: (the stored rows it repeats, the entries
    left to apply on top of the head), StaleHead when it is no repeat, None when the events moved
    while they were read."""
    fields = ("seq", "client_id", "data", "side", "rolled_by_app", "rolled_offline")
    events = ScoringEvent.objects.filter(session=session)
    by_tap = list(events.filter(tap_id=tap_id).order_by("seq", "id").values(*fields))
    live = events.filter(undone_at__isnull=True)
    if by_tap:
        return _as_stored(live, by_tap, after, len(items), fields), []
    start = 0
    if after:
        found = live.filter(client_id=after).values_list("seq", flat=True).first()
        if found is None or found > session.seq:
            raise stale_head(session, after=after, after_seq=after_seq)
        start = found
    since = list(live.filter(seq__gt=start, seq__lte=session.seq).order_by("seq").values(*fields))
    if [r["seq"] for r in since] != list(range(start + 1, session.seq + 1)) or (
        since and since[-1]["client_id"] != session.head
    ):
        return None  # read between two writes: read again
    if any(not _same(item, row) for item, row in zip(items, since, strict=False)):
        raise stale_head(session, after=after, after_seq=after_seq)
    if after_seq != start and len(items) > len(since):
        raise stale_head(session, after=after, after_seq=after_seq)
    rest = items[len(since) :]
    taken = events.filter(client_id__in=[i.client_id for i in rest]).values_list("client_id", flat=True)
    if rest and taken:
        index = next(i for i, item in enumerate(items) if item.client_id in set(taken))
        raise ApplicationError(
            f"events[{index}].client_id: {items[index].client_id!r} names another event stored in "
            "this session; every event needs a client id of its own.",
            code="client_id_taken",
            details={"index": index, "client_id": items[index].client_id},
        )
    return [_answer_row(r, r["side"]) for r in since[: len(items)]], rest


def _as_stored(
    live: Any, by_tap: list[dict[str, Any]], after: str, size: int, fields: tuple[str, ...]
) -> list[dict[str, Any]]:
    """The answer to a resend of a stored tap: its events as stored, with the events it repeated
    (stored by another tap: the rest of it was applied on top of them) when they are still live."""
    start = live.filter(client_id=after).values_list("seq", flat=True).first() if after else 0
    end = by_tap[-1]["seq"]
    if start is not None and end - start == size:
        rows = list(live.filter(seq__gt=start, seq__lte=end).order_by("seq").values(*fields))
        if len(rows) == size and rows[-1]["client_id"] == by_tap[-1]["client_id"]:
            return [_answer_row(r, r["side"]) for r in rows]
    return [_answer_row(r, r["side"]) for r in by_tap]


def _same(item: Item, row: Mapping[str, Any]) -> bool:
    """Whether an entry repeats a stored event: the same client id, or the same event (a
    ``roll_for_me`` repeats the app's roll stored for that roll request)."""
    if item.client_id == row["client_id"]:
        return True
    data = row["data"]
    if item.roll_for_me:
        return bool(row["rolled_by_app"]) and "roll" in data
    stored = {k: v for k, v in data.items() if k != "note"}
    return session_engine.event_to_dict(item.event) == stored


def _fixture_label(fixture_id: int) -> Any:
    return lambda: str(Fixture.objects.select_related("home_team", "away_team").get(id=fixture_id))


# The one read a post makes before writing: the session row, the user's membership of either
# club and whether the tap or one of its client ids is stored already. Written as SQL because it
# runs on every tap and the ORM spent longer compiling its joins and subqueries (about 3 ms) than
# PostgreSQL spent running it; read with a plain cursor, the row made a model instance by
# Model.from_db (a raw() queryset spent a third of a light post resolving its columns). Only
# column and table names (from the models) and numbered placeholders are formatted in; every
# value is a query parameter.
_FIELDS = ScoringSession._meta.concrete_fields
_JSON_FIELDS = [(i, f) for i, f in enumerate(_FIELDS) if isinstance(f, JSONField)]
_READ_SQL = f"""
SELECT {", ".join(f"s.{f.column}" for f in _FIELDS)},
       EXISTS (SELECT 1 FROM {Team._meta.db_table} t
               JOIN {Club.members.through._meta.db_table} m ON m.club_id = t.club_id
               WHERE t.id = f.home_team_id AND m.user_id = %(user)s) AS home_member,
       EXISTS (SELECT 1 FROM {Team._meta.db_table} t
               JOIN {Club.members.through._meta.db_table} m ON m.club_id = t.club_id
               WHERE t.id = f.away_team_id AND m.user_id = %(user)s) AS away_member,
       EXISTS (SELECT 1 FROM {ScoringEvent._meta.db_table} e
               WHERE e.session_id = s.id AND (e.tap_id = %(tap)s OR e.client_id IN ({{clients}}))) AS seen
       {{log}}
FROM {ScoringSession._meta.db_table} s
JOIN {Fixture._meta.db_table} f ON f.id = s.fixture_id
WHERE s.id = %(session)s
"""  # noqa: S608
# With the row, on PostgreSQL, for a process that holds no copy of the match: the live events up
# to the row's seq, one JSON document read in the same statement (so of the same snapshot as
# the row) and decoded at once, instead of a second query and a converter per row.
_LOG_SQL = f""",
       (SELECT json_agg(json_build_array(e.seq, e.client_id, e.data) ORDER BY e.seq)::text
        FROM {ScoringEvent._meta.db_table} e
        WHERE e.session_id = s.id AND e.undone_at IS NULL AND e.seq <= s.seq) AS log"""  # noqa: S608


def _read(
    session_id: int, user: User, tap_id: str, client_ids: list[str], with_log: bool = False
) -> tuple[ScoringSession, bool, bool, bool, list[Any] | None]:
    """(session, home member, away member, tap or a client id stored, the live events up to its
    seq as [seq, client_id, data] when ``with_log`` on PostgreSQL, else None), read without a
    lock: the write checks that nothing changed since (_store)."""
    params: dict[str, Any] = {
        "session": session_id,
        "user": user.pk if user.is_authenticated else None,
        "tap": tap_id,
    }
    params.update({f"c{i}": client_id for i, client_id in enumerate(client_ids)})
    with_log = with_log and connection.vendor == "postgresql"
    sql = _READ_SQL.replace("{clients}", ", ".join(f"%(c{i})s" for i in range(len(client_ids))))
    sql = sql.replace("{log}", _LOG_SQL if with_log else "")
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        row = cursor.fetchone()
    if row is None:
        raise NotFound(f"No scoring session {session_id}.")
    values = list(row[: len(_FIELDS)])
    for i, field in _JSON_FIELDS:  # jsonb comes as text (as Django has psycopg load it)
        if isinstance(values[i], str):
            values[i] = json.loads(values[i], cls=field.decoder)
    session = ScoringSession.from_db(connection.alias, [f.attname for f in _FIELDS], values)
    home, away, seen = row[len(_FIELDS) : len(_FIELDS) + 3]
    log = (json.loads(row[-1]) if row[-1] is not None else []) if with_log else None
    return session, bool(home), bool(away), bool(seen), log


# The write of a tap on PostgreSQL, one statement (atomic on its own, so no BEGIN and COMMIT
# round trips): the session row moves on only if its version and head are still the ones read
# (compare and set), and the tap's events are inserted only with it.
_WRITE_SQL = f"""
WITH s AS (
    UPDATE {ScoringSession._meta.db_table}
    SET seq = %(seq)s, head = %(head)s, recent = %(recent)s::jsonb, version = version + 1,
        status = %(status)s, home_entered = %(home_entered)s, away_entered = %(away_entered)s,
        reached_full_time = reached_full_time OR %(status)s = 'full_time', updated_at = %(updated_at)s
    WHERE id = %(session)s AND version = %(version)s AND head = %(after)s
    RETURNING id, version
), e AS (
    INSERT INTO {ScoringEvent._meta.db_table}
        (session_id, seq, client_id, tap_id, data, side, entered_by_id, rolled_by_app, rolled_offline,
         created_at, undone_at, undone_by_id, undo_reason)
    SELECT s.id, x.seq, x.client_id, %(tap)s, x.data, %(side)s, %(user)s, x.rolled_by_app,
           x.rolled_offline, %(updated_at)s, NULL, NULL, ''
    FROM s, jsonb_to_recordset(%(rows)s::jsonb)
         AS x(seq integer, client_id text, data jsonb, rolled_by_app boolean, rolled_offline boolean)
)
SELECT version FROM s
"""  # noqa: S608


def _store(
    session: ScoringSession,
    after: dict[str, Any],
    rows: list[dict[str, Any]],
    side: str,
    tap_id: str,
    user: User,
) -> bool:
    """Store the tap's events and move the session to ``after``, if the session is still at the
    version and head read; False if another write came first. The unique constraints on (session,
    client id) and on the live (session, seq) stay the last line of defence (a lost race too)."""
    entered_by = user.pk if user.is_authenticated else None
    try:
        # Inside a caller's transaction (the tests' for one) a refused statement must not spoil
        # it; on its own the statement needs none.
        with transaction.atomic() if connection.in_atomic_block else nullcontext():
            if connection.vendor == "postgresql":
                with connection.cursor() as cursor:
                    cursor.execute(
                        _WRITE_SQL,
                        {
                            **after,
                            "recent": json.dumps(after["recent"]),
                            "session": session.pk,
                            "version": session.version,
                            "after": session.head,
                            "rows": json.dumps(rows),
                            "tap": tap_id,
                            "side": side,
                            "user": entered_by,
                        },
                    )
                    return cursor.fetchone() is not None
            # The embedded default (SQLite): the same compare and set in a transaction.
            with transaction.atomic():
                moved = ScoringSession.objects.filter(
                    pk=session.pk, version=session.version, head=session.head
                ).update(
                    **after,
                    version=F("version") + 1,
                    reached_full_time=session.reached_full_time or after["status"] == "full_time",
                )
                if moved:
                    ScoringEvent.objects.bulk_create(
                        ScoringEvent(session_id=session.pk, tap_id=tap_id, entered_by_id=entered_by, **row)
                        for row in rows
                    )
                return bool(moved)
    except IntegrityError:
        return False

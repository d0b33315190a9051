"""Venue rounds (issue 33, item 6; docs/venue.md): a round's start time and length, the tables
the fixtures are played at, and the clubs' check-in before the round.

The organisers' writes (clock, tables) are checked by their callers with the set-up permission,
like the other scheduling services; a check-in is a club's act, checked here (a member of the
team's club, or someone who runs the competition's results on the club's behalf) and kept as its
own audit row (who, in which standing, when). A team that does not check in is not punished by
this module: the organiser decides, as for any no-show (the results desk's "Award the match").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone

from kernel.errors import Conflict, NotFound, PermissionDenied
from tournaments.models import CheckIn, Fixture, RoundClock, Stage
from tournaments.selectors import actor_role_words, competition_permits, user_club_team_ids
from tournaments.services.shared import invalid

# A round at a venue lasts at most a day; a table number is at most three digits on the screen.
MAX_ROUND_MINUTES = 24 * 60
MAX_TABLE = 999


def _round_fixtures(stage: Stage, round: int) -> list[Fixture]:
    fixtures = list(
        stage.fixtures.select_for_update().filter(round=round).order_by("match_number", "leg", "id")
    )
    if not fixtures:
        raise NotFound(f"{stage.name} has no round {round}.", details={"field": "round"})
    return fixtures


@transaction.atomic
def round_clock_set(
    *, stage: Stage, round: int, starts_at: datetime, minutes: int, user: Any = None
) -> RoundClock:
    """Give a round its start time and length: the countdown of the big screen and the scorer."""
    _round_fixtures(stage, round)
    if timezone.is_naive(starts_at):
        raise invalid("Give the start time with its time zone (e.g. 2026-06-13T10:00:00+02:00).", "starts_at")
    if not 1 <= minutes <= MAX_ROUND_MINUTES:
        raise invalid(f"A round lasts from 1 to {MAX_ROUND_MINUTES} minutes, not {minutes}.", "minutes")
    clock, _created = RoundClock.objects.update_or_create(
        stage=stage,
        round=round,
        defaults={
            "competition_id": stage.competition_id,
            "starts_at": starts_at,
            "minutes": minutes,
            "set_by": user if user is not None and user.is_authenticated else None,
        },
    )
    return clock


@transaction.atomic
def round_clock_clear(*, stage: Stage, round: int) -> None:
    """The round has no clock any more (the screens stop counting down)."""
    deleted, _ = RoundClock.objects.filter(stage=stage, round=round).delete()
    if not deleted:
        raise NotFound(f"{stage.name}, round {round} has no start time to clear.", details={"field": "round"})


def _table_check(table: int | None, field: str) -> None:
    if table is not None and not 1 <= table <= MAX_TABLE:
        raise invalid(f"A table number is from 1 to {MAX_TABLE}, not {table}.", field)


def _save_tables(fixtures: list[Fixture], tables: dict[int, int | None]) -> list[Fixture]:
    changed = []
    for fixture in fixtures:
        new = tables.get(fixture.pk, fixture.table_number)
        if new != fixture.table_number:
            fixture.table_number = new
            # One save each, not a bulk update: the save's signal bumps the competition's version,
            # so the screens and the fixture pages show the new table.
            fixture.save(update_fields=["table_number", "updated_at"])
            changed.append(fixture)
    return changed


@transaction.atomic
def round_tables_number(*, stage: Stage, round: int, first: int = 1) -> list[Fixture]:
    """Number the round's tables first, first+1, ... in match order (the matches still to play;
    a played match keeps the table it was played at). Returns the fixtures renumbered."""
    _table_check(first, "first")
    fixtures = _round_fixtures(stage, round)
    open_ones = [f for f in fixtures if f.status in Fixture.OPEN_STATUSES]
    if not open_ones:
        raise Conflict(f"{stage.name}, round {round}: every fixture already has a result.")
    _table_check(first + len(open_ones) - 1, "first")
    taken = {f.table_number for f in fixtures if f not in open_ones and f.table_number is not None}
    tables: dict[int, int | None] = {}
    number = first
    for fixture in open_ones:
        while number in taken:
            number += 1
        _table_check(number, "first")
        tables[fixture.pk] = number
        number += 1
    return _save_tables(fixtures, tables)


@transaction.atomic
def fixture_table_set(*, fixture: Fixture, table: int | None) -> Fixture:
    """Put one fixture at a table (None: no table); two matches of a round share no table."""
    _table_check(table, "table")
    fixtures = _round_fixtures(fixture.stage, fixture.round)
    clash = next(
        (f for f in fixtures if f.pk != fixture.pk and table is not None and f.table_number == table), None
    )
    if clash is not None:
        raise Conflict(
            f"Table {table} is already {clash}'s in {fixture.stage.name}, round {fixture.round}.",
            details={"field": "table"},
        )
    mine = next(f for f in fixtures if f.pk == fixture.pk)
    _save_tables([mine], {mine.pk: table})
    fixture.refresh_from_db(fields=["table_number", "updated_at"])
    return fixture


def _check_in_team(fixture: Fixture, user: Any, team_id: int | None) -> int:
    """The team the user checks in: their club's side, or any side for whoever runs the results."""
    sides = {t for t in (fixture.home_team_id, fixture.away_team_id) if t is not None}
    mine = user_club_team_ids(user=user, fixture=fixture)
    # Staff check a side in only with the model permission, as for every other staff write.
    if not mine and competition_permits(
        user=user,
        competition=fixture.competition,
        action="results",
        staff_perms=("tournaments.add_checkin",),
    ):
        mine = sides
    if not mine:
        raise PermissionDenied(f"Only the members of the two clubs check in for {fixture}.")
    if team_id is None:
        if len(mine) > 1:
            raise invalid(f"Say which team of {fixture} checks in (team_id).", "team_id")
        return next(iter(mine))
    if team_id not in sides:
        raise invalid(f"Team {team_id} does not play {fixture}.", "team_id")
    if team_id not in mine:
        raise PermissionDenied(f"Only the members of a team's club check it in for {fixture}.")
    return team_id


@transaction.atomic
def fixture_check_in(*, fixture_id: int, user: Any, team_id: int | None = None) -> CheckIn:
    """A club says its team is at the venue for this fixture. Checking in twice keeps the first
    check-in (its time is when the club arrived)."""
    fixture = (
        Fixture.objects.select_for_update(of=("self",))
        .select_related("competition", "stage", "home_team__club", "away_team__club")
        .filter(pk=fixture_id)
        .first()
    )
    if fixture is None:
        raise NotFound(f"There is no fixture {fixture_id}.", details={"field": "fixture"})
    if not fixture.is_resolved:
        raise Conflict(f"{fixture}: both teams are not known yet, so nobody checks in for it.")
    # Who asks before what the fixture is: a stranger learns nothing of its state (403, not 409).
    team = _check_in_team(fixture, user, team_id)
    if fixture.status != Fixture.Status.SCHEDULED:
        raise Conflict(
            f"{fixture} is {fixture.get_status_display().lower()}: there is nothing to check in for."
        )
    check_in, _created = CheckIn.objects.get_or_create(
        fixture=fixture,
        team_id=team,
        defaults={
            "checked_in_by": user,
            "checked_in_by_role": actor_role_words(
                user=user, competition=fixture.competition, fixture=fixture
            ),
        },
    )
    return check_in

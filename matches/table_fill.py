"""Fill the knockouts that take places of a final table: the play-off, then the bracket it feeds.

The organiser's action once a league, Swiss rounds or a league phase is final (the console's
Stages page, ``POST /api/v1/stages/{id}/fill-from-table``, the schedule's "generate" and the
API's generate-fixtures as they reach such a stage). The table must be final (every fixture done,
every Swiss round paired) and no place that decides who goes where may be level: the tie-break
order's lots are drawn (and recorded) as for any final table (matches.standings.services); an
order without lots can leave teams level, and then the places are named and nothing is made.
Idempotent: a stage that has its fixtures is left alone, so a second run makes nothing.
"""

from __future__ import annotations

from django.contrib.auth.models import User
from django.db import transaction

from kernel.errors import ApplicationError, Conflict
from matches.standings.selectors import tiebreak_order
from matches.standings.services import standings_compute
from tournaments.models import Fixture, Stage, Team
from tournaments.services.scheduling import fixture_generate
from tournaments.services.stages import TABLE_KINDS
from tournaments.services.table_feed import band_of, fed_by_table, table_final_problem
from tournaments.table_feed import Band, cut_ties, ordinal


def table_fed_stages(*, feeder: Stage) -> list[Stage]:
    """The knockouts taking places of ``feeder``'s table, each play-off before the stage it feeds."""
    fed = [s for s in feeder.fed_stages.order_by("order") if fed_by_table(s)]
    playoffs = {s.feed_playoff_id for s in fed if s.feed_playoff_id is not None}
    return sorted(fed, key=lambda s: (s.id not in playoffs, s.order))


def final_places(*, feeder: Stage, user: User | None = None) -> dict[int, Team]:
    """The feeder's final table as place -> team, refused while it is not final or while teams are
    level across a place that decides who goes where (any place its knockouts take, and the
    places just outside them)."""
    problem = table_final_problem(feeder=feeder)
    if problem:
        raise Conflict(f"{problem}; its places cannot be taken yet.", details={"field": "feeder"})
    rows = standings_compute(stage=feeder, user=user)
    bands = [b for s in table_fed_stages(feeder=feeder) if (b := band_of(s)) is not None]
    cuts = sorted({b.first - 1 for b in bands} | {b.last for b in bands})
    fed = Band(min(b.first for b in bands), max(b.last for b in bands)) if bands else None
    ties = cut_ties(positions=[(r.position, r.level_with_previous) for r in rows], cuts=cuts, seeded=fed)
    teams = {t.id: t for t in feeder.teams.all()}
    if ties:
        names = {r.position: teams[r.team].name for r in rows}
        level = "; ".join(f"{ordinal(a)} {names[a]} and {ordinal(b)} {names[b]}" for a, b in ties)
        order = ", ".join(tiebreak_order(competition=feeder.competition, stage=feeder))
        raise Conflict(
            f"{feeder.name}: teams are level where the places decide who goes where ({level}): "
            f"they are equal on every criterion of the tie-break order ({order}), which has no drawing "
            "of lots. Add 'lots' to the order (or settle it by a points adjustment), then try again.",
            details={"field": "table", "places": [list(pair) for pair in ties]},
        )
    return {r.position: teams[r.team] for r in rows}


def table_fill_waiting(*, feeder: Stage) -> str | None:
    """Why the knockouts after ``feeder`` cannot be made yet (None: they can, or have been)."""
    stages = table_fed_stages(feeder=feeder)
    if not stages or all(s.fixtures.exists() for s in stages):
        return None
    return table_final_problem(feeder=feeder)


@transaction.atomic
def table_places_fill(*, feeder: Stage, user: User | None) -> list[Fixture]:
    """Make the fixtures of every knockout fed by ``feeder``'s final table that has none yet.

    Refused (nothing made) while the table is not final or is level where a place decides;
    the fills are on record as Draws naming ``user`` and their role.
    """
    feeder = Stage.objects.select_for_update().select_related("competition").get(id=feeder.id)
    if feeder.kind not in TABLE_KINDS:
        raise ApplicationError(
            f"{feeder}: only a league, Swiss rounds or a league phase feed a knockout by places.",
            details={"field": "stage"},
        )
    stages = table_fed_stages(feeder=feeder)
    if not stages:
        raise ApplicationError(
            f"{feeder}: no knockout takes places of its table; add one with the places it takes.",
            details={"field": "feed_places_from"},
        )
    todo = [s for s in stages if not s.fixtures.exists()]
    if not todo:
        return []
    places = final_places(feeder=feeder, user=user)
    created: list[Fixture] = []
    for stage in todo:
        created += fixture_generate(stage=stage, places=places, user=user)
    return created

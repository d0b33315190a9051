"""A knockout's first round from the final places of a table (a league, Swiss rounds, a league phase).

The places come final and checked from matches.table_fill (which reads the standings, a layer
above these services); here they become the first round's sides, and each filled stage records
who filled it and from which places as a Draw of kind ``table_places``; a correction of the table
that refills slots adds another such Draw naming who corrected it and which places changed. The
seeding rule: tournaments.table_feed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import User

from kernel.errors import ApplicationError, Conflict
from tournaments.models import Draw, Fixture, Stage, Team
from tournaments.selectors import actor_role_words
from tournaments.table_feed import Band, bracket_places, ordinal, playoff_pairs

Side = tuple[Team | None, str, dict[str, Any] | None]
BYE: Side = (None, "bye", None)


def band_of(stage: Stage) -> Band | None:
    if stage.feed_places_from is None or stage.feed_places_to is None:
        return None
    return Band(stage.feed_places_from, stage.feed_places_to)


def fed_by_table(stage: Stage) -> bool:
    """Whether the stage is a knockout that takes places of a table."""
    return stage.kind == Stage.Kind.KNOCKOUT and stage.feeder_id is not None and band_of(stage) is not None


def table_final_problem(*, feeder: Stage) -> str | None:
    """Why the feeder's table is not final yet (None: it is)."""
    fixtures = feeder.fixtures.all()
    if not fixtures.exists():
        return f"{feeder.name} has no fixtures yet"
    left = fixtures.exclude(status__in=Fixture.DONE_STATUSES).count()
    if left:
        return f"{feeder.name} is not final: {left} fixture(s) still to be played or confirmed"
    if feeder.kind == Stage.Kind.SWISS:
        paired = max(
            fixtures.order_by("-round").values_list("round", flat=True).first() or 0,
            feeder.byes.order_by("-round").values_list("round", flat=True).first() or 0,
        )
        if paired < feeder.swiss_rounds:
            rounds = feeder.swiss_rounds
            return f"{feeder.name} is not final: round {paired + 1} of {rounds} is still to be paired"
    return None


def _playoff_winners(stage: Stage, playoff: Stage, places: Mapping[int, Team]) -> dict[int, Side]:
    """The play-off's winners as sides, by the place that headed their tie."""
    band = band_of(playoff)
    assert band is not None  # checked when the stage was set up
    legs = list(playoff.fixtures.filter(leg=1))
    if not legs:
        raise Conflict(
            f"{stage}: make {playoff.name} first; its winners play this stage.",
            details={"field": "feed_playoff"},
        )
    number = {t: f.match_number for f in legs for t in (f.home_team_id, f.away_team_id) if t is not None}
    out: dict[int, Side] = {}
    for head, _other in playoff_pairs(band):
        match = number.get(places[head].id)
        if match is None:
            raise Conflict(
                f"{stage}: {places[head].name} ({ordinal(head)}) is not in {playoff.name}; "
                "its fixtures were made from another table. Delete them and fill again.",
                details={"field": "feed_playoff"},
            )
        out[head] = (None, f"Winner match {match}", {"type": "winner", "match": match})
    return out


def table_first_round(
    *, stage: Stage, feeder: Stage, places: Mapping[int, Team] | None, user: User | None = None
) -> list[tuple[Side, Side]]:
    """The first round's ties of a knockout fed by ``feeder``'s final ``places`` (place -> team),
    seeded by place, with the seeded (higher-placed) side at home in a single match and in the
    second leg of two."""
    band = band_of(stage)
    if band is None:
        raise ApplicationError(
            f"{stage}: give the places it takes from {feeder.name}.", details={"field": "feed_places_from"}
        )
    if places is None:
        raise Conflict(
            f"{stage} takes places of {feeder.name}'s final table: make it from the table "
            "(console: Stages, 'From the final table'; "
            f"API: POST /api/v1/stages/{feeder.pk}/fill-from-table).",
            details={"field": "feeder"},
        )
    if band.last > len(places):
        raise ApplicationError(
            f"{stage}: {feeder.name} has {len(places)} places, not {band.last}.",
            details={"field": "feed_places_to"},
        )
    playoff = stage.feed_playoff
    winners = _playoff_winners(stage, playoff, places) if playoff is not None else {}
    playoff_band = band_of(playoff) if playoff is not None else None

    def side(place: int) -> Side:
        if place == 0:
            return BYE
        if place in winners:
            return winners[place]
        # The source lets a correction of the table refill the slot (matches.progress), as a
        # group's places do; the tie itself stays paired by place.
        source = {"type": "place", "stage": feeder.id, "place": place}
        return (places[place], f"{ordinal(place)}, {feeder.name}", source)

    if playoff_band is None and stage.knockout_rounds == 1 and band.size % 2 == 0:
        # A play-off: one round, first v last of the band and inwards, whatever its size.
        pairs = playoff_pairs(band)
    else:
        pairs = bracket_places(direct=band, playoff=playoff_band)
    ties = [(side(high), side(low)) for high, low in pairs]
    _record(stage, feeder, band, places, user)
    if stage.legs == 2:
        return [(low, high) if BYE not in (high, low) else (high, low) for high, low in ties]
    return ties


def _record(stage: Stage, feeder: Stage, band: Band, places: Mapping[int, Team], user: User | None) -> None:
    """The fill on record: who took which places of which table (no seed: the table decides)."""
    taken = range(band.first, band.last + 1)
    Draw.objects.create(
        stage=stage,
        kind=Draw.Kind.TABLE_PLACES,
        seed=0,
        pots=[[places[p].id for p in taken]],
        result={"feeder": feeder.id, "places": {str(p): places[p].id for p in taken}},
        drawn_by=user if user is not None and user.is_authenticated else None,
        drawn_by_role=actor_role_words(user=user, competition=stage.competition),
    )


def table_refill_record(
    *,
    stage: Stage,
    feeder_id: int,
    changes: Mapping[int, tuple[int | None, int | None]],
    user: User | None,
    cause: str,
) -> Draw:
    """A refill on record, beside the fill it changes (which stays as it was): the places now,
    each changed place with the team before and after, who did it, their role and what caused it.

    ``changes`` is place -> (team id before, team id after); None is a slot emptied (the table is
    open again) or filled for the first time since.
    """
    last = stage.draws.filter(kind=Draw.Kind.TABLE_PLACES).order_by("-drawn_at", "-id").first()
    places: dict[str, int | None] = dict(last.result.get("places", {})) if last else {}
    for place, (_before, after) in changes.items():
        places[str(place)] = after
    order = sorted(places, key=int)
    return Draw.objects.create(
        stage=stage,
        kind=Draw.Kind.TABLE_PLACES,
        seed=0,
        pots=[[places[p] for p in order]],
        result={
            "feeder": feeder_id,
            "places": {p: places[p] for p in order},
            "refill": [
                {"place": place, "before": before, "after": after}
                for place, (before, after) in sorted(changes.items())
            ],
            "cause": cause,
        },
        drawn_by=user if user is not None and user.is_authenticated else None,
        drawn_by_role=actor_role_words(user=user, competition=stage.competition),
    )

"""The next round of a Swiss stage, paired from a table it is given (matches.progress reads the standings
and calls it).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db.models import Max

from kernel.errors import Conflict
from tournaments import announcements
from tournaments.models import (
    Bye,
    Fixture,
    Stage,
)

# FUBA rulebook 3, advanced rules A1–A13 (A12 is referred to but missing from the text; the
# engine accepts it as another name of A13).
from tournaments.services.shared import MatchNumbering
from tournaments.standings.tally import Row
from tournaments.swiss import PairingImpossible, swiss_pair


def swiss_round_create(
    *,
    stage: Stage,
    table: Sequence[Row],
    schedule_start: datetime | None = None,
    deadline_after: timedelta | None = None,
) -> list[Fixture]:
    """Pair the next Swiss round of `stage` (locked by the caller) from its current `table`.

    The table is read by the caller (round 1: no results, every team level), which keeps this
    module below the standings: pairing a later round from the tables is results-driven progress
    (matches.progress.swiss_round_generate).
    """
    current = max(
        stage.fixtures.aggregate(m=Max("round"))["m"] or 0, stage.byes.aggregate(m=Max("round"))["m"] or 0
    )
    if current >= stage.swiss_rounds:
        raise Conflict(f"{stage}: all {stage.swiss_rounds} Swiss rounds are already paired.")
    if stage.fixtures.filter(round=current).exclude(status__in=Fixture.DONE_STATUSES).exists():
        raise Conflict(f"{stage}: round {current} is not finished yet.")
    seeds = {t.id: (t.seed is None, t.seed or 0, t.id) for t in stage.teams.all()}
    # Level teams are ranked by seed, so round 1 pairs the seeds in order.
    ranked = [r.team for r in sorted(table, key=lambda r: (-r.points, -r.buchholz, seeds[r.team]))]
    points = {r.team: r.points for r in table}
    played: set[frozenset[int]] = set()
    home_counts: dict[int, int] = {}
    for home, away in stage.fixtures.values_list("home_team_id", "away_team_id"):
        played.add(frozenset((home, away)))
        home_counts[home] = home_counts.get(home, 0) + 1
    had_bye = set(stage.byes.values_list("team_id", flat=True))
    try:
        pairing = swiss_pair(
            ranked=ranked, points=points, played=played, had_bye=had_bye, home_counts=home_counts
        )
    except PairingImpossible as exc:
        raise Conflict(f"{stage}, round {current + 1}: {exc}.") from None
    rnd = current + 1
    numbering = MatchNumbering(stage.competition)
    teams = {t.id: t for t in stage.teams.all()}
    fixtures = [
        Fixture(
            competition=stage.competition,
            stage=stage,
            round=rnd,
            round_name=f"Round {rnd}",
            home_team=teams[h],
            away_team=teams[a],
            match_number=numbering.take(),
            kickoff=schedule_start,
            deadline=schedule_start + deadline_after if schedule_start and deadline_after else None,
        )
        for h, a in pairing.pairs
    ]
    if pairing.bye is not None:
        Bye.objects.create(stage=stage, round=rnd, team=teams[pairing.bye])
    if stage.status == Stage.Status.PENDING:
        Stage.objects.filter(id=stage.id).update(status=Stage.Status.ACTIVE)
    created = Fixture.objects.bulk_create(fixtures)
    announcements.round_paired.send(
        sender=__name__,
        competition=stage.competition,
        stage_id=stage.pk,
        stage_name=stage.name,
        round=rnd,
        fixtures=created,
        bye=teams[pairing.bye].name if pairing.bye is not None else None,
    )
    return created

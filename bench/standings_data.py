"""Stages of 1,000 to 100,000 teams with 10 played rounds, for the standings benchmarks.

The rounds are paired by simple rules (a circle-method round robin for a league, points order
for a Swiss: the pairing services are not what is measured) and written with PostgreSQL's COPY:
a 100,000-team stage has a million fixture and result rows, which bulk_create takes minutes for.
"""

from __future__ import annotations

import random
from collections import deque
from collections.abc import Iterator, Sequence

from django.db import connection, transaction
from django.db.models import Model


def _copy(model: type[Model], columns: Sequence[str], rows: Iterator[tuple[object, ...]]) -> None:
    table = model._meta.db_table
    cols = ", ".join(f'"{c}"' for c in columns)
    with connection.cursor() as cursor, cursor.cursor.copy(f'COPY "{table}" ({cols}) FROM STDIN') as copy:
        for row in rows:
            copy.write_row(row)


def _ids(model: type[Model], n: int) -> list[int]:
    table = model._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, n]
        )
        return [row[0] for row in cursor.fetchall()]


def league_rounds(ids: Sequence[int], rounds: int, rng: random.Random) -> Iterator[list[tuple[int, int]]]:
    """The first ``rounds`` rounds of a circle-method round robin (an even number of teams)."""
    fixed, rest = ids[0], list(ids[1:])
    half = len(ids) // 2
    for r in range(rounds):
        turned = [fixed, *rest[r:], *rest[:r]]
        yield [(turned[k], turned[-1 - k]) for k in range(half)]


def swiss_pairs(
    ids: Sequence[int], points: dict[int, int], played: set[tuple[int, int]], rng: random.Random
) -> list[tuple[int, int]]:
    """One Swiss round: by points (random among equals), each with the next team not met yet."""
    waiting = deque(sorted(ids, key=lambda t: (-points[t], rng.random())))
    pairs = []
    while len(waiting) >= 2:
        a = waiting.popleft()
        j = next(
            (
                k
                for k in range(min(8, len(waiting)))
                if (min(a, waiting[k]), max(a, waiting[k])) not in played
            ),
            0,
        )
        b = waiting[j]
        del waiting[j]
        played.add((min(a, b), max(a, b)))
        pairs.append((a, b))
    return pairs


def build_stage(*, kind: str, teams: int, rounds: int = 10, seed: int = 1) -> int:
    """A competition with one stage of ``kind`` ("round_robin" or "swiss") and ``rounds`` rounds
    of confirmed results; returns the stage's id."""
    from django.utils import timezone

    from matches.models import Result
    from tournaments.models import Fixture, Stage, Team, TiebreakPreset
    from tournaments.services.competitions import competition_create

    rng = random.Random(seed)
    slug = f"bench-{kind.replace('_', '-')}-{teams}"
    now = timezone.now()
    with transaction.atomic():
        competition = competition_create(
            name=f"Bench {kind} {teams}",
            slug=slug,
            tiebreak_preset=TiebreakPreset.SWISS if kind == "swiss" else TiebreakPreset.FIFA_WORLD_CUP,
        )
        team_objs = Team.objects.bulk_create(
            [Team(competition=competition, name=f"Team {i:06d}") for i in range(teams)], batch_size=5000
        )
        stage = Stage.objects.create(
            competition=competition,
            order=1,
            name=kind,
            kind=kind,
            swiss_rounds=rounds if kind == "swiss" else 0,
        )
        ids = [t.pk for t in team_objs]
        stage.teams.through.objects.bulk_create(
            [stage.teams.through(stage_id=stage.pk, team_id=t) for t in ids], batch_size=5000
        )
        points = dict.fromkeys(ids, 0)
        played: set[tuple[int, int]] = set()
        fixtures: list[tuple[object, ...]] = []
        results: list[tuple[object, ...]] = []
        by_round = league_rounds(ids, rounds, rng) if kind == "round_robin" else None
        for rnd in range(1, rounds + 1):
            pairs = next(by_round) if by_round is not None else swiss_pairs(ids, points, played, rng)
            fixture_ids = _ids(Fixture, len(pairs))
            for fixture_id, (a, b) in zip(fixture_ids, pairs, strict=True):
                h, g = rng.randint(0, 4), rng.randint(0, 4)
                points[a] += 3 if h > g else 1 if h == g else 0
                points[b] += 3 if g > h else 1 if h == g else 0
                fixtures.append(
                    (
                        fixture_id,
                        competition.pk,
                        stage.pk,
                        rnd,
                        f"Round {rnd}",
                        1,
                        fixture_id,
                        a,
                        b,
                        "",
                        "",
                        Fixture.Status.CONFIRMED,
                        now,
                    )
                )
                results.append((fixture_id, h, g, False, Result.Source.ADMIN, now, now))
        _copy(
            Fixture,
            [
                "id",
                "competition_id",
                "stage_id",
                "round",
                "round_name",
                "leg",
                "match_number",
                "home_team_id",
                "away_team_id",
                "home_placeholder",
                "away_placeholder",
                "status",
                "updated_at",
            ],
            iter(fixtures),
        )
        _copy(
            Result,
            ["fixture_id", "home_goals", "away_goals", "extra_time", "source", "created_at", "updated_at"],
            iter(results),
        )
    return stage.pk

"""Competition formats: a whole competition (stages, groups, feeders) set up in one step.

Used by the admin's "new competition" wizard and by the API (`POST /api/v1/competitions/from-format`).
Every stage is made by tournaments.services, so a format applies the same checks as a stage made by
hand. With teams given, a group format draws its groups at once from pots of teams in the listed
order (strongest first), and the draw's seed is recorded.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from kernel.errors import ApplicationError
from tournaments.fixtures import group_letter
from tournaments.models import Competition, Draw, Stage, Team
from tournaments.services.clubs import teams_bulk_create
from tournaments.services.competitions import competition_create
from tournaments.services.drawing import groups_draw
from tournaments.services.league_phase import league_phase_draw
from tournaments.services.stages import stage_create


@dataclass(frozen=True)
class Format:
    key: str
    label: str
    teams: int | None  # the field size it needs; None: any size from 2
    groups: int = 0
    tiebreak_preset: str = "fifa_world_cup"


FORMATS: dict[str, Format] = {
    f.key: f
    for f in (
        Format("league", "League (double round robin)", None),
        Format("world_cup_32", "World Cup, 32 teams (8 groups, round of 16 … final)", 32, groups=8),
        Format(
            "euro_24",
            "Euro, 24 teams (6 groups, 4 best thirds by UEFA's table)",
            24,
            groups=6,
            tiebreak_preset="uefa",
        ),
        Format(
            "champions_league",
            "Champions League style, 32 teams (8 groups, two-legged ties, one-match final)",
            32,
            groups=8,
            tiebreak_preset="uefa",
        ),
        Format("swiss", "Swiss system (rounds: log2 of the field)", None, tiebreak_preset="swiss"),
        Format(
            "league_phase_36",
            "League phase, 36 teams (8 opponents each from 4 pots by seeding order, country caps), "
            "places 9–24 to a two-legged play-off, 1–8 to the round of 16 … one-match final",
            36,
            tiebreak_preset="uefa",
        ),
    )
}


@dataclass(frozen=True)
class Created:
    competition: Competition
    draw: Draw | None


@transaction.atomic
def competition_create_from_format(
    *,
    name: str,
    slug: str,
    format: str,
    teams: Sequence[Mapping[str, Any]] = (),
    seed: int | None = None,
    user: Any = None,
    **settings: Any,
) -> Created:
    """Create the competition, its teams (optional for group formats) and every stage of the format."""
    spec = FORMATS.get(format)
    if spec is None:
        raise ApplicationError(
            f"Unknown format '{format}'; choose one of {', '.join(FORMATS)}.", details={"field": "format"}
        )
    if spec.teams is not None and teams and len(teams) != spec.teams:
        raise ApplicationError(
            f"The {spec.label} format needs {spec.teams} teams; {len(teams)} were given.",
            details={"field": "teams"},
        )
    if spec.teams is None and len(teams) < 2:
        raise ApplicationError(
            f"The {spec.label} format needs its teams (at least two).", details={"field": "teams"}
        )
    settings.setdefault("tiebreak_preset", spec.tiebreak_preset)
    if format == "world_cup_32":
        settings.setdefault("is_world_cup", True)
    competition = competition_create(name=name, slug=slug, creator=user, **settings)
    entered = teams_bulk_create(competition=competition, rows=list(teams)) if teams else []
    draw = _stages(competition, spec, entered, seed, user)
    return Created(competition=competition, draw=draw)


def _stages(
    competition: Competition, spec: Format, teams: list[Team], seed: int | None, user: Any
) -> Draw | None:
    def stage(name: str, kind: str, **kwargs: Any) -> Stage:
        return stage_create(competition=competition, name=name, kind=kind, **kwargs)

    if spec.key == "league":
        stage("League", Stage.Kind.ROUND_ROBIN, legs=2, teams=teams)
        return None
    if spec.key == "league_phase_36":
        # Drawn at once (pots by the listed order, no two of a country, at most 2 of one) when the
        # teams are given, as a group format draws its groups.
        if not teams:
            raise ApplicationError(
                f"The {spec.label} format needs its {spec.teams} teams.", details={"field": "teams"}
            )
        phase = stage("League phase", Stage.Kind.LEAGUE_PHASE, teams=teams)
        # 2024/25: places 9–24 to a two-legged play-off, 1–8 straight to the round of 16
        # (tournaments.table_feed: the pairing by places).
        playoff = stage(
            "Knockout play-off",
            Stage.Kind.KNOCKOUT,
            legs=2,
            knockout_rounds=1,
            feeder=phase,
            feed_places_from=9,
            feed_places_to=24,
        )
        stage(
            "Round of 16 to semi-finals",
            Stage.Kind.KNOCKOUT,
            legs=2,
            knockout_rounds=3,
            feeder=phase,
            feed_places_from=1,
            feed_places_to=8,
            feed_playoff=playoff,
        )
        stage("Final", Stage.Kind.KNOCKOUT)
        pots = [teams[i : i + 9] for i in range(0, 36, 9)]
        return league_phase_draw(stage=phase, pots=pots, seed=seed, user=user)
    if spec.key == "swiss":
        stage(
            "Swiss rounds",
            Stage.Kind.SWISS,
            teams=teams,
            swiss_rounds=max(1, math.ceil(math.log2(len(teams)))),
        )
        return None
    groups = stage(
        "Group stage",
        Stage.Kind.GROUPS,
        groups={group_letter(i): [] for i in range(spec.groups)},
        best_thirds=4 if spec.key == "euro_24" else 0,
    )
    if spec.key == "world_cup_32":
        stage("Round of 16", Stage.Kind.KNOCKOUT, knockout_rounds=1)
        stage("Quarter-finals", Stage.Kind.KNOCKOUT, knockout_rounds=1)
        stage("Semi-finals", Stage.Kind.KNOCKOUT, knockout_rounds=1)
        stage("Third place and final", Stage.Kind.KNOCKOUT, third_place_match=True)
    elif spec.key == "euro_24":
        stage("Knockout stage", Stage.Kind.KNOCKOUT)
    else:
        stage("Knockout ties", Stage.Kind.KNOCKOUT, legs=2, knockout_rounds=3, away_goals_rule=False)
        stage("Final", Stage.Kind.KNOCKOUT)
    if not teams:
        return None
    per_pot = spec.groups
    pots = [teams[i : i + per_pot] for i in range(0, len(teams), per_pot)]
    return groups_draw(stage=groups, pots=pots, seed=seed, user=user)

"""A competition's shape, as an organiser describes it: how many teams, groups of any size or a
league, a knockout only or Swiss rounds, who goes through, and the knockout that follows.

`shape_preview` checks a shape and describes the groups and the bracket before anything is
stored (the knockout's size against what the groups can produce); `competition_create_from_shape`
then makes the competition, its teams and stages through the services. The fixed formats of the
wizard are presets of this (SHAPE_PRESETS).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import transaction

from kernel.errors import ApplicationError
from tournaments.fixtures import group_letter, groups_to_knockout_slots, is_power_of_two
from tournaments.models import Competition, Stage
from tournaments.services.clubs import teams_bulk_create
from tournaments.services.competitions import competition_create
from tournaments.services.stages import stage_create
from tournaments.table_feed import Band, band_problem, playoff_problem


@dataclass(frozen=True)
class Shape:
    structure: str  # "groups" (then a knockout), "league", "knockout", "swiss", "league_phase"
    teams: int
    groups: int = 0
    advance_per_group: int = 2
    best_thirds: int = 0
    thirds_placing: str = Stage.ThirdsPlacing.EURO_2024
    group_legs: int = 1
    knockout_legs: int = 1
    swiss_rounds: int = 0
    # League phase: opponents per team, two from each pot (so opponents / 2 pots).
    opponents: int = 8
    # After a table (league, Swiss, league phase): places straight into a knockout (0: none), and
    # the places below them in a play-off whose winners join it (tournaments.table_feed).
    direct_places: int = 0
    playoff_places: int = 0
    third_place_match: bool = False
    extra_time: bool = True
    penalties: bool = True
    tiebreak_preset: str = "fifa_world_cup"


STRUCTURES = {
    "groups": "Groups, then a knockout",
    "league": "A league (everyone plays everyone)",
    "knockout": "A knockout only",
    "swiss": "Swiss rounds",
    "league_phase": "A league phase (one table, opponents drawn from pots)",
}

# The structures with one final table, which a knockout may follow by places (direct_places,
# playoff_places); the others take no places.
TABLE_STRUCTURES = ("league", "swiss", "league_phase")

SHAPE_PRESETS: dict[str, tuple[str, Shape]] = {
    "cup_8": (
        "8-team cup: 2 groups of 4, semi-finals and a final",
        Shape("groups", 8, groups=2, advance_per_group=2),
    ),
    "final_8": (
        "8 teams: 2 groups of 4, the winners meet in a final",
        Shape("groups", 8, groups=2, advance_per_group=1),
    ),
    "world_cup_32": (
        "World Cup: 32 teams, 8 groups, round of 16",
        Shape("groups", 32, groups=8, third_place_match=True),
    ),
    "euro_24": (
        "Euro 2020/2024: 24 teams, 6 groups, 4 best thirds",
        Shape("groups", 24, groups=6, best_thirds=4, tiebreak_preset="uefa"),
    ),
    "euro_2016": (
        "Euro 2016: 24 teams, 6 groups, 4 best thirds (winners of A–D meet thirds)",
        Shape("groups", 24, groups=6, best_thirds=4, thirds_placing="euro_2016", tiebreak_preset="uefa"),
    ),
    "champions_league": (
        "Champions League style: 32 teams, 8 groups (double), two-legged ties",
        Shape("groups", 32, groups=8, group_legs=2, knockout_legs=2, tiebreak_preset="uefa"),
    ),
    "league": ("League: double round robin", Shape("league", 10, group_legs=2)),
    "swiss": ("Swiss: 20 teams, 5 rounds", Shape("swiss", 20, swiss_rounds=5, tiebreak_preset="swiss")),
    "league_phase_36": (
        "Champions League 2024/25: 36 teams, league phase, 9–24 to a play-off, 1–8 to the round of 16",
        Shape(
            "league_phase",
            36,
            opponents=8,
            direct_places=8,
            playoff_places=16,
            knockout_legs=2,
            tiebreak_preset="uefa",
        ),
    ),
}


@dataclass(frozen=True)
class Preview:
    groups: list[tuple[str, int]]  # group name, teams in it
    rounds: list[str]  # knockout rounds in order, e.g. ["Semi-finals", "Final"]
    first_round: list[tuple[str, str]]  # the knockout's first ties, as labels
    notes: list[str]


def round_name(size: int) -> str:
    return {2: "Final", 4: "Semi-finals", 8: "Quarter-finals"}.get(size, f"Round of {size}")


def _invalid(message: str, field: str) -> ApplicationError:
    return ApplicationError(message, details={"field": field})


def _knockout_rounds(size: int, third_place: bool) -> list[str]:
    rounds = []
    while size >= 2:
        rounds.append(round_name(size))
        size //= 2
    if third_place and len(rounds) >= 2:
        rounds.insert(len(rounds) - 1, "Third place")
    return rounds


def shape_preview(shape: Shape) -> Preview:
    """The groups and the bracket the shape makes, or the reason it cannot work (naming the field)."""
    if shape.structure not in STRUCTURES:
        raise _invalid(f"Choose the structure: {', '.join(STRUCTURES)}.", "structure")
    if not 2 <= shape.teams <= 256:
        raise _invalid("A competition has 2 to 256 teams.", "teams")
    notes: list[str] = []
    if shape.structure in TABLE_STRUCTURES:
        return _after_the_table(shape, _table_preview(shape, notes))
    for field in ("direct_places", "playoff_places"):
        if getattr(shape, field):
            # Refused rather than dropped: the organiser typed a knockout that would not be made.
            raise _invalid(
                f"Places after a table apply to a league, Swiss rounds or a league phase; "
                f"{STRUCTURES[shape.structure].lower()} takes none: leave it at 0.",
                field,
            )
    if shape.structure == "knockout":
        size = 1
        while size < shape.teams:
            size *= 2
        if size != shape.teams:
            notes.append(f"{size - shape.teams} of the top seeds have a bye in the first round.")
        return Preview([], _knockout_rounds(size, shape.third_place_match), [], notes)
    return _groups_preview(shape, notes)


def _table_preview(shape: Shape, notes: list[str]) -> Preview:
    if shape.structure == "league":
        legs = "twice" if shape.group_legs == 2 else "once"
        return Preview([("League", shape.teams)], [], [], [f"Every team meets every other {legs}."])
    if shape.structure == "swiss":
        if not 1 <= shape.swiss_rounds < shape.teams:
            raise _invalid(f"{shape.teams} teams play 1 to {shape.teams - 1} Swiss rounds.", "swiss_rounds")
        if shape.teams % 2:
            notes.append("An odd field: one team has a bye each round.")
        return Preview(
            [("Swiss", shape.teams)], [f"Round {r + 1}" for r in range(shape.swiss_rounds)], [], notes
        )
    return _league_phase_preview(shape)


def table_knockout_bands(shape: Shape) -> tuple[Band | None, Band | None]:
    """The places a knockout after the table takes directly, and those of its play-off."""
    if not shape.direct_places:
        if shape.playoff_places:
            raise _invalid(
                "A play-off feeds a knockout: give the places that go straight in.", "direct_places"
            )
        return None, None
    direct = Band(1, shape.direct_places)
    playoff = (
        Band(shape.direct_places + 1, shape.direct_places + shape.playoff_places)
        if shape.playoff_places
        else None
    )
    for band, field in ((direct, "direct_places"), (playoff, "playoff_places")):
        problem = band_problem(band=band, table_size=shape.teams) if band else None
        if problem:
            raise _invalid(f"After the table: {problem}.", field)
    if playoff is not None:
        problem = playoff_problem(direct=direct, playoff=playoff, playoff_rounds=1)
        if problem:
            raise _invalid(f"After the table: {problem}.", "playoff_places")
    elif not is_power_of_two(direct.size):
        raise _invalid(
            f"{direct.size} places straight into a knockout: give 2, 4, 8, 16 … (or add a play-off).",
            "direct_places",
        )
    return direct, playoff


def _after_the_table(shape: Shape, preview: Preview) -> Preview:
    direct, playoff = table_knockout_bands(shape)
    if direct is None:
        return preview
    size = direct.size + (playoff.size // 2 if playoff else 0)
    rounds = _knockout_rounds(size, shape.third_place_match)
    notes = list(preview.notes)
    if playoff is not None:
        rounds = ["Play-off", *rounds]
        head = size  # the play-off tie place 1 waits for is headed by the bracket's last seed
        notes.append(
            f"Places {playoff.first}–{playoff.last} play a play-off ({playoff.first} v {playoff.last} …); "
            f"its winners meet places 1–{direct.last} (1 v the winner of {head} v "
            f"{playoff.first + playoff.last - head} …). Made from the final table."
        )
    else:
        notes.append(f"Places 1–{direct.last} go through, seeded by place. Made from the final table.")
    return Preview(preview.groups, [*preview.rounds, *rounds], preview.first_round, notes)


def _league_phase_preview(shape: Shape) -> Preview:
    """Two opponents from each pot: opponents / 2 pots of equal size, at least 3 teams each."""
    pots = shape.opponents // 2
    if shape.opponents < 2 or shape.opponents % 2 or shape.opponents > 20:
        raise _invalid("Opponents per team: an even number from 2 to 20 (two from each pot).", "opponents")
    if shape.teams % pots or shape.teams // pots < 3:
        raise _invalid(
            f"{shape.opponents} opponents need {pots} pots of equal size, at least 3 teams each; "
            f"{shape.teams} teams do not split so.",
            "opponents",
        )
    size = shape.teams // pots
    notes = [
        f"{pots} pots of {size}; each team meets {shape.opponents} opponents, one at home and one away "
        "from each pot, over as many matchdays. The pots are drawn on the Draw step.",
    ]
    return Preview([("League phase", shape.teams)], [], [], notes)


def _groups_preview(shape: Shape, notes: list[str]) -> Preview:
    if not 1 <= shape.groups <= 26:
        raise _invalid("1 to 26 groups.", "groups")
    if shape.teams < 2 * shape.groups:
        raise _invalid(f"{shape.teams} teams cannot fill {shape.groups} groups of at least two.", "groups")
    base, extra = divmod(shape.teams, shape.groups)
    groups = [(group_letter(i), base + (1 if i < extra else 0)) for i in range(shape.groups)]
    if not 1 <= shape.advance_per_group <= 2:
        raise _invalid("One or two teams per group go through (plus best-placed teams).", "advance_per_group")
    smallest = min(size for _n, size in groups)
    if shape.advance_per_group >= smallest:
        raise _invalid(
            f"{shape.advance_per_group} of a group of {smallest} would all go through.", "advance_per_group"
        )
    rank = shape.advance_per_group + 1
    able = sum(1 for _n, size in groups if size >= rank)
    if shape.best_thirds > able:
        # Best-placed teams of a rank need groups that have that rank.
        raise _invalid(
            f"Only {able} groups have a No. {rank}: {shape.best_thirds} best-placed teams of that rank "
            "cannot be found.",
            "best_thirds",
        )
    qualifiers = shape.groups * shape.advance_per_group + shape.best_thirds
    if qualifiers < 2:
        raise _invalid("At least two teams go through to the knockout.", "advance_per_group")
    if not is_power_of_two(qualifiers):
        raise _invalid(
            f"{shape.groups} groups × {shape.advance_per_group} + {shape.best_thirds} best-placed = "
            f"{qualifiers} teams, which is not a knockout of 2, 4, 8, 16 … teams.",
            "best_thirds",
        )
    try:
        slots = groups_to_knockout_slots(
            stage_id=0,
            group_names=[n for n, _s in groups],
            advance=shape.advance_per_group,
            best_thirds=shape.best_thirds,
            thirds_table=shape.thirds_placing,
        )
    except ValueError as exc:
        raise _invalid(f"The knockout cannot be drawn up: {exc}.", "best_thirds") from None
    if unequal := extra:
        notes.append(f"{unequal} group(s) have one team more.")
    return Preview(
        groups,
        _knockout_rounds(qualifiers, shape.third_place_match),
        [(a.label, b.label) for a, b in slots],
        notes,
    )


@transaction.atomic
def competition_create_from_shape(
    *,
    name: str,
    slug: str,
    shape: Shape,
    teams: Sequence[Mapping[str, Any]] = (),
    game_system: str = Competition.GameSystem.FUBA_3,
    advanced_rules: Sequence[str] = (),
    creator: Any = None,
) -> Competition:
    """The competition, its teams and its stages; a group stage's groups stay empty, to be drawn.
    The creator (when given) becomes its organiser."""
    shape_preview(shape)
    if teams and len(teams) != shape.teams:
        raise _invalid(f"The shape has {shape.teams} teams; {len(teams)} were entered.", "teams")
    if shape.structure != "groups" and not teams:
        raise _invalid(
            "Enter the teams: a league, a league phase, a knockout or Swiss rounds start with them.", "teams"
        )
    competition = competition_create(
        name=name,
        slug=slug,
        game_system=game_system,
        advanced_rules=list(advanced_rules),
        tiebreak_preset=shape.tiebreak_preset,
        creator=creator,
    )
    entered = teams_bulk_create(competition=competition, rows=list(teams)) if teams else []
    knockout: dict[str, Any] = {
        "legs": shape.knockout_legs,
        "third_place_match": shape.third_place_match,
        "extra_time": shape.extra_time,
        "penalties": shape.penalties,
    }
    if shape.structure == "league":
        table = stage_create(
            competition=competition,
            name="League",
            kind=Stage.Kind.ROUND_ROBIN,
            legs=shape.group_legs,
            teams=entered,
        )
        _table_knockouts(competition, table, shape, knockout)
    elif shape.structure == "swiss":
        table = stage_create(
            competition=competition,
            name="Swiss rounds",
            kind=Stage.Kind.SWISS,
            swiss_rounds=shape.swiss_rounds,
            teams=entered,
        )
        _table_knockouts(competition, table, shape, knockout)
    elif shape.structure == "league_phase":
        table = stage_create(
            competition=competition, name="League phase", kind=Stage.Kind.LEAGUE_PHASE, teams=entered
        )
        _table_knockouts(competition, table, shape, knockout)
    elif shape.structure == "knockout":
        stage_create(
            competition=competition, name="Knockout", kind=Stage.Kind.KNOCKOUT, teams=entered, **knockout
        )
    else:
        stage_create(
            competition=competition,
            name="Group stage",
            kind=Stage.Kind.GROUPS,
            groups={group_letter(i): [] for i in range(shape.groups)},
            legs=shape.group_legs,
            advance_per_group=shape.advance_per_group,
            best_thirds=shape.best_thirds,
            thirds_placing=shape.thirds_placing,
        )
        stage_create(competition=competition, name="Knockout", kind=Stage.Kind.KNOCKOUT, **knockout)
    return competition


def _table_knockouts(competition: Competition, table: Stage, shape: Shape, knockout: dict[str, Any]) -> None:
    """The knockout after a table: its play-off first, then the bracket; two-legged ties up to
    the semi-finals and a one-match final, as the Champions League plays them."""
    direct, playoff = table_knockout_bands(shape)
    if direct is None:
        return
    fed: dict[str, Any] = {"feeder": table, "feed_places_from": direct.first, "feed_places_to": direct.last}
    if playoff is not None:
        fed["feed_playoff"] = stage_create(
            competition=competition,
            name="Knockout play-off",
            kind=Stage.Kind.KNOCKOUT,
            knockout_rounds=1,
            feeder=table,
            feed_places_from=playoff.first,
            feed_places_to=playoff.last,
            **{**knockout, "third_place_match": False},
        )
    size = direct.size + (playoff.size // 2 if playoff else 0)
    rounds = size.bit_length() - 1
    if knockout["legs"] == 2 and rounds > 1:
        name = f"{round_name(size)} to semi-finals" if rounds > 2 else "Semi-finals"
        stage_create(
            competition=competition,
            name=name,
            kind=Stage.Kind.KNOCKOUT,
            knockout_rounds=rounds - 1,
            **{**knockout, "third_place_match": False},
            **fed,
        )
        stage_create(
            competition=competition, name="Final", kind=Stage.Kind.KNOCKOUT, **{**knockout, "legs": 1}
        )
        return
    stage_create(competition=competition, name="Knockout", kind=Stage.Kind.KNOCKOUT, **knockout, **fed)

"""Pure pairing algorithms: round robin by the circle method and knockout bracket layouts.

Nothing here touches the database; tournaments.services turns the pairings into Fixture rows.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from tournaments.bracket import (
    UEFA_EURO_2016_TABLE,
    UEFA_EURO_2016_THIRD_OPPONENTS,
    UEFA_EURO_TABLE,
    UEFA_EURO_THIRD_OPPONENTS,
)

T = TypeVar("T", bound=Hashable)


def round_robin_rounds(teams: Sequence[T], *, legs: int = 1) -> list[list[tuple[T, T]]]:
    """Rounds of (home, away) pairs by the circle (Berger) method.

    One team stays fixed while the others rotate. The fixed team alternates home and away,
    and the other pairs alternate by round and by board, so in a single round robin every
    team's home count differs from its away count by at most one; the second leg mirrors
    the first with venues swapped, so a double round robin is exactly balanced.
    An odd field gets a dummy opponent: whoever meets it sits the round out.
    """
    if legs not in (1, 2):
        raise ValueError("legs must be 1 or 2")
    players: list[T | None] = list(teams)
    if len(set(players)) != len(players):
        raise ValueError("a team appears twice in the round robin")
    if len(players) < 2:
        return []
    if len(players) % 2:
        # The dummy takes the fixed seat, so the venue alternation of the rotating teams decides
        # every real team's balance.
        players.insert(0, None)
    n = len(players)
    fixed, rotating = players[0], players[1:]
    first_leg: list[list[tuple[T, T]]] = []
    for rnd in range(n - 1):
        ring = rotating[rnd:] + rotating[:rnd]
        pairs: list[tuple[T | None, T | None]] = []
        # The fixed team meets the rotating team at the far end of the ring.
        opponent = ring[-1]
        pairs.append((fixed, opponent) if rnd % 2 == 0 else (opponent, fixed))
        for board in range(1, n // 2):
            a, b = ring[board - 1], ring[n - 2 - board]
            pairs.append((a, b) if board % 2 == 1 else (b, a))
        first_leg.append([(h, a) for h, a in pairs if h is not None and a is not None])
    if legs == 1:
        return first_leg
    return first_leg + [[(a, h) for h, a in rnd_pairs] for rnd_pairs in first_leg]


def round_name(teams_left: int) -> str:
    return {2: "Final", 4: "Semi-finals", 8: "Quarter-finals"}.get(teams_left, f"Round of {teams_left}")


def is_power_of_two(n: int) -> bool:
    return n >= 2 and (n & (n - 1)) == 0


def seeded_bracket_order(size: int) -> list[int]:
    """Seed numbers in bracket order so that seeds 1 and 2 can only meet in the final."""
    order = [1]
    while len(order) < size:
        total = len(order) * 2 + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return order


@dataclass(frozen=True)
class Slot:
    """One side of a first-round knockout tie, described before the teams are known."""

    label: str
    source: dict[str, Any]


def group_letter(index: int) -> str:
    return chr(ord("A") + index)


def group_qualifiers_problem(*, sizes: Mapping[str, int], advance: int, best_thirds: int) -> str | None:
    """Why these groups cannot produce the knockout's qualifiers, or None.

    Each group sends its first ``advance`` teams, and the best ``best_thirds`` teams placed
    ``advance + 1`` come from the groups that have such a place: a group of two has no third.
    """
    short = sorted(name for name, n in sizes.items() if 0 < n < advance)
    if short:
        return (
            f"group {', '.join(short)} has fewer than {advance} teams, so it cannot send {advance} "
            "to the knockout"
        )
    rank = advance + 1
    with_rank = sorted(name for name, n in sizes.items() if n >= rank)
    if best_thirds > len(with_rank):
        placed = {1: "first", 2: "second", 3: "third"}.get(rank, f"No. {rank}")
        return (
            f"{best_thirds} best {placed}-placed teams are to go through, but only {len(with_rank)} "
            f"group(s) have a {placed} place ({', '.join(with_rank) or 'none'}: groups of "
            f"{', '.join(f'{name} {n}' for name, n in sorted(sizes.items()))} teams)"
        )
    return None


def groups_to_knockout_slots(
    *,
    stage_id: int,
    group_names: Sequence[str],
    advance: int,
    best_thirds: int,
    thirds_table: str = "euro_2024",
) -> list[tuple[Slot, Slot]]:
    """First knockout round fed by a group stage, in bracket order.

    Two per group and no thirds is the World Cup pattern: groups are paired (A with B, C with D …),
    1A v 2B, 1C v 2D … in the top half and 1B v 2A, 1D v 2C … in the bottom half, so the two
    teams of one group can only meet again in the final. With best third-placed teams (uneven
    numbers, as at Euro 2016), the first group winners meet the thirds, whose slots are filled
    once the group stage is over so that nobody meets a team from its own group. Six groups with
    four best thirds follow UEFA's tables: `thirds_table` "euro_2024" (EURO 2020 and 2024) or
    "euro_2016".
    """
    g = len(group_names)

    def rank_slot(name: str, rank: int) -> Slot:
        ordinal = {1: "Winner", 2: "Runner-up", 3: "Third"}.get(rank, f"No. {rank}")
        return Slot(
            f"{ordinal} group {name}", {"type": "group", "stage": stage_id, "group": name, "rank": rank}
        )

    qualifiers = g * advance + best_thirds
    if g == 6 and advance == 2 and best_thirds == 4:
        if thirds_table == "euro_2016":
            return _uefa_euro_2016_round_of_16(stage_id, group_names, rank_slot)
        return _uefa_euro_round_of_16(stage_id, group_names, rank_slot)
    if not is_power_of_two(qualifiers):
        raise ValueError(
            f"{g} groups × {advance} qualifiers + {best_thirds} best thirds = {qualifiers} teams, "
            "which is not a power of two"
        )
    if advance == 1 and best_thirds == 0:
        return [(rank_slot(group_names[i], 1), rank_slot(group_names[i + 1], 1)) for i in range(0, g, 2)]
    if advance != 2:
        raise ValueError(
            "a group stage can send one or two teams per group (plus best thirds) to the knockout"
        )
    if best_thirds == 0:
        if g % 2:
            raise ValueError("the World Cup pattern needs an even number of groups")
        top = [(rank_slot(group_names[i], 1), rank_slot(group_names[i + 1], 2)) for i in range(0, g, 2)]
        bottom = [(rank_slot(group_names[i + 1], 1), rank_slot(group_names[i], 2)) for i in range(0, g, 2)]
        return top + bottom
    if best_thirds > g:
        raise ValueError("there cannot be more best third-placed teams than groups")
    ties: list[tuple[Slot, Slot]] = []
    for k in range(best_thirds):
        third = Slot(
            f"Best third-placed team {k + 1}",
            {"type": "best_third", "stage": stage_id, "slot": k, "against_group": group_names[k]},
        )
        ties.append((rank_slot(group_names[k], 1), third))
    runners = list(group_names)
    for name in group_names[best_thirds:]:
        # A winner without a third meets the runner-up of the next group that is still free.
        pick = next(r for r in runners[group_names.index(name) + 1 :] + runners if r != name)
        runners.remove(pick)
        ties.append((rank_slot(name, 1), rank_slot(pick, 2)))
    while runners:
        a = runners.pop(0)
        b = runners.pop(0)
        ties.append((rank_slot(a, 2), rank_slot(b, 2)))
    return ties


def _uefa_euro_round_of_16(
    stage_id: int, group_names: Sequence[str], rank_slot: Any
) -> list[tuple[Slot, Slot]]:
    """The EURO 2024 round of 16 in bracket order (matches 39, 37, 41, 42, 40, 38, 43, 44).

    Winners of B, C, E and F meet best thirds placed by UEFA_EURO_THIRDS; the six groups are taken
    as A–F in name order.
    """
    letter = {chr(ord("A") + i): name for i, name in enumerate(group_names)}

    def third(vs: str) -> Slot:
        k = UEFA_EURO_THIRD_OPPONENTS.index(vs)
        return Slot(
            f"Third-placed team vs winner group {letter[vs]}",
            {
                "type": "best_third",
                "stage": stage_id,
                "slot": k,
                "against_group": letter[vs],
                "table": UEFA_EURO_TABLE,
            },
        )

    def r(g: str, rank: int) -> Slot:
        return rank_slot(letter[g], rank)

    return [
        (r("B", 1), third("B")),
        (r("A", 1), r("C", 2)),
        (r("F", 1), third("F")),
        (r("D", 2), r("E", 2)),
        (r("C", 1), third("C")),
        (r("A", 2), r("B", 2)),
        (r("E", 1), third("E")),
        (r("D", 1), r("F", 2)),
    ]


def _uefa_euro_2016_round_of_16(
    stage_id: int, group_names: Sequence[str], rank_slot: Any
) -> list[tuple[Slot, Slot]]:
    """The EURO 2016 round of 16 in bracket order (its matches 1 to 8: 37, 39, 38, 42, 41, 43, 40, 44)."""
    letter = {chr(ord("A") + i): name for i, name in enumerate(group_names)}

    def third(vs: str) -> Slot:
        return Slot(
            f"Third-placed team vs winner group {letter[vs]}",
            {
                "type": "best_third",
                "stage": stage_id,
                "slot": UEFA_EURO_2016_THIRD_OPPONENTS.index(vs),
                "against_group": letter[vs],
                "table": UEFA_EURO_2016_TABLE,
            },
        )

    def r(g: str, rank: int) -> Slot:
        return rank_slot(letter[g], rank)

    return [
        (r("A", 2), r("C", 2)),
        (r("D", 1), third("D")),
        (r("B", 1), third("B")),
        (r("F", 1), r("E", 2)),
        (r("C", 1), third("C")),
        (r("E", 1), r("D", 2)),
        (r("A", 1), third("A")),
        (r("B", 2), r("F", 2)),
    ]

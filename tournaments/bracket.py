"""The pure rules of a knockout bracket, fed by model rows (matches.progress, matches.knockout)
or by scenario rows (the chances simulator), so both fill the same slots with the same teams.

- Slots: a slot's source ("Winner group A", "Best third-placed team 2", "Winner match 49") names
  what feeds it; `slot_team` reads the team from whatever the caller knows (`SlotFeeds`).
- Best thirds: `place_best_thirds` puts the ranked third-placed teams into their slots, by UEFA's
  placing table when the slots name one (EURO 2016, EURO 2020/2024: `THIRDS_TABLES`; a new table
  is one more entry there), otherwise best-ranked first, never against their own group's winner.
- Ties: `tie_decision` says who goes through a one- or two-legged tie from its legs' scores:
  a forfeit (awarded score) in either leg decides it outright, then the aggregate, the away-goals
  rule if the stage plays it, extra time (already in the deciding leg's score) and the shoot-out.

Nothing here reads the database.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Protocol

from matchplay.engine_door import Tie, tie_level


@dataclass(frozen=True)
class Score:
    """A match's score: goals (after extra time when it was played) and, in a knockout tie, the
    shoot-out; the results services take it as one value."""

    home_goals: int
    away_goals: int
    extra_time: bool = False
    home_penalties: int | None = None
    away_penalties: int | None = None


@dataclass(frozen=True)
class TieOutcome:
    winner_id: int
    loser_id: int
    decided_by: str  # "score", "aggregate", "away_goals", "penalties" or "awarded"


@dataclass(frozen=True)
class Leg:
    """One match of a tie: its two teams and its counted score (None: not played yet)."""

    home: int
    away: int
    score: Score | None
    awarded: bool = False


def level_after_goals(*, away_goals_rule: bool, first: Score | None, last: Score) -> tuple[int, int, str]:
    """(goals of the last match's home side, goals of its away side, how) after goals and away goals.

    For a two-legged tie, the last match's home side was the away side of the first leg.
    """
    if first is None:
        return last.home_goals, last.away_goals, "score"
    home_total = last.home_goals + first.away_goals
    away_total = last.away_goals + first.home_goals
    if home_total != away_total or not away_goals_rule:
        return home_total, away_total, "aggregate"
    # Away goals: the second leg's home side scored its away goals in the first leg.
    return first.away_goals, last.away_goals, "away_goals"


def needs_decider(*, away_goals_rule: bool, first: Score | None, last: Score) -> bool:
    """Whether the tie is level after goals (and away goals): extra time or a shoot-out must follow.

    The rule is the engine's (`tie_level`, which the scorer's extra-time question asks too), so the
    league and the engine cannot disagree on it.
    """
    if first is None:
        return tie_level(Tie(legs=1), last.home_goals, last.away_goals)
    # The last match's home side was the first leg's away side.
    tie = Tie(legs=2, first_leg=(first.away_goals, first.home_goals), away_goals=away_goals_rule)
    return tie_level(tie, last.home_goals, last.away_goals)


def tie_decision(*, away_goals_rule: bool, legs: Sequence[Leg]) -> TieOutcome | None:
    """Who goes through a tie of one or two legs (in leg order); None while it is not decided."""
    # A forfeit loses the tie outright, whatever the other leg says (the awarded score, e.g. 3-0,
    # could otherwise be overturned on aggregate or away goals).
    for leg in legs:
        if leg.awarded and leg.score is not None and leg.score.home_goals != leg.score.away_goals:
            if leg.score.home_goals > leg.score.away_goals:
                return TieOutcome(leg.home, leg.away, "awarded")
            return TieOutcome(leg.away, leg.home, "awarded")
    if not legs or any(leg.score is None for leg in legs):
        return None
    last_leg = legs[-1]
    last = last_leg.score
    assert last is not None  # every leg has a score (checked above)
    first = legs[0].score if len(legs) == 2 else None
    h, a, how = level_after_goals(away_goals_rule=away_goals_rule, first=first, last=last)
    if h == a:
        if (
            last.home_penalties is None
            or last.away_penalties is None
            or last.home_penalties == last.away_penalties
        ):
            return None
        h, a, how = last.home_penalties, last.away_penalties, "penalties"
    if h > a:
        return TieOutcome(last_leg.home, last_leg.away, how)
    return TieOutcome(last_leg.away, last_leg.home, how)


class SlotFeeds(Protocol):
    """What fills slots: the league reads it from the database, the simulator from its run."""

    def group_order(self, stage: int, group: str) -> Sequence[int] | None:
        """The group's final order (team ids), None while it is not complete."""

    def best_thirds(self, stage: int) -> Mapping[int, int]:
        """Best-third slot -> team id, empty while the group stage is not complete."""

    def tie(self, match: int) -> TieOutcome | None:
        """The outcome of the tie with this match number, None while it is not decided."""

    def table_place(self, stage: int, place: int) -> int | None:
        """The team at this place of a final table (a knockout fed by places), None while the
        table is open or level where its places decide."""


def slot_team(source: Mapping[str, Any] | None, feeds: SlotFeeds) -> int | None:
    """The team a slot's source names, None while what feeds it is not decided."""
    if not source:
        return None
    kind = source.get("type")
    if kind == "group":
        order = feeds.group_order(int(source["stage"]), str(source["group"]))
        rank = int(source["rank"])
        return order[rank - 1] if order and len(order) >= rank else None
    if kind == "best_third":
        return feeds.best_thirds(int(source["stage"])).get(int(source["slot"]))
    if kind == "place":
        return feeds.table_place(int(source["stage"]), int(source["place"]))
    if kind in ("winner", "loser"):
        outcome = feeds.tie(int(source["match"]))
        if outcome is None:
            return None
        return outcome.winner_id if kind == "winner" else outcome.loser_id
    return None


def best_third_slots(sources: Sequence[Mapping[str, Any]], stage: int) -> tuple[dict[int, str], str]:
    """The best-third slots of a group stage (slot -> the group whose winner it meets) and the
    placing table they name ("" when none), from the knockout fixtures' slot sources."""
    slots: dict[int, str] = {}
    table = ""
    for src in sources:
        if src.get("type") == "best_third" and int(src["stage"]) == stage:
            slots[int(src["slot"])] = str(src.get("against_group", ""))
            if src.get("table") in THIRDS_TABLES:
                table = str(src["table"])
    return slots, table


def place_best_thirds(
    *, ranked: Sequence[tuple[int, str]], slots: Mapping[int, str], table: str, group_names: Sequence[str]
) -> dict[int, int]:
    """Best-third slot -> team, for the thirds ranked best first as (team, group).

    With a placing table (`THIRDS_TABLES`), the combination of groups the qualifying thirds come
    from decides; otherwise the best-ranked thirds take the first slots they can, never meeting
    their own group's winner.
    """
    if table in THIRDS_TABLES:
        placed = uefa_euro_thirds(qualified=[g for _t, g in ranked], group_names=group_names, table=table)
        team_of = {g: t for t, g in ranked}
        return {s: team_of[g] for s, g in placed.items() if s in slots}
    order = sorted(slots)
    for perm in permutations(ranked, len(order)):
        if all(group != slots[s] for (_t, group), s in zip(perm, order, strict=True)):
            return {s: team for (team, _g), s in zip(perm, order, strict=True)}
    return {}


# UEFA EURO 2020 / 2024 regulations (art. 20/21, table of the round of 16): which best third-placed
# team meets which group winner, by the groups the four qualifying thirds come from. The columns
# are the opponents of the winners of groups B, C, E and F, in that order.
UEFA_EURO_THIRDS: dict[str, tuple[str, str, str, str]] = {
    "ABCD": ("A", "D", "B", "C"),
    "ABCE": ("A", "E", "B", "C"),
    "ABCF": ("A", "F", "B", "C"),
    "ABDE": ("D", "E", "A", "B"),
    "ABDF": ("D", "F", "A", "B"),
    "ABEF": ("E", "F", "B", "A"),
    "ACDE": ("E", "D", "C", "A"),
    "ACDF": ("F", "D", "C", "A"),
    "ACEF": ("E", "F", "C", "A"),
    "ADEF": ("E", "F", "D", "A"),
    "BCDE": ("E", "D", "B", "C"),
    "BCDF": ("F", "D", "C", "B"),
    "BCEF": ("F", "E", "C", "B"),
    "BDEF": ("F", "E", "D", "B"),
    "CDEF": ("F", "E", "D", "C"),
}
# The winners (by letter) whose opponents are best thirds, in the columns' order.
UEFA_EURO_THIRD_OPPONENTS = ("B", "C", "E", "F")
UEFA_EURO_TABLE = "uefa_euro"


# UEFA EURO 2016 regulations (art. 18, the round of 16's table): the same idea with the winners of
# groups A, B, C and D meeting the thirds. Columns: the opponents of the winners of A, B, C and D.
UEFA_EURO_2016_THIRDS: dict[str, tuple[str, str, str, str]] = {
    "ABCD": ("C", "D", "A", "B"),
    "ABCE": ("C", "A", "B", "E"),
    "ABCF": ("C", "A", "B", "F"),
    "ABDE": ("D", "A", "B", "E"),
    "ABDF": ("D", "A", "B", "F"),
    "ABEF": ("E", "A", "B", "F"),
    "ACDE": ("C", "D", "A", "E"),
    "ACDF": ("C", "D", "A", "F"),
    "ACEF": ("C", "A", "F", "E"),
    "ADEF": ("D", "A", "F", "E"),
    "BCDE": ("C", "D", "B", "E"),
    "BCDF": ("C", "D", "B", "F"),
    "BCEF": ("E", "C", "B", "F"),
    "BDEF": ("E", "D", "B", "F"),
    "CDEF": ("C", "D", "F", "E"),
}
UEFA_EURO_2016_THIRD_OPPONENTS = ("A", "B", "C", "D")
UEFA_EURO_2016_TABLE = "uefa_euro_2016"
# A best-third slot's "table" → UEFA's placing table.
THIRDS_TABLES = {UEFA_EURO_TABLE: UEFA_EURO_THIRDS, UEFA_EURO_2016_TABLE: UEFA_EURO_2016_THIRDS}


def uefa_euro_thirds(
    *, qualified: Sequence[str], group_names: Sequence[str], table: str = UEFA_EURO_TABLE
) -> dict[int, str]:
    """Slot (0–3, the columns of the table) → the group whose third-placed team fills it."""
    letters = {name: chr(ord("A") + i) for i, name in enumerate(group_names)}
    key = "".join(sorted(letters[g] for g in qualified))
    row = THIRDS_TABLES[table][key]
    by_letter = {v: k for k, v in letters.items()}
    return {k: by_letter[g] for k, g in enumerate(row)}

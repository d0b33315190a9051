"""The competition rules a Monte Carlo run applies: the small interface the simulation core needs.

Everything comes from the tournaments code itself (tie-break criteria and table computation;
tournaments.bracket for the knockout slots, the best thirds' placing and the tie outcomes), so a
run ranks and decides exactly like the real standings and brackets. This module is the only
one of the chances app that imports them: when the standings code moves, only these imports
follow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from matches.standings.selectors import points_of, tiebreak_order
from tournaments.bracket import (
    Leg,
    Score,
    TieOutcome,
    best_third_slots,
    level_after_goals,
    needs_decider,
    place_best_thirds,
    slot_team,
    tie_decision,
)
from tournaments.standings.criteria import ACROSS_GROUPS
from tournaments.standings.table import compute_table, rank_across
from tournaments.standings.tally import MatchRecord, Points, Row

__all__ = [
    "Leg",
    "MatchRecord",
    "Points",
    "Row",
    "Score",
    "TieOutcome",
    "best_third_slots",
    "level_after_goals",
    "needs_decider",
    "place_best_thirds",
    "points_of",
    "rank_across_groups",
    "rank_table",
    "slot_team",
    "tie_decision",
    "tiebreak_order",
]


def rank_table(
    *,
    teams: Sequence[int],
    matches: Sequence[MatchRecord],
    criteria: Sequence[str],
    points: Points,
    draw_lots: Callable[[Sequence[int]], Sequence[int] | None],
) -> list[Row]:
    return compute_table(teams=teams, matches=matches, criteria=criteria, points=points, draw_lots=draw_lots)


def rank_across_groups(
    *, rows: Sequence[Row], draw_lots: Callable[[Sequence[int]], Sequence[int] | None]
) -> list[Row]:
    """Teams at the same place of different groups (best thirds), best first, with the criteria
    the standings use across groups; teams level on all of them are put in the drawn order."""
    ranked = rank_across(rows=rows, criteria=ACROSS_GROUPS, draw_lots=draw_lots)
    return [row for bucket in ranked for row in bucket]

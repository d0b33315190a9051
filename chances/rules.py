"""The competition rules a Monte Carlo run applies: the small interface the simulation core needs.

Everything comes from the tournaments code itself (tie-break criteria and table computation,
the knockout tie arithmetic), so a run ranks and decides exactly like the real standings and
brackets. This module is the only one of the chances app that imports them: when the standings
code moves, only these imports follow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments.fixtures import UEFA_EURO_TABLE, UEFA_THIRDS_TABLES, uefa_euro_thirds
from tournaments.knockout import Score, _level_after_goals
from tournaments.standings import cache as standings_cache
from tournaments.standings.criteria import ACROSS_GROUPS
from tournaments.standings.selectors import points_of, tiebreak_order
from tournaments.standings.table import compute_table, rank_across
from tournaments.standings.tally import MatchRecord, Points, Row

__all__ = [
    "UEFA_EURO_TABLE",
    "UEFA_THIRDS_TABLES",
    "MatchRecord",
    "Points",
    "Row",
    "Score",
    "level_after_goals",
    "pages_changed",
    "points_of",
    "rank_across_groups",
    "rank_table",
    "tiebreak_order",
    "uefa_euro_thirds",
]


@dataclass(frozen=True)
class _StageRules:
    away_goals_rule: bool


_RULES = {True: _StageRules(True), False: _StageRules(False)}


def rank_table(
    *,
    teams: Sequence[int],
    matches: Sequence[MatchRecord],
    criteria: Sequence[str],
    points: Points,
    draw_lots: Callable[[Sequence[int]], Sequence[int] | None],
) -> list[Row]:
    return compute_table(teams=teams, matches=matches, criteria=criteria, points=points, draw_lots=draw_lots)


def level_after_goals(*, away_goals_rule: bool, first: Score | None, last: Score) -> tuple[int, int]:
    """Goals of the deciding match's home side and away side over the tie (aggregate/away goals)."""
    h, a, _how = _level_after_goals(_RULES[away_goals_rule], first, last)  # type: ignore[arg-type]
    return h, a


def rank_across_groups(
    *, rows: Sequence[Row], draw_lots: Callable[[Sequence[int]], Sequence[int] | None]
) -> list[Row]:
    """Teams at the same place of different groups (best thirds), best first, with the criteria
    the standings use across groups; teams level on all of them are put in the drawn order."""
    ranked = rank_across(rows=rows, criteria=ACROSS_GROUPS, draw_lots=draw_lots)
    return [row for bucket in ranked for row in bucket]


def pages_changed(competition_id: int) -> None:
    """New chances are on the standings page: its cached rendering is stale."""
    standings_cache.invalidate(competition_id)

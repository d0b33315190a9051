"""The competition rules a Monte Carlo run applies: the small interface the simulation core needs.

Everything comes from the tournaments code itself (tie-break criteria and table computation,
the knockout tie arithmetic), so a run ranks and decides exactly like the real standings and
brackets. This module is the only one of the chances app that imports them: when the standings
code moves, only these imports follow.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from tournaments import standings_cache
from tournaments.knockout import Score, _level_after_goals
from tournaments.ranking import _third_key, points_of, tiebreak_order
from tournaments.standings import MatchRecord, Points, Row, compute_table

__all__ = [
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
]


@dataclass(frozen=True)
class _StageRules:
    away_goals_rule: bool


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
    h, a, _how = _level_after_goals(_StageRules(away_goals_rule), first, last)  # type: ignore[arg-type]
    return h, a


def rank_across_groups(
    *, rows: Sequence[Row], draw_lots: Callable[[Sequence[int]], Sequence[int] | None]
) -> list[Row]:
    """Teams at the same place of different groups (best thirds), best first: no head-to-head;
    teams level on every criterion before lots are put in the drawn order."""
    ranked = sorted(rows, key=_third_key, reverse=True)
    out: list[Row] = []
    i = 0
    while i < len(ranked):
        j = i + 1
        while j < len(ranked) and _third_key(ranked[j]) == _third_key(ranked[i]):
            j += 1
        block = ranked[i:j]
        if len(block) > 1:
            by_team = {r.team: r for r in block}
            block = [by_team[t] for t in (draw_lots([r.team for r in block]) or sorted(by_team))]
        out += block
        i = j
    return out


def pages_changed(competition_id: int) -> None:
    """New chances are on the standings page: its cached rendering is stale."""
    standings_cache.invalidate(competition_id)

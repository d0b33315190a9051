"""Every tie-break criterion, one case each: the criterion alone separates two teams level on points.

A new Criterion in tournaments.standings.criteria.CRITERIA needs its case in CASES (the first test
fails otherwise); the throwaway-criterion test shows that the entry is all the rest of the code needs.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from matches.standings.presentation import explain
from tournaments.standings.criteria import ACROSS_GROUPS, CRITERIA, PRESETS, Criterion, label, validate_order
from tournaments.standings.table import Ranking, compute_table, rank_across
from tournaments.standings.tally import MatchRecord as M
from tournaments.standings.tally import Points, Row, tally


@dataclass(frozen=True)
class Case:
    teams: Sequence[int]
    matches: Sequence[M]
    above: int
    below: int


CASES = {
    "points": Case([1, 2], [M(1, 2, 1, 0)], 1, 2),
    "goal_difference": Case([1, 2, 3], [M(1, 3, 3, 0), M(2, 3, 1, 0)], 1, 2),
    "goals_for": Case([1, 2, 3], [M(1, 3, 3, 2), M(2, 3, 1, 0)], 1, 2),
    "away_goals": Case([1, 2, 3], [M(3, 1, 0, 2), M(2, 3, 2, 0)], 1, 2),
    # Team 1 won once and lost once, team 2 drew three times: 3 points each.
    "wins": Case(
        [1, 2, 3, 4, 5],
        [M(1, 3, 1, 0), M(4, 1, 1, 0), M(2, 3, 0, 0), M(2, 4, 0, 0), M(2, 5, 0, 0)],
        1,
        2,
    ),
    "fair_play": Case([1, 2, 3], [M(1, 3, 1, 0, -1, 0), M(2, 3, 1, 0, -3, 0)], 1, 2),
    # 1, 2 and 3 on 3 points; 1 beat 3 (3 points), 2 beat 4 (0 points).
    "buchholz": Case([1, 2, 3, 4, 5], [M(1, 3, 1, 0), M(2, 4, 1, 0), M(3, 5, 1, 0)], 1, 2),
    # 1 and 2 on 3 points; 1 beat 2.
    "h2h_points": Case([1, 2, 3, 4], [M(1, 2, 1, 0), M(3, 1, 1, 0), M(2, 4, 1, 0), M(3, 4, 1, 0)], 1, 2),
    "h2h_goal_difference": Case([1, 2], [M(1, 2, 3, 0), M(2, 1, 1, 0)], 1, 2),
    # Three teams that drew each other: 2-2, 1-1, 0-0.
    "h2h_goals_for": Case([1, 2, 3], [M(1, 2, 2, 2), M(1, 3, 1, 1), M(2, 3, 0, 0)], 1, 2),
    "h2h_away_goals": Case([1, 2], [M(1, 2, 1, 1), M(2, 1, 2, 2)], 1, 2),
    "head_to_head": Case([1, 2, 3, 4], [M(1, 2, 1, 0), M(3, 1, 1, 0), M(2, 4, 5, 0), M(3, 4, 1, 0)], 1, 2),
    "head_to_head_neutral": Case(
        [1, 2, 3, 4], [M(1, 2, 1, 0), M(3, 1, 1, 0), M(2, 4, 5, 0), M(3, 4, 1, 0)], 1, 2
    ),
    "lots": Case([1, 2], [M(1, 2, 0, 0)], 2, 1),
}


def _lots(tied: Sequence[int]) -> list[int]:
    return sorted(tied, reverse=True)


def _by_team(table: list[Row]) -> dict[int, Row]:
    return {r.team: r for r in table}


def test_every_criterion_has_a_case() -> None:
    assert set(CASES) == set(CRITERIA)


@pytest.mark.parametrize("key", list(CRITERIA))
def test_the_criterion_alone_separates_teams_level_before_it(key: str) -> None:
    case = CASES[key]
    order = ["points"] if key == "points" else ["points", key]
    table = _by_team(compute_table(teams=case.teams, matches=case.matches, criteria=order, draw_lots=_lots))
    assert table[case.above].position < table[case.below].position
    assert table[case.below].decided_by == key and not table[case.below].level_with_previous
    if key != "points":
        without = _by_team(compute_table(teams=case.teams, matches=case.matches, criteria=["points"]))
        later = max(case.above, case.below, key=lambda t: without[t].position)
        assert without[later].level_with_previous, "the case must be level before the criterion"


@pytest.mark.parametrize("key", list(CRITERIA))
def test_each_criterion_has_a_label_and_an_abbreviation(key: str) -> None:
    criterion = CRITERIA[key]
    assert criterion.key == key and criterion.label and criterion.abbreviation
    assert label(key) == criterion.label


def test_a_new_criterion_is_one_entry(monkeypatch: pytest.MonkeyPatch) -> None:
    fewest_defeats = Criterion("fewest_defeats", "fewest defeats", "FD", lambda r: -r.lost)
    monkeypatch.setitem(CRITERIA, "fewest_defeats", fewest_defeats)
    assert validate_order(["points", "fewest_defeats"]) == ["points", "fewest_defeats"]
    # 3 points each: team 1 drew three times, team 2 won once and lost twice.
    matches = [M(1, 3, 0, 0), M(1, 4, 0, 0), M(1, 5, 0, 0), M(2, 3, 1, 0), M(4, 2, 1, 0), M(5, 2, 1, 0)]
    teams = [1, 2, 3, 4, 5]
    table = _by_team(compute_table(teams=teams, matches=matches, criteria=["points", "fewest_defeats"]))
    assert table[1].points == table[2].points == 3
    assert table[1].position < table[2].position and table[2].decided_by == "fewest_defeats"
    assert explain(table[2], table[1], "One") == (
        "Level on points with One; placed below on fewest defeats (0 v -2)."
    )


def test_head_to_head_explanations_give_no_row_values() -> None:
    case = CASES["h2h_points"]
    table = _by_team(compute_table(teams=case.teams, matches=case.matches, criteria=["points", "h2h_points"]))
    assert explain(table[2], table[1], "One") == (
        "Level on points with One; placed below on points in the matches between the teams level."
    )
    case = CASES["goal_difference"]
    table = _by_team(
        compute_table(teams=case.teams, matches=case.matches, criteria=PRESETS["fifa_world_cup"])
    )
    assert explain(table[2], table[1], "One") == (
        "Level on points with One; placed below on goal difference (3 v 1)."
    )


def test_presets_and_the_across_groups_order_name_known_criteria() -> None:
    for order in (*PRESETS.values(), ACROSS_GROUPS):
        assert validate_order(order) == list(order)
    assert not any(CRITERIA[c].head_to_head for c in ACROSS_GROUPS)
    with pytest.raises(ValueError, match="unknown tie-break criteria"):
        validate_order(["points", "style"])
    with pytest.raises(ValueError, match="must start with 'points'"):
        validate_order(["goal_difference", "points"])


def test_rank_across_groups_uses_the_overall_record_then_lots() -> None:
    rows = [
        Row(team=10, points=4, goals_for=3, goals_against=3, position=3),
        Row(team=20, points=4, goals_for=4, goals_against=2, position=3),
        Row(team=30, points=4, goals_for=3, goals_against=3, position=3),
        Row(team=40, points=3, goals_for=9, goals_against=0, position=3),
    ]
    drawn: list[list[int]] = []

    def lots(tied: Sequence[int]) -> list[int]:
        drawn.append(list(tied))
        return sorted(tied, reverse=True)

    ranked = rank_across(rows=rows, criteria=ACROSS_GROUPS, draw_lots=lots)
    assert [[r.team for r in bucket] for bucket in ranked] == [[20], [30], [10], [40]]
    assert drawn == [[10, 30]], "lots only among the thirds level on every criterion"
    assert all(r.position == 3 for r in rows), "the rows keep their own table's position"
    with pytest.raises(ValueError, match="no head-to-head"):
        rank_across(rows=rows, criteria=PRESETS["fifa_world_cup"], draw_lots=lots)


@settings(max_examples=200, deadline=None)
@given(
    teams=st.integers(min_value=2, max_value=30),
    scores=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(0, 2)), max_size=90),
    preset=st.sampled_from(["swiss", "uefa", "fifa_world_cup"]),
    with_lots=st.booleans(),
)
def test_one_sort_ranks_like_the_criterion_by_criterion_split(
    teams: int, scores: list[tuple[int, int, int]], preset: str, with_lots: bool
) -> None:
    """A table's leading overall criteria are ranked in one O(n log n) sort (rank_table, the big
    tables'; head-to-head then within each set still level): the same places, the same criterion
    deciding each place and the same drawing of lots as the split criterion by criterion (rank, the
    small tables')."""
    ids = list(range(1, teams + 1))
    matches = [
        M(ids[i % teams], ids[(i + 1 + s) % teams], hg, ag)
        for i, (hg, ag, s) in enumerate(scores)
        if ids[i % teams] != ids[(i + 1 + s) % teams]
    ]
    order = [c for c in PRESETS[preset] if with_lots or c != "lots"]
    criteria = [CRITERIA[c] for c in order]
    rows = tally(ids, matches, Points())
    for row in rows.values():
        row.buchholz = sum(rows[o].points for o in row.opponents)

    def reverse_lots(tied: Sequence[int]) -> Sequence[int]:
        return sorted(tied, reverse=True)

    by_sort = Ranking(rows, matches, criteria, Points(), reverse_lots)
    by_split = Ranking(rows, matches, criteria, Points(), reverse_lots)
    assert by_sort.rank_table(list(ids)) == by_split.rank(list(ids))
    assert by_sort.decided == by_split.decided

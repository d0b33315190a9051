"""Tie-break criteria, each defined once as a `Criterion`; the presets and orders are built from them.

compute_table (table.py) asks each criterion of an order for every tied team's value and splits the
teams by it, so a criterion carries everything the rest of the code needs: its key (stored in a
competition's custom order), its label and abbreviation (pages, API, admin), how its value is read
from a team's Row, and which Row that is:

- overall criteria read each team's whole record;
- head-to-head criteria read the record in the matches among the teams still level. A consecutive
  run of step criteria (``h2h_points``, ``h2h_goal_difference``…) is computed among the teams level
  when the run starts (FIFA World Cup 2018/2022 regulations, art. 32.5 d–f: "greater number of
  points obtained in the group matches between the teams concerned" …). A re-applied criterion
  (UEFA's ``head_to_head`` block: points, goal difference, goals and, in two-legged club
  competitions, away goals among the teams concerned; ``head_to_head_neutral`` without away
  goals) is computed again among any smaller set of teams it leaves level before moving on;
- ``lots`` is drawn, not computed: the caller of compute_table says how (recorded once).

Adding a criterion is one entry in CRITERIA (and a case in tests/tournaments/test_standings_criteria.py).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from tournaments.standings.tally import Row

Value = int | tuple[int, ...]


@dataclass(frozen=True)
class Criterion:
    key: str
    # Completes "placed below on …" in a tie-break explanation.
    label: str
    abbreviation: str
    # None: decided by a drawing of lots.
    value: Callable[[Row], Value] | None
    head_to_head: bool = False
    reapplied: bool = False

    @property
    def drawn(self) -> bool:
        return self.value is None

    def row_value(self, row: Row) -> Value | None:
        """The value on a team's own row (what a table shows), or None when the row does not hold it."""
        if self.value is None or self.head_to_head:
            return None
        return self.value(row)


def _h2h(key: str, label: str, abbreviation: str, value: Callable[[Row], Value]) -> Criterion:
    return Criterion(
        f"h2h_{key}", f"{label} in the matches between the teams level", f"H2H {abbreviation}", value, True
    )


CRITERIA: dict[str, Criterion] = {
    c.key: c
    for c in (
        Criterion("points", "points", "Pts", lambda r: r.points),
        Criterion("goal_difference", "goal difference", "GD", lambda r: r.goal_difference),
        Criterion("goals_for", "goals scored", "GF", lambda r: r.goals_for),
        Criterion("away_goals", "away goals", "AG", lambda r: r.away_goals),
        Criterion("wins", "number of wins", "W", lambda r: r.won),
        Criterion("fair_play", "fair-play points", "FP", lambda r: r.fair_play),
        Criterion("buchholz", "Buchholz score", "Bu", lambda r: r.buchholz),
        _h2h("points", "points", "Pts", lambda r: r.points),
        _h2h("goal_difference", "goal difference", "GD", lambda r: r.goal_difference),
        _h2h("goals_for", "goals scored", "GF", lambda r: r.goals_for),
        _h2h("away_goals", "away goals", "AG", lambda r: r.away_goals),
        Criterion(
            "head_to_head",
            "head-to-head record (points, goal difference, goals scored, away goals)",
            "H2H",
            lambda r: (r.points, r.goal_difference, r.goals_for, r.away_goals),
            head_to_head=True,
            reapplied=True,
        ),
        Criterion(
            "head_to_head_neutral",
            "head-to-head record (points, goal difference, goals scored)",
            "H2H",
            lambda r: (r.points, r.goal_difference, r.goals_for),
            head_to_head=True,
            reapplied=True,
        ),
        Criterion("lots", "drawing of lots", "Lots", None),
    )
}


def validate_order(criteria: Iterable[str]) -> list[str]:
    order = list(criteria)
    unknown = [c for c in order if c not in CRITERIA]
    if unknown:
        raise ValueError(f"unknown tie-break criteria {unknown}; known: {', '.join(CRITERIA)}")
    if not order or order[0] != "points":
        raise ValueError("the tie-break order must start with 'points'")
    return order


def label(key: str) -> str:
    criterion = CRITERIA.get(key)
    return criterion.label if criterion is not None else key.replace("_", " ")


def _order(*keys: str) -> tuple[str, ...]:
    return tuple(validate_order(keys))


PRESETS: dict[str, tuple[str, ...]] = {
    # FIFA World Cup 2018 and 2022 regulations, art. 32.5 (2018) / 32.3 (2022).
    "fifa_world_cup": _order(
        "points",
        "goal_difference",
        "goals_for",
        "h2h_points",
        "h2h_goal_difference",
        "h2h_goals_for",
        "fair_play",
        "lots",
    ),
    # UEFA EURO regulations (2016 art. 18.01, 2020 art. 20.01, 2024 art. 18.01): every venue is
    # neutral, so head-to-head counts points, goal difference and goals (re-applied), never away goals.
    "uefa": _order(
        "points",
        "head_to_head_neutral",
        "goal_difference",
        "goals_for",
        "fair_play",
        "lots",
    ),
    # UEFA club competitions' group stages until 2020-21: home and away legs, away goals count
    # in the head-to-head record and overall.
    "uefa_club": _order(
        "points",
        "head_to_head",
        "goal_difference",
        "goals_for",
        "away_goals",
        "wins",
        "fair_play",
        "lots",
    ),
    "swiss": _order("points", "buchholz", "goal_difference", "goals_for", "lots"),
}

# Criteria that count away goals, and what each becomes where no pair of teams plays home and away
# (a single-leg stage, a tournament at one venue): the side the fixture generator made "home" must
# not decide a place.
_AWAY_GOALS_AT_NEUTRAL_VENUE: dict[str, str | None] = {
    "head_to_head": "head_to_head_neutral",
    "h2h_away_goals": None,
    "away_goals": None,
}


def at_neutral_venue(order: Iterable[str]) -> list[str]:
    """The order without away goals: head-to-head counts points, goal difference and goals only."""
    out: list[str] = []
    for key in order:
        key_now = _AWAY_GOALS_AT_NEUTRAL_VENUE.get(key, key)
        if key_now is not None and key_now not in out:
            out.append(key_now)
    return out


# Ranking teams placed alike in different groups (the best thirds): they never met, so no
# head-to-head criterion applies.
ACROSS_GROUPS = _order("points", "goal_difference", "goals_for", "wins", "fair_play", "lots")

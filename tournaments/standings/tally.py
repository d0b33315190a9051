"""What a table is computed from (match records, points per result) and what it gives (a Row per team).

Pure: no Django. `tally` counts a team's record over some matches; compute_table (table.py) tallies
the whole table once and, for head-to-head criteria, the matches among the teams still level.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TypeVar

V = TypeVar("V")


# Slots: a 100,000-team Swiss holds 500,000 records and 100,000 rows; without a __dict__ each they
# take a third of the memory, and ranking them stays linear in the number of teams.
@dataclass(frozen=True, slots=True)
class MatchRecord:
    home: int
    away: int
    home_goals: int
    away_goals: int
    home_fair_play: int = 0
    away_fair_play: int = 0
    # Only the position chart reads it: it replays the table round by round.
    round: int = 0


@dataclass(frozen=True)
class Points:
    win: int = 3
    draw: int = 1
    loss: int = 0


@dataclass(slots=True)
class Row:
    team: int
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    goals_for: int = 0
    goals_against: int = 0
    away_goals: int = 0
    points: int = 0
    # Points deducted or added by the organisers (already in `points`).
    adjustment: int = 0
    fair_play: int = 0
    byes: int = 0
    buchholz: int = 0
    position: int = 0
    # The criterion key that separated this team from the one above it ("" for the leader).
    decided_by: str = ""
    level_with_previous: bool = False
    opponents: list[int] = field(default_factory=list)

    @property
    def goal_difference(self) -> int:
        return self.goals_for - self.goals_against


def tally(teams: Iterable[int], matches: Iterable[MatchRecord], points: Points) -> dict[int, Row]:
    """Each team's record over `matches`; matches involving a team outside `teams` are left out.

    The rows are made in team id order (the order a table lists them in): each later pass over the
    rows walks memory in order. A big table's teams meet in no order at all (a Swiss pairs them by
    points), so each match touches two rows far apart; it is kept to those two rows and their
    opponents lists, found by position in a list rather than through a dict (whose lookup reads
    its table, its entry and the key's int, each a cache miss in a 100,000-team table).
    """
    rows = {t: Row(team=t) for t in sorted(set(teams))}
    win, draw, loss = points.win, points.draw, points.loss
    for m, home, away in _between(rows, matches):
        hg, ag = m.home_goals, m.away_goals
        home.goals_for += hg
        home.goals_against += ag
        away.goals_for += ag
        away.goals_against += hg
        away.away_goals += ag
        # The opponent's id as its row holds it (the same int object as the table's key), not the
        # record's copy: reading the opponents back (Buchholz) then finds each key by identity.
        home.opponents.append(away.team)
        away.opponents.append(home.team)
        if hg > ag:
            home.won += 1
            away.lost += 1
        elif hg == ag:
            home.drawn += 1
            away.drawn += 1
        else:
            home.lost += 1
            away.won += 1
        if m.home_fair_play:
            home.fair_play += m.home_fair_play
        if m.away_fair_play:
            away.fair_play += m.away_fair_play
    for r in rows.values():
        r.played = r.won + r.drawn + r.lost
        r.points = r.won * win + r.drawn * draw + r.lost * loss
    return rows


def _between(rows: dict[int, Row], matches: Iterable[MatchRecord]) -> Iterator[tuple[MatchRecord, Row, Row]]:
    """The matches between two teams of ``rows``, with their rows (found as ``sides`` finds them).

    Found as the match is counted, not in a pass of its own: holding a row in a list writes its
    reference count, one more cache miss a side over a big table.
    """
    lo = _dense_from(rows)
    if lo is None:
        get = rows.get
        for m in matches:
            home, away = get(m.home), get(m.away)
            if home is not None and away is not None:
                yield m, home, away
        return
    hi = max(rows)
    at: list[Row | None] = [None] * (hi - lo + 1)
    for t, r in rows.items():
        at[t - lo] = r
    for m in matches:
        if lo <= m.home <= hi and lo <= m.away <= hi:
            home, away = at[m.home - lo], at[m.away - lo]
            if home is not None and away is not None:
                yield m, home, away


def sides(
    by_team: dict[int, V], matches: Iterable[MatchRecord]
) -> tuple[list[MatchRecord], list[V | None], list[V | None]]:
    """The matches with each side's value in ``by_team`` (None: a team not in it).

    Team ids of one competition are nearly consecutive: the values are then found in a list by
    ``id - lowest id``; ids far apart fall back to the dict.
    """
    matches = list(matches)
    lo = _dense_from(by_team)
    if lo is None:
        return matches, [by_team.get(m.home) for m in matches], [by_team.get(m.away) for m in matches]
    hi = max(by_team)
    at: list[V | None] = [None] * (hi - lo + 1)
    for t, v in by_team.items():
        at[t - lo] = v
    homes = [at[m.home - lo] if lo <= m.home <= hi else None for m in matches]
    aways = [at[m.away - lo] if lo <= m.away <= hi else None for m in matches]
    return matches, homes, aways


def _dense_from(by_team: dict[int, V]) -> int | None:
    """The lowest team id when the ids are close enough together to index a list by
    ``id - lowest``; None otherwise."""
    if not by_team:
        return None
    lo, hi = min(by_team), max(by_team)
    return lo if hi - lo <= 4 * len(by_team) + 64 else None


def buchholz(rows: dict[int, Row]) -> None:
    """Each row's Buchholz score: the sum of its opponents' points (rows as ``tally`` made them)."""
    lo = _dense_from(rows)
    if lo is None:
        points_of = {t: r.points for t, r in rows.items()}.__getitem__
        for r in rows.values():
            r.buchholz = sum(map(points_of, r.opponents))
        return
    # An opponent's points from a list by position: one read, where a dict's lookup is three
    # (its index, its entry, the key), each a cache miss over a big table.
    points = [0] * (max(rows) - lo + 1)
    for t, r in rows.items():
        points[t - lo] = r.points
    for r in rows.values():
        r.buchholz = sum([points[o - lo] for o in r.opponents])

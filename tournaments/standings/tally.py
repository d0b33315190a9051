"""What a table is computed from (match records, points per result) and what it gives (a Row per team).

Pure: no Django. `tally` counts a team's record over some matches; compute_table (table.py) tallies
the whole table once and, for head-to-head criteria, the matches among the teams still level.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


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
    """Each team's record over `matches`; matches involving a team outside `teams` are left out."""
    rows = {t: Row(team=t) for t in teams}
    for m in matches:
        home = rows.get(m.home)
        away = rows.get(m.away)
        if home is None or away is None:
            continue
        hg, ag = m.home_goals, m.away_goals
        # The opponent's id as its row holds it (the same int object as the table's key), not the
        # record's copy: reading the opponents back (Buchholz) then finds each key by identity
        # instead of comparing with a number elsewhere in memory (a 100,000-team Swiss: 1M copies).
        _count(home, away.team, hg, ag, m.home_fair_play, points)
        _count(away, home.team, ag, hg, m.away_fair_play, points)
        away.away_goals += ag
    return rows


def _count(r: Row, them: int, gf: int, ga: int, fair_play: int, points: Points) -> None:
    r.played += 1
    r.goals_for += gf
    r.goals_against += ga
    r.fair_play += fair_play
    r.opponents.append(them)
    if gf > ga:
        r.won += 1
        r.points += points.win
    elif gf == ga:
        r.drawn += 1
        r.points += points.draw
    else:
        r.lost += 1
        r.points += points.loss

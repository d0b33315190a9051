"""A result in words for the desk's confirmation line: the score, extra time, the shoot-out and,
in a knockout, who goes through."""

from __future__ import annotations

from matches.knockout import tie_through
from tournaments.bracket import Score
from tournaments.models import Fixture
from tournaments.selectors import fixture_first_leg

HOW = {
    "score": "",
    "aggregate": " on aggregate",
    "away_goals": " on away goals",
    "penalties": " on penalties",
    "awarded": "",
}


def score_words(fixture: Fixture, score: Score) -> str:
    """ "Wolves 1–1 Hawks after extra time, Wolves win the shoot-out 4–3 and go through"."""
    home, away = str(fixture.home_team), str(fixture.away_team)
    text = f"{home} {score.home_goals}–{score.away_goals} {away}"
    if score.extra_time:
        text += " after extra time"
    if score.home_penalties is not None and score.away_penalties is not None:
        won = score.home_penalties > score.away_penalties
        high, low = sorted((score.home_penalties, score.away_penalties), reverse=True)
        text += f", {home if won else away} win the shoot-out {high}–{low}"
    outcome = tie_through(fixture=fixture, score=score, first_leg=fixture_first_leg(fixture=fixture))
    if outcome is not None:
        winner = home if outcome.winner_id == fixture.home_team_id else away
        text += f"; {winner} go through{HOW.get(outcome.decided_by, '')}"
    return text

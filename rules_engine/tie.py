"""Extra time in a knockout tie (interpretation I-38): the one place that says which answers the
extra-time question has.

A log's header says only that the competition plays extra time (``extra_time``); whether the 90
minutes leave the tie level is the competition's question, so the engine asks it. A scorer knows
the tie (:class:`Tie`: a second leg counts the first, with away goals where the stage says so) and
asks here which answers are legal: a level tie plays extra time, a decided one does not. The
server's scorer and the phone's engine both call these, so they offer and refuse the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from .decisions import EXTRA_TIME
from .errors import HeaderError, IllegalEventError
from .events import Decision, Event
from .machine import Match

YES_NO: Final = ("no", "yes")


@dataclass(frozen=True, slots=True)
class Tie:
    """A knockout tie as the competition knows it before this match's extra-time question.

    ``legs``: 1 or 2; ``first_leg``: in a second leg, the goals this match's home and away teams
    scored in the first leg (in that order), None in a one-match tie and in a first leg (which
    never goes to extra time: the tie goes on); ``away_goals``: a level aggregate goes to the
    team with more away goals."""

    legs: int = 1
    first_leg: tuple[int, int] | None = None
    away_goals: bool = False

    def to_dict(self) -> dict[str, Any]:
        first = list(self.first_leg) if self.first_leg is not None else None
        return {"legs": self.legs, "first_leg": first, "away_goals": self.away_goals}


def tie_from_dict(data: Any) -> Tie | None:
    """A :class:`Tie` from its JSON form (``to_dict``); None for null."""
    if data is None:
        return None
    if not isinstance(data, dict):
        raise HeaderError("a tie must be an object {first_leg, away_goals}", rule="I-38")
    legs = data.get("legs", 1)
    if legs not in (1, 2):
        raise HeaderError("a tie has 1 or 2 legs", rule="I-38")
    first = data.get("first_leg")
    if first is None:
        return Tie(legs, None, bool(data.get("away_goals")))
    if not (isinstance(first, list) and len(first) == 2 and all(type(g) is int and g >= 0 for g in first)):
        raise HeaderError("first_leg must be two goal counts", rule="I-38")
    return Tie(legs, (first[0], first[1]), bool(data.get("away_goals")))


def tie_level(tie: Tie, home: int, away: int) -> bool:
    """Whether this match's score (home, away) leaves the tie level after goals and away goals."""
    if tie.first_leg is None:
        return tie.legs == 1 and home == away
    first_home, first_away = tie.first_leg
    if home + first_home != away + first_away:
        return False
    # This match's home team scored its away goals in the first leg, its away team in this one.
    return not tie.away_goals or first_home == away


def extra_time_answers(match: Match, tie: Tie | None) -> tuple[str, ...]:
    """The legal answers to the extra-time question (I-38) when it is pending: "yes" for a level
    tie, "no" for a decided one, both when the tie is not known (``tie`` None); () when the match
    waits for something else."""
    p = match.pending()
    if p is None or p.name != EXTRA_TIME or p.kind != "decision":
        return ()
    if tie is None:
        return YES_NO
    home, away = match.st.score()
    return ("yes",) if tie_level(tie, home, away) else ("no",)


def verify_extra_time(match: Match, tie: Tie | None, event: Event) -> None:
    """Refuse an answer to the extra-time question that the tie does not allow (I-38)."""
    if not isinstance(event, Decision) or event.name != EXTRA_TIME or tie is None:
        return
    answers = extra_time_answers(match, tie)
    p = match.pending()
    if p is None or not answers or event.choice in answers:
        return
    home, away = match.st.score()
    reason = (
        f"the tie is level after 90 minutes ({home}-{away}): extra time is played"
        if answers == ("yes",)
        else f"the tie is decided after 90 minutes ({home}-{away}): no extra time"
    )
    raise IllegalEventError(f"Answer {answers[0]!r}: {reason}", rule="I-38", turn=p.turn, stage=p.stage)

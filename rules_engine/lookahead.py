"""What the engine asks right after an answer of the pending decision.

A team that ends its free movements ("done") chooses its action at once (4.3.1, 4.3); a team that
plays no second actions ("no", 4.3.2) is asked the next turn's target area (4.2). A page may offer
the answers of that next decision beside the pending ones, so that one tap answers both (a tap
saved at every free movement a table ends): the log records both decisions, the usual answer
first, as if they were tapped one by one.

Most actions are followed at once by their roll (4.5 movement, 4.6 positioning, 4.7 pressing, a
goal attempt): a page with typed dice may offer, beside such an answer, the faces of that roll's
first die, so that the tap on a face answers the question and enters the die (the roll goes out
with its last die, one tap per face as ever): the log records the decision, then the roll.

The next request is found by playing the answer on a copy of the match (the rules are
generators, which cannot be copied: the copy replays the match's events, a few milliseconds for a
whole match with the compiled engine), so nothing here restates a rule. A caller that asks again
after each event (the phone's pure-Python engine, where a replay late in a match costs tens of
milliseconds) may hand in :class:`Copies`: copies of the match made ahead, while the scorer reads the
question, and brought up to date with the few events since, so a fork costs an event or two.
"""

from __future__ import annotations

from typing import Any, Final

from . import decisions as D
from .errors import FubaError
from .events import Decision
from .machine import Match

# More answers than this are not offered with their roll's dice: a page shows a row of faces for
# each, and the rows must fit under the pitch of a phone.
MAX_ROLL_ANSWERS: Final = 4
# A question of more answers is shown in steps (a page groups them by kind): no dice beside them.
MAX_ANSWERS: Final = 8


class Copies:
    """Copies of one match made ahead (:meth:`make`) for its forks: :meth:`take` brings a kept copy
    up to the match's point by applying the events it has not seen, or replays the match when
    none is kept. A copy is of the match when it was made from that very match (its header and
    event objects): Match.events only grows, and a match rebuilt (an undo) has new objects."""

    def __init__(self) -> None:
        self._kept: list[Match] = []

    def __len__(self) -> int:
        return len(self._kept)

    def make(self, m: Match) -> None:
        """Keep one more copy of ``m`` (a replay of its events)."""
        self._kept.append(_replayed(m))

    def take(self, m: Match) -> Match:
        """A copy of ``m`` at its point, no longer kept (the caller applies to it)."""
        events = m.events
        while self._kept:
            copy = self._kept.pop()
            k = len(copy.events)
            same = copy.header is m.header and k <= len(events)
            if same and (k == 0 or copy.events[k - 1] is events[k - 1]):
                for ev in events[k:]:
                    copy.apply(ev)
                return copy
        return _replayed(m)


def _replayed(m: Match) -> Match:
    copy = Match(m.header)
    for ev in m.events:
        copy.apply(ev)
    return copy


def _answered(m: Match, choice: Any, copies: Copies | None) -> Match | None:
    """A copy of ``m`` with its pending decision answered by ``choice``; None when refused."""
    p = m.pending()
    if p is None or p.kind != "decision":
        return None
    try:
        fork = copies.take(m) if copies is not None else _replayed(m)
        fork.apply(Decision(p.name, p.actor, choice))
    except FubaError:  # (the match's own events replay; a refused answer is no fork)
        return None
    return fork


def after_default(m: Match, copies: Copies | None = None) -> Match | None:
    """A copy of ``m`` with the pending decision answered by its usual answer (its default), when
    the engine then asks, with no roll in between, a decision that is answered in one tap: a
    closed list of answers (areas or chips: the page decides which it can show), no usual answer
    of its own, not a move or a set-up. None otherwise."""
    p = m.pending()
    if p is None or p.kind != "decision" or p.default is None:
        return None
    fork = _answered(m, p.default, copies)
    nxt = fork.pending() if fork is not None else None
    if (
        fork is None
        or nxt is None
        or nxt.kind != "decision"
        or nxt.open
        or nxt.default is not None
        or nxt.name in D.MOVE_DECISIONS
        or nxt.name == D.SETUP
        or len(nxt.options) < 2
    ):
        return None
    return fork


def rolls_after(m: Match, copies: Copies | None = None) -> list[tuple[Any, Match]]:
    """(answer, copy of ``m`` with it applied) for each answer of the pending decision that the
    engine follows at once by a roll (the copy's pending request), in the order of the options.
    Only for a closed list of two to MAX_ANSWERS answers (not a move or a set-up), never the usual
    answer (the usual answer's tap stays a plain one); empty when more than MAX_ROLL_ANSWERS
    answers would be offered."""
    p = m.pending()
    if (
        p is None
        or p.kind != "decision"
        or p.open
        or p.name in D.MOVE_DECISIONS
        or p.name == D.SETUP
        or not 2 <= len(p.options) <= MAX_ANSWERS
    ):
        return []
    out: list[tuple[Any, Match]] = []
    for choice in p.options:
        if p.default is not None and choice == p.default:
            continue
        fork = _answered(m, choice, copies)
        nxt = fork.pending() if fork is not None else None
        if fork is not None and nxt is not None and nxt.kind == "roll":
            out.append((choice, fork))
    return out if len(out) <= MAX_ROLL_ANSWERS else []

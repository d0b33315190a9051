"""What the engine asks right after the usual answer of the pending decision.

A team that ends its free movements ("done") chooses its action at once (4.3.1, 4.3); a team that
plays no second actions ("no", 4.3.2) is asked the next turn's target area (4.2). A page may offer
the answers of that next decision beside the pending ones, so that one tap answers both (a tap
saved at every free movement a table ends): the log records both decisions, the usual answer
first, as if they were tapped one by one.

The next decision is found by playing the usual answer on a copy of the match (the rules are
generators, which cannot be copied: the copy replays the match's events, a few milliseconds for a
whole match with the compiled engine), so nothing here restates a rule.
"""

from __future__ import annotations

from . import decisions as D
from .errors import FubaError
from .events import Decision
from .machine import Match


def after_default(m: Match) -> Match | None:
    """A copy of ``m`` with the pending decision answered by its usual answer (its default), when
    the engine then asks, with no roll in between, a decision that is answered in one tap: a
    closed list of answers (areas or chips: the page decides which it can show), no usual answer
    of its own, not a move or a set-up. None otherwise."""
    p = m.pending()
    if p is None or p.kind != "decision" or p.default is None:
        return None
    fork = Match(m.header)
    try:
        for ev in m.events:
            fork.apply(ev)
        fork.apply(Decision(p.name, p.actor, p.default))
    except FubaError:  # (the match's own events replay; kept safe for a page's sake)
        return None
    nxt = fork.pending()
    if (
        nxt is None
        or nxt.kind != "decision"
        or nxt.open
        or nxt.default is not None
        or nxt.name in D.MOVE_DECISIONS
        or nxt.name == D.SETUP
        or len(nxt.options) < 2
    ):
        return None
    return fork

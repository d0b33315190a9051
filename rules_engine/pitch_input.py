"""The pitch as the input of a decision: which areas a tap may pick, and why the others not.

For a move decision (every name of ``decisions.MOVE_DECISIONS``) the legal moves are given as
sources and, per source, the destinations (like a chess board's legal moves per piece); for a
decision whose answer is an area (target area, corner spot, closest player, the player sent off
or injured, ...) the legal areas. Every other area gets a one-line reason in words. All of it is
computed by the decision's own check (``Pending.verify_fn``) or its options, so the page holds no
rule. Reasons name areas by the vocabulary of ``areas`` (the log's codes never reach a page).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from . import board as B
from . import decisions as D
from .areas import GOALKEEPER, in_words
from .errors import IllegalEventError
from .events import Pending
from .machine import Match
from .setpieces import SETUP_RULE, area_problem, previous_setup, setup_problems

_SETUP_KIND: Final[dict[str, str]] = {rule: kind for kind, rule in SETUP_RULE.items()}


def _straight_lines() -> tuple[tuple[int, ...], ...]:
    """Per area, the areas next to it and those further along its column."""
    return tuple(
        tuple(sorted(set(B.ADJ[a]) | {d for d in range(B.N_AREAS) if d != a and B.straight(a, d)}))
        for a in range(B.N_LOC)
    )


# Where one move may take a player, by the header's ruleset: rulebook 3 moves a player to an area
# next to his own (4.5); rulebook 2.0's defence and forward movements cross several areas in a
# straight line (4.8). Chosen once per question, as machine.FLOWS chooses the flow.
_REACH: Final[dict[str, tuple[tuple[int, ...], ...]]] = {"fuba-3": B.ADJ, "fuba-2": _straight_lines()}
_NOT_ASKED: Final = "not a choice in this question"
# why a destination that is not next to the chosen source is refused (every move of 4.5, 3.3, 5.x)
_FAR: Final = "a player moves to an area next to his own"
# why an area is not among the fixed options of these decisions (rulebook chapter in brackets)
_FIXED_REASONS: Final[dict[str, str]] = {
    D.CLOSEST_PLAYER: "not one of {team}'s players closest to the ball (4.2.2.1)",
    D.CORNER_SPOT: "not a corner flag at the end {team} attacks (5.3)",
    D.SENT_OFF_PLAYER: "no {team} outfield player there (5.6.2)",
    D.INJURED_PLAYER: "no {team} player there who can be the injured one (A4)",
    D.INJURED_PLAYER_INSTEAD: "not one of {team}'s players closest to the goalkeeper (A4)",
    D.SKILL_BALL_AREA: "the skill cannot put the ball there (A11)",
}


@dataclass(frozen=True, slots=True)
class PitchInput:
    """What a tap on the pitch may answer to the pending decision.

    ``kind``: "move" (sources → destinations), "area" (one area is the answer) or "setup" (the
    board editor: ``outfield`` players and the goalkeeper to place in ``areas``, the whole
    set-up checked by ``setup_check``).
    Areas are codes (the keys the page draws); the reasons are in words."""

    kind: str
    team: str
    sources: tuple[tuple[str, tuple[str, ...]], ...]  # outfield moves: (from, (to, ...))
    dribbles: tuple[tuple[str, tuple[str, ...]], ...]  # "FROM>TO+ball" moves (4.5.2)
    keeper: tuple[str, tuple[str, ...]] | None  # the goalkeeper's area and where he may go
    areas: tuple[str, ...]  # kind "area": the legal answers
    why_not: tuple[tuple[str, str], ...]  # (area, reason) for every area that is not legal
    why_not_to: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]  # per source: (to, reason)
    done: bool  # "done" (no more moves) is an answer
    outfield: int  # kind "setup": outfield players to place
    start: int = 0  # kind "setup": the preset the editor starts from (the team's previous set-up)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "team": self.team,
            "sources": {src: list(dsts) for src, dsts in self.sources},
            "dribbles": {src: list(dsts) for src, dsts in self.dribbles},
            "keeper": {"from": self.keeper[0], "to": list(self.keeper[1])} if self.keeper else None,
            "areas": list(self.areas),
            "why_not": dict(self.why_not),
            "why_not_to": {src: dict(reasons) for src, reasons in self.why_not_to},
            "far": _FAR if self.kind == "move" else None,
            "done": self.done,
            "outfield": self.outfield,
            "start": self.start,
        }


def _reason(p: Pending, choice: str, home: str, away: str) -> str | None:
    """None when ``choice`` is a legal answer, else the check's reason in words."""
    verify = p.verify_fn
    if verify is None:
        return None if choice in p.options else _NOT_ASKED
    try:
        verify(choice)
    except IllegalEventError as e:
        return _words(e, choice, home if p.actor == "home" else away, home, away)
    return None


def _words(e: IllegalEventError, choice: str, team: str, home: str, away: str) -> str:
    """The cause of a refusal as the page shows it: no "move X>Y is illegal:" preamble, the
    team by its name instead of "you", areas by their names, the chapter once."""
    cause = e.reason.split(" is illegal: ", 1)[-1]
    cause = cause.removeprefix(f"target area {choice} ").removeprefix("is ")
    if e.rule and not cause.endswith(")"):
        cause = f"{cause} ({e.rule})"
    cause = (
        cause.replace("you have", f"{team} have").replace("your ", f"{team}'s ").replace("you ", f"{team} ")
    )
    return in_words(cause, home, away)


def _most_common(reasons: list[tuple[str, str]]) -> str:
    texts = [why for _, why in reasons]
    return max(texts, key=texts.count)


def _source(
    m: Match, p: Pending, src: int, home: str, away: str
) -> tuple[list[str], list[str], list[tuple[str, str]]]:
    """From ``src``: the legal destinations, those with the ball, the refused ones and why."""
    code = B.NAMES[src]
    legal: list[str] = []
    balls: list[str] = []
    refused: list[tuple[str, str]] = []
    for dst in _REACH.get(m.header.ruleset, B.ADJ)[src]:
        if dst >= B.N_AREAS:
            continue
        to = B.NAMES[dst]
        why = _reason(p, f"{code}>{to}", home, away)
        if why is None:
            legal.append(to)
        else:
            refused.append((to, why))
        if src == m.st.ball and _reason(p, f"{code}>{to}+ball", home, away) is None:
            balls.append(to)
    return legal, balls, refused


def _moves(m: Match, p: Pending, team: int, home: str, away: str) -> PitchInput:
    ts = m.st.teams[team]
    team_name = m.header.teams[team].name
    sources: list[tuple[str, tuple[str, ...]]] = []
    dribbles: list[tuple[str, tuple[str, ...]]] = []
    why_not: list[tuple[str, str]] = []
    why_not_to: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    for src in range(B.N_LOC):
        code = B.NAMES[src]
        if ts.field[src] <= 0:
            if ts.gk != src:
                why_not.append((code, f"no {team_name} player there"))
            continue
        legal, balls, refused = _source(m, p, src, home, away)
        if legal:
            sources.append((code, tuple(legal)))
            why_not_to.append((code, tuple(refused)))
        elif ts.gk != src:
            why_not.append((code, _most_common(refused) if refused else "no area next to it to move to"))
        if balls:
            dribbles.append((code, tuple(balls)))
    keeper: tuple[str, tuple[str, ...]] | None = None
    if ts.gk >= 0:
        gk_code = B.NAMES[ts.gk]
        to_gk = [B.NAMES[d] for d in _REACH.get(m.header.ruleset, B.ADJ)[ts.gk] if d < B.N_AREAS]
        legal_gk = tuple(d for d in to_gk if _reason(p, f"GK>{d}", home, away) is None)
        if legal_gk:
            keeper = (gk_code, legal_gk)
        elif all(src != gk_code for src, _ in sources):
            why = _reason(p, f"GK>{to_gk[0]}", home, away) if to_gk else None
            why_not.append((gk_code, why or "the goalkeeper cannot move now"))
    done = p.default == D.DONE
    return PitchInput(
        "move",
        p.actor,
        tuple(sources),
        tuple(dribbles),
        keeper,
        (),
        tuple(why_not),
        tuple(why_not_to),
        done,
        0,
    )


def _areas(m: Match, p: Pending, team: int, home: str, away: str) -> PitchInput:
    team_name = m.header.teams[team].name
    options = p.options
    legal = tuple(o for o in options if isinstance(o, str) and o in B.INDEX)
    fixed = _FIXED_REASONS.get(p.name, _NOT_ASKED).format(team=team_name)
    why_not: list[tuple[str, str]] = []
    for code in B.NAMES:
        if code in legal:
            continue
        why = _reason(p, code, home, away) if p.verify_fn is not None and p.name == D.TARGET_AREA else fixed
        why_not.append((code, why or fixed))
    return PitchInput("area", p.actor, (), (), None, legal, tuple(why_not), (), False, 0)


def _setup(m: Match, p: Pending, team: int, home: str, away: str) -> PitchInput:
    """The board editor: the areas where an outfield player may stand (whatever the others do)
    and why not elsewhere; the counts are checked by setup_check."""
    kind = _SETUP_KIND.get(p.rule, "")
    team_name = m.header.teams[team].name
    allowed: list[str] = []
    why_not: list[tuple[str, str]] = []
    for a in range(B.N_LOC):
        why = area_problem(m, kind, team, a, m.st.ball) if kind else None
        if why is None:
            allowed.append(B.NAMES[a])
        else:
            why_not.append((B.NAMES[a], _words(IllegalEventError(why), "", team_name, home, away)))
    outfield = m.st.teams[team].outfield()
    # a table sets up as it did before (a goal, the second half): the editor starts from that
    previous = previous_setup(m, team, kind) if kind else None
    options = list(p.options)
    start = options.index(previous) if previous is not None and previous in options else 0
    return PitchInput(
        "setup", p.actor, (), (), None, tuple(allowed), tuple(why_not), (), False, outfield, start
    )


def pitch_input(m: Match) -> PitchInput | None:
    """How the pitch answers the pending decision, or None when it is not answered on the pitch
    (a roll, a yes/no question, a list of other choices)."""
    p = m.pending()
    if p is None or p.kind != "decision" or p.actor not in B.TEAM_NAMES:
        return None
    team = B.TEAM_NAMES.index(p.actor)
    home, away = m.header.teams[0].name, m.header.teams[1].name
    if p.name in D.MOVE_DECISIONS:
        return _moves(m, p, team, home, away)
    if p.name == D.SETUP:
        return _setup(m, p, team, home, away)
    options = p.options
    if options and all(isinstance(o, str) and (o in B.INDEX or o == GOALKEEPER) for o in options):
        return _areas(m, p, team, home, away)
    return None


def auto_answer(p: Pending) -> tuple[bool, Any]:
    """(True, the answer) when a page may answer a decision without asking the player: its one
    legal answer, or the default of a moot prompt (``Pending.moot``: the other answers change
    nothing in play); else (False, None)."""
    single, answer = only_answer(p)
    if single:
        return single, answer
    if p.kind == "decision" and p.moot and p.default is not None:
        return True, p.default
    return False, None


def only_answer(p: Pending) -> tuple[bool, Any]:
    """(True, the answer) when a decision has exactly one legal answer (a page may take it
    itself; the log records it like any other decision), else (False, None)."""
    if p.kind != "decision" or p.open:
        return False, None
    options = p.options
    if len(options) == 1:
        return True, options[0]
    return False, None


@dataclass(frozen=True, slots=True)
class SetupCheck:
    """A proposed set-up judged by the set-up rules (3.3, 3.3.1, 5.2.1, 5.3.1, 5.5.1): ``ok``
    exactly when the pending ``setup`` decision accepts it, else every problem in words."""

    ok: bool
    problems: tuple[str, ...]
    placed: int  # outfield players placed
    outfield: int  # outfield players the team has on the pitch

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "problems": list(self.problems),
            "placed": self.placed,
            "outfield": self.outfield,
        }


def setup_check(m: Match, choice: Any) -> SetupCheck:
    """Check a set-up for the pending ``setup`` decision without applying it; raises
    IllegalEventError when no set-up is asked now."""
    p = m.pending()
    if p is None or p.kind != "decision" or p.name != D.SETUP:
        raise IllegalEventError("no set-up is asked now", rule="3.3")
    team = B.TEAM_NAMES.index(p.actor)
    home, away = m.header.teams[0].name, m.header.teams[1].name
    if p.rule in _SETUP_KIND:
        found = setup_problems(m, _SETUP_KIND[p.rule], team, choice, m.st.ball)
    else:  # another ruleset's set-up (rulebook 2.0: 3.2, 5.1.1, ...): its own check, first problem
        found = _verified(p, choice)
    team_name = m.header.teams[team].name
    problems = tuple(
        _words(IllegalEventError(why, rule=rule), "", team_name, home, away).removeprefix("illegal set-up: ")
        for why, rule in found
    )
    players = choice.get("players") if isinstance(choice, dict) else None
    placed = sum(n for n in players.values() if type(n) is int and n > 0) if isinstance(players, dict) else 0
    return SetupCheck(not problems, problems, placed, m.st.teams[team].outfield())


def _verified(p: Pending, choice: Any) -> list[tuple[str, str]]:
    """The problem the decision's own check finds with ``choice`` (none when it accepts it)."""
    if p.verify_fn is None:
        return [] if choice in p.options else [("not one of the set-ups offered", p.rule)]
    try:
        p.verify_fn(choice)
    except IllegalEventError as e:
        return [(e.reason, e.rule)]
    return []

"""4.3.1 free movements: at the beginning of a team's first action, a move from each area it
outnumbers the opponent in, straight away from the goal line, the goalkeeper into its penalty area
and the extra moves of A11's skills (runner, fast defender, box-to-box midfielder)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from . import board as B
from . import decisions as D
from .context import MatchContext
from .events import Decision, Event, Pending
from .moves import MoveCtx
from .skill_hooks import extra_free_move, spend_skill
from .skills import skill_active

Flow = Generator[Pending, Event, Any]
_EXTRA_MOVE_SKILLS: Final = frozenset({"runner", "fast_defender", "box_to_box_midfielder"})
_ALL_LOCS: Final = list(range(B.N_LOC))  # (only read)
# the board's sets as tables by location, built once: every candidate move of every ask reads them
_ON_GOAL_LINE: Final[tuple[bool, ...]] = tuple(a in B.GOAL_LINE_AREAS for a in range(B.N_LOC))
_AWAY_FROM_GOAL_LINE: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(B.away_from_goal_line(a, b) for b in range(B.N_LOC)) for a in range(B.N_LOC)
)
_IN_ATTACK: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(a in B.ATTACK_ZONE[t] for a in range(B.N_LOC)) for t in (0, 1)
)
_IN_DEFENCE: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(a in B.DEFENCE_ZONE[t] for a in range(B.N_LOC)) for t in (0, 1)
)
# why no free movement starts from an area (built once: the free movements check every candidate)
_NO_FREE_MOVE: Final = tuple(
    f"no free movement from {name}: you do not outnumber the opponent there and it is "
    "not a straight move away from the goal line (4.3.1)"
    for name in B.NAMES
)


def _free_sources(m: MatchContext, team: int, outnumber: list[bool], goal_line: list[int]) -> list[int]:
    """The areas free movements may start from (4.3.1), in area order, and why, in one pass over
    the playing areas (every team's first action asks it; no corner-kick spot is on a goal line
    or counted): ``outnumber`` (by location) is set where ``team`` outnumbers the opponent (1.4.1:
    goalkeepers count, at most six players an area), ``goal_line`` (by location) to the team's
    outfield players on a goal line, who may move straight away from it."""
    st = m.st
    ts, os_ = st.teams[team], st.teams[1 - team]
    tf, of = ts.field, os_.field
    tg, og = ts.gk, os_.gk
    out: list[int] = []
    for a in range(B.N_AREAS):
        n = tf[a]
        if n <= 0:
            continue
        if _ON_GOAL_LINE[a]:
            goal_line[a] = n
        if tg == a:
            n += 1
        o = of[a]
        if og == a:
            o += 1
        # min(n, 6) > min(o, 6) (at most six players an area count), without the two minimums
        if o < 6 and n > o:
            outnumber[a] = True
            out.append(a)
        elif _ON_GOAL_LINE[a]:
            out.append(a)
    return out


class _FreeMoves(MoveCtx):
    """The moves of 4.3.1's free movements: a move's common rules, then whether it is free (a
    class rather than closures: every candidate move of the sequence asks it)."""

    __slots__ = ("gk_free", "goal_line", "outnumber", "skill_ok", "skills")

    def __init__(
        self,
        m: MatchContext,
        team: int,
        outnumber: list[bool],
        goal_line: list[int],
        gk_ok: bool,
        skills: bool,
    ) -> None:
        super().__init__(m, team, "4.3.1", gk_allowed=gk_ok)
        self.outnumber = outnumber  # by location: its outnumbering allows one free move
        self.goal_line = goal_line  # by location: players on the goal line that may move away
        self.gk_free = gk_ok
        # whether an extra-move skill was active at the start (A11): none becomes active during
        # the sequence (only spending one changes the condition points), so without one no
        # candidate need ask the skills
        self.skills = skills
        # extra_free_move's skills still to be played (runner, fast defender, box-to-box) as of
        # the current ask, worked out for its first candidate that needs them and forgotten
        # before the next ask (the state holds still from an ask to its answer): a move is free
        # by a skill only where one of them is
        self.skill_ok: tuple[bool, bool, bool] | None = None

    def _skills(self) -> tuple[bool, bool, bool]:
        m, team = self.m, self.team
        used = m.st.flags.extra_free_move_used
        ok = (
            "runner" not in used and skill_active(m, team, "runner"),
            "fast_defender" not in used and skill_active(m, team, "fast_defender"),
            "box_to_box_midfielder" not in used and skill_active(m, team, "box_to_box_midfielder"),
        )
        self.skill_ok = ok
        return ok

    def _free(self, src: int, dst: int) -> bool:
        """Whether an outfield move is free (``extra_check`` without the regista), from the
        numbers, the goal line or a skill: tested before the common rules, which most
        candidates of the free movements pass and most fail this."""
        if self.outnumber[src]:
            return True
        if self.goal_line[src] > 0 and _AWAY_FROM_GOAL_LINE[src][dst]:
            return True
        if not self.skills:
            return False
        ok = self.skill_ok
        if ok is None:
            ok = self._skills()
        team = self.team
        return (
            (ok[0] and _IN_ATTACK[team][dst])
            or (ok[1] and _IN_DEFENCE[team][dst])
            or (ok[2] and src == B.CENTRE and B.straight(src, dst))
        )

    def any_move(self) -> bool:
        """``MoveCtx.any_move``, the candidates that are not free passed over first."""
        ts = self.m.st.teams[self.team]
        field = ts.field
        n_areas = B.N_AREAS
        once, used = self.once, self.used
        for src in self._source_areas():
            # (MoveCtx._movers inlined: asked of every source area of every ask)
            k = field[src]
            if k > 0 and not (once and k - used[src] <= 0):
                for dst in B.ADJ[src]:
                    if dst < n_areas and self._free(src, dst) and self.check(src, dst, False, False) is None:
                        return True
        gk = ts.gk
        if gk >= 0 and self.gk_free:
            dst = B.PEN[self.team]
            if dst in B.ADJ_SET[gk] and self.check(gk, dst, True, False) is None:
                return True
        return False

    def extra_check(self, src: int, dst: int, gk: bool, ball: bool) -> str | None:
        if gk:
            if self.gk_free and dst == B.PEN[self.team]:
                return None
            return "only a goalkeeper next to its own penalty area can move freely, into it (4.3.1)"
        f = self.m.st.flags
        # A11 regista: "no players can be moved by free player movements into the target area":
        # neither team's, the controlling team's own included.
        if f.regista >= 0 and dst == f.target:
            return "regista: no free movement into the target area this turn (A11)"
        if self.outnumber[src]:
            return None
        if self.goal_line[src] > 0 and _AWAY_FROM_GOAL_LINE[src][dst]:
            return None
        if self.skills and extra_free_move(self.m, self.team, src, dst):
            return None
        return _NO_FREE_MOVE[src]


def free_movements(m: MatchContext, team: int) -> Flow:
    """4.3.1 free movements at the beginning of a team's first action."""
    st = m.st
    if team in st.flags.no_free_moves:
        return
    ts = st.teams[team]
    tg = ts.gk
    outnumber = [False] * B.N_LOC
    goal_line = [0] * B.N_LOC
    # the areas players may move from, in area order: an area only ever loses its free
    # movements (each ask tests whether any move is left)
    from_areas = _free_sources(m, team, outnumber, goal_line)
    own_pen = B.PEN[team]
    gk_ok = tg >= 0 and tg != own_pen and own_pen in B.ADJ_SET[tg]
    a11 = st.uses("A11")
    skills_possible = False
    if a11:
        for sk in ts.skills:  # (a loop over the team's few skills, not any() over a generator)
            if sk in _EXTRA_MOVE_SKILLS and skill_active(m, team, sk):
                skills_possible = True
                break
    if not (from_areas or gk_ok or skills_possible):
        return  # no player may move freely: nothing to ask
    ctx = _FreeMoves(m, team, outnumber, goal_line, gk_ok, skills_possible)
    # (kept between the asks)
    ctx.areas = _ALL_LOCS if skills_possible else from_areas

    # (closures, not the bound methods ``ctx.verify`` and ``ctx.why``: compiled, a bound method
    # of a native class is made by a generic attribute lookup, which costs more than a closure)
    def verify(c: Any) -> None:
        ctx.verify(c)

    def why(c: Any) -> str | None:
        return ctx.why(c)

    def options() -> tuple[str, ...]:
        return (*ctx.options(), D.DONE)

    # one request for the free movements (a request is read-only), made again only if a skill's
    # cost moved the turn on to another stage
    p: Pending | None = None
    while True:
        ctx.skill_ok = None  # (the extra-move skills worked out again for this ask)
        if not ctx.any_move():
            m.skip(D.FREE_MOVE, team, D.DONE)  # "done" is the only answer: asking would only cost a tap
            return
        if p is None or p.stage != st.stage:
            # (``why``: a coach probes its candidates without an error raised for each refused one)
            p = m.ask(D.FREE_MOVE, team, "4.3.1", options, verify, "free movement", False, D.DONE, why)
        ev = yield p
        # a string: the request's verify passed it (typed, the compiled match compares it as one)
        # (answer_choice inlined: the match hands a decision the request verified)
        c: str = ev.choice if type(ev) is Decision else ""
        if c == D.DONE:
            return
        mv = ctx.parsed(c)
        src, dst, gk, _ = mv
        if gk:
            ctx.gk_free = False
        elif goal_line[src] > 0 and _AWAY_FROM_GOAL_LINE[src][dst]:
            goal_line[src] -= 1
        elif outnumber[src]:
            outnumber[src] = False
        else:
            skill = extra_free_move(m, team, src, dst)
            assert skill is not None
            st.flags.extra_free_move_used.add(skill)
            spend_skill(m, team, skill)
        ctx.do(mv)
        if not skills_possible and not gk and not outnumber[src] and goal_line[src] <= 0:
            from_areas.remove(src)

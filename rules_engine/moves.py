"""Single player moves: the common machinery of every "move a player" decision.

A move is written ``"FROM>TO"`` (an outfield player), ``"GK>TO"`` (the
goalkeeper) or ``"FROM>TO+ball"`` (dribbling, 4.5.2).  ``"done"`` (``decisions.DONE``) ends a
sequence of optional moves.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Final

from . import board as B
from . import decisions as D
from .context import MatchContext
from .errors import IllegalEventError
from .events import Decision, Event, Pending, answer_choice
from .movebase import Move, move_player, not_a_move, parse_move
from .rules import closest_areas, second_last_area

Flow = Generator[Pending, Event, Any]

_PARSE: Final[dict[str, Move]] = {}
for _s in range(B.N_LOC):
    for _d in range(B.N_LOC):
        _PARSE[f"{B.NAMES[_s]}>{B.NAMES[_d]}"] = (_s, _d, False, False)
        _PARSE[f"{B.NAMES[_s]}>{B.NAMES[_d]}+ball"] = (_s, _d, False, True)
_GK_PARSE: Final[dict[str, int]] = {f"GK>{n}": i for i, n in enumerate(B.NAMES)}


# every move's name, built once (an options list names each legal move)
# (each pair typed tuple[str, ...]: mypyc unboxes a fixed pair read from the table and boxes
# it anew to index it by ``ball``)
_NAMES: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple((f"{B.NAMES[s]}>{B.NAMES[d]}", f"{B.NAMES[s]}>{B.NAMES[d]}+ball") for d in range(B.N_LOC))
    for s in range(B.N_LOC)
)
_GK_NAMES: Final[tuple[str, ...]] = tuple(f"GK>{n}" for n in B.NAMES)
# whether a move from one location to another stays on the board's adjacency and ends in a playing
# area, as a table (every candidate move of a list asks it)
_ADJACENT_AREA: Final[tuple[tuple[bool, ...], ...]] = tuple(
    tuple(d in B.ADJ_SET[s] and d < B.N_AREAS for d in range(B.N_LOC)) for s in range(B.N_LOC)
)
_ALL_LOCS: Final = list(range(B.N_LOC))  # (only read)


def fmt(src: int, dst: int, gk: bool = False, ball: bool = False) -> str:
    if gk:
        return _GK_NAMES[dst]
    return _NAMES[src][dst][1 if ball else 0]


Extra = Callable[[int, int, bool, bool], str | None]


class MoveCtx:
    """Constraints of one sequence of moves by one team."""

    __slots__ = (
        "_sl",
        "areas",
        "dribble",
        "dribble_src",
        "dribbled",
        "gk_allowed",
        "gk_used",
        "keep_ball_player",
        "last_choice",
        "last_move",
        "m",
        "offside",
        "once",
        "rule",
        "rule_check",
        "sources",
        "team",
        "used",
    )

    def __init__(
        self,
        m: MatchContext,
        team: int,
        rule: str,
        *,
        offside: bool = True,
        keep_ball_player: bool = True,
        once_per_player: bool = True,
        extra: Extra | None = None,
        dribble: Callable[[int, int], str | None] | None = None,
        gk_allowed: bool = True,
        sources: Callable[[], list[int]] | None = None,
    ) -> None:
        self.m = m
        self.team = team
        self.rule = rule
        self.offside = offside
        self.keep_ball_player = keep_ball_player
        self.once = once_per_player
        self.rule_check = extra
        self.dribble = dribble
        self.gk_allowed = gk_allowed
        self.sources = sources  # restricts the areas players can be moved from
        # or the list of those areas, kept by the sequence (None: ``sources``, else every area)
        self.areas: list[int] | None = None
        self.used = [0] * B.N_LOC  # players that arrived by a move of this sequence
        self._sl: int | None = -1  # cached second-last defender area (5.1)
        self.gk_used = False
        self.dribbled = False
        self.dribble_src = -1
        # the last answer ``verify`` passed and its move: the sequence makes that move next
        self.last_choice: Any = None
        self.last_move: Move = (0, 0, False, False)

    def parse(self, choice: Any) -> Move | None:
        return parse_move(_PARSE, _GK_PARSE, self.m.st.teams[self.team].gk, choice)

    def parsed(self, choice: Any) -> Move:
        """The move of an answer the match has verified (parsed once, by ``verify``)."""
        if choice is self.last_choice:
            return self.last_move
        mv = self.parse(choice)
        assert mv is not None
        return mv

    def check(self, src: int, dst: int, gk: bool, ball: bool) -> str | None:
        st = self.m.st
        ts = st.teams[self.team]
        if gk:
            if not self.gk_allowed:
                return "the goalkeeper cannot be moved here"
            if ts.gk < 0:
                return "the goalkeeper is not on the pitch"
            if self.once and self.gk_used:
                return "the goalkeeper has already moved"
            src = ts.gk
        else:
            if ts.field[src] <= 0:
                return f"you have no outfield player in {B.NAMES[src]}"
            if self.once and ts.field[src] - self.used[src] <= 0:
                return f"every player of yours in {B.NAMES[src]} has already moved in this {self.rule} move"
        if not _ADJACENT_AREA[src][dst]:
            return f"{B.NAMES[dst]} is not adjacent to {B.NAMES[src]}"
        ct = self.team == st.ct
        if ball:
            if not ct or src != st.ball:
                return "only the controlling team's player in the ball area can dribble (4.5.2)"
            if self.dribble is None or self.dribbled:
                return "dribbling is not possible in this move (4.5.2)"
            why = self.dribble(src, dst)
            if why:
                return why
        if ct and self.keep_ball_player and src == st.ball and not ball and ts.raw(src) <= 1:
            return "the controlling team must keep a player in the ball area (4.5.3)"
        if ct and self.offside and not ball and self._offside(src, dst):
            return f"moving into {B.NAMES[dst]} puts the player in an offside position (4.5.1)"
        return self.extra_check(src, dst, gk, ball)

    def extra_check(self, src: int, dst: int, gk: bool, ball: bool) -> str | None:
        """The sequence's own rule after the common ones (``extra``); a sequence with rules of
        its own overrides it (a method: every candidate move of a list asks it)."""
        rule_check = self.rule_check
        return rule_check(src, dst, gk, ball) if rule_check is not None else None

    def _source_areas(self) -> list[int]:
        areas = self.areas
        if areas is not None:
            return areas
        return self.sources() if self.sources is not None else _ALL_LOCS

    def _offside(self, src: int, dst: int) -> bool:
        st = self.m.st
        team = self.team
        if dst == B.CENTRE or not B.in_opp_half_entirely(team, dst):
            return False
        ball = st.ball if st.ball < B.N_AREAS else B.CORNER_OF_SPOT[st.ball]
        if not B.beyond(team, dst, ball) or B.backward(team, src, dst):
            return False
        if self._sl == -1:
            self._sl = second_last_area(st.teams[1 - team], 1 - team)
        return self._sl is not None and B.beyond(team, dst, self._sl)

    def _movers(self, field: list[int], src: int) -> bool:
        """Whether a player in ``src`` may still move in this sequence (the first two tests of
        ``check``, which refuses every move from ``src`` otherwise): the lists skip the area."""
        n = field[src]
        return n > 0 and not (self.once and n - self.used[src] <= 0)

    def options(self) -> tuple[str, ...]:
        ts = self.m.st.teams[self.team]
        out: list[str] = []
        for src in self._source_areas():
            if self._movers(ts.field, src):
                for dst in B.ADJ[src]:
                    if dst < B.N_AREAS and self.check(src, dst, False, False) is None:
                        out.append(fmt(src, dst))
                    if (
                        self.dribble is not None
                        and not self.dribbled
                        and dst < B.N_AREAS
                        and self.check(src, dst, False, True) is None
                    ):
                        out.append(fmt(src, dst, False, True))
        if ts.gk >= 0 and self.gk_allowed:
            for dst in B.ADJ[ts.gk]:
                if dst < B.N_AREAS and self.check(ts.gk, dst, True, False) is None:
                    out.append(fmt(ts.gk, dst, True))
        return tuple(out)

    def any_move(self) -> bool:
        """Whether at least one move is legal (``options`` without listing them all)."""
        ts = self.m.st.teams[self.team]
        dribble = self.dribble is not None and not self.dribbled
        field, once, used = ts.field, self.once, self.used
        for src in self._source_areas():
            # (_movers inlined: every move of a sequence asks this first)
            n = field[src]
            if n > 0 and not (once and n - used[src] <= 0):
                for dst in B.ADJ[src]:
                    if dst < B.N_AREAS and (
                        self.check(src, dst, False, False) is None
                        or (dribble and self.check(src, dst, False, True) is None)
                    ):
                        return True
        if ts.gk >= 0 and self.gk_allowed:
            for dst in B.ADJ[ts.gk]:
                if dst < B.N_AREAS and self.check(ts.gk, dst, True, False) is None:
                    return True
        return False

    def verify(self, choice: Any, allow_done: bool = True) -> None:
        if choice == D.DONE and allow_done:
            return
        mv = self.parse(choice)
        if mv is None:
            raise not_a_move(choice, self.rule)
        # movebase.verify_move inlined: passing ``self.check`` would make a bound method and
        # call it generically (compiled), where this is a direct call
        src, dst, gk, ball = mv
        why = self.check(src, dst, gk, ball)
        if why:
            raise IllegalEventError(f"move {choice} is illegal: {why}", rule=self.rule)
        self.last_choice = choice
        self.last_move = mv

    def why(self, choice: Any, allow_done: bool = True) -> str | None:
        """Why ``choice`` is not a legal answer, or None: ``verify`` without raising."""
        if choice == D.DONE and allow_done:
            return None
        mv = self.parse(choice)
        if mv is None:
            return "not a move"
        src, dst, gk, ball = mv
        why = self.check(src, dst, gk, ball)
        if why:
            return why
        # kept as ``verify`` keeps it: a coach's checked answer is taken without ``verify``
        # (``Pending.vouched``), and the sequence then reads its move here
        self.last_choice = choice
        self.last_move = mv
        return None

    def do(self, mv: Move) -> None:
        src, dst, gk, ball = mv
        st = self.m.st
        move_player(st, self.team, mv, self.used)
        if gk:
            self.gk_used = True
        else:
            st.flags.moved_turn[self.team][dst] += 1
        if ball:
            self.dribbled = True
            self.dribble_src = src


def move_seq(
    m: MatchContext,
    ctx: MoveCtx,
    name: str,
    limit: int,
    prompt: str = "",
    optional: bool = True,
) -> Generator[Pending, Event, int]:
    """Ask for up to `limit` moves; returns how many were made."""
    n = 0
    verify: Callable[[Any], None]
    why: Callable[[Any], str | None]
    if optional:
        verify = ctx.verify
        why = ctx.why
    else:

        def verify(c: Any) -> None:
            ctx.verify(c, False)

        def why(c: Any) -> str | None:
            return ctx.why(c, False)

    def options() -> tuple[str, ...]:
        opts = ctx.options()
        return (*opts, D.DONE) if optional else opts

    default = D.DONE if optional else None
    # one request for every move of the sequence: a request is read-only, and nothing it names
    # (turn, stage, the functions) changes between the moves
    p: Pending | None = None
    while n < limit:
        if optional and not ctx.any_move():
            # "done" is the only answer: asking would only cost a tap; a log may still answer it
            m.skip(name, ctx.team, D.DONE)
            break
        if p is None:
            p = m.ask(name, ctx.team, ctx.rule, options, verify, prompt, False, default, why)
        ev = yield p
        # a string: the request's verify passed it (typed, the compiled match compares it as one)
        # (answer_choice inlined: the match hands a decision the request verified)
        c: str = ev.choice if type(ev) is Decision else ""
        if c == D.DONE:
            break
        ctx.do(ctx.parsed(c))
        n += 1
    return n


def closest_player(m: MatchContext, team: int) -> Flow:
    """4.2.2.1: the team with the ball must move its closest player to the target area.

    1.2: "A goalkeeper counts as a player unless the rules state otherwise": a keeper strictly
    closer than every outfield player is the one that moves (I-48); at equal distance the team
    moves "one of them", an outfield player, and keeps its keeper in goal.
    """
    st = m.st
    ts = st.teams[team]
    target = st.ball
    if ts.has(target):
        return
    cands = closest_areas(ts, target)
    if ts.gk >= 0 and (not cands or B.DIST[ts.gk][target] < B.DIST[cands[0]][target]):
        cands = [ts.gk]
    if not cands:
        return
    opts = tuple(B.NAMES[a] for a in cands)
    if len(opts) == 1:
        src = cands[0]
    else:
        c = answer_choice(
            (yield m.ask(D.CLOSEST_PLAYER, team, "4.2.2.1", lambda: opts, None, "which player?"))
        )
        src = B.INDEX[c]
    if ts.field[src] > 0:
        ts.field[src] -= 1
        ts.field[target] += 1
    else:
        ts.gk = target
    st.flags.moved_turn[team][target] += 1

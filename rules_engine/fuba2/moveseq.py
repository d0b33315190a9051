"""Sequences of single player moves in rulebook 2.0: the movement stage's moves of one option
(4.8.1-4.8.5) or mixed with a condition point (A1.1), dribbling (4.8.8), free movements
(4.8.7), the special events' moves (4.4.3), the closest player (4.4.2) and the set-up
adjustment (3.2).

A move is written as in FUBA 3's logs: ``"FROM>TO"`` (an outfield player; a forward or
defence move may cross several areas), ``"GK>TO"`` (the goalkeeper), ``"FROM>TO+ball"``
(dribbling); ``"done"`` ends a sequence.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any, Final

from .. import board as B
from .. import decisions as D
from ..context import MatchContext
from ..errors import IllegalEventError
from ..events import Event, Pending, answer_choice
from ..movebase import Move, move_player, not_a_move, parse_move
from .movement import (
    DEFENCE,
    FORWARD,
    GK_MAX_AREAS,
    GOALKEEPER,
    MIDFIELD,
    NOT_STRAIGHT,
    OPTIONS,
    PATH_TABLE,
    STOPS_IN,
    STRAIGHT_ENDS,
    closest_players,
    dribble_problem,
    free_move_problem,
    move_problem,
    straight_path,
)
from .offside import Side, second_last_area
from .turnstate import F2, players, side

Flow = Generator[Pending, Event, Any]

OPTION: Final = "option"  # the moves of one movement option (4.8.1-4.8.3)
MIXED: Final = "mixed"  # with a condition point: "the team can mix the movement types" (4.8.9, A1.1)
FREE: Final = "free"  # 4.8.7
SPECIAL: Final = "special"  # 4.4.3 rows -5, -3, 3: to adjacent areas
ADJUST: Final = "adjust"  # 3.2: the controlling team's 0-2 moves after the set-ups
# the kinds in the order of their int codes (``Moves.k``): the checks compare ints
_KINDS: Final[tuple[str, ...]] = (OPTION, MIXED, FREE, SPECIAL, ADJUST)
_K_OPTION: Final = 0
_K_MIXED: Final = 1
_K_FREE: Final = 2
_K_SPECIAL: Final = 3
_K_ADJUST: Final = 4
_KIND_CODE: Final[dict[str, int]] = {k: i for i, k in enumerate(_KINDS)}
_OPTION_CODE: Final[dict[str, int]] = {o: i for i, o in enumerate(OPTIONS)}

_PARSE: Final[dict[str, Move]] = {}
for _s in range(B.N_LOC):
    for _d in range(B.N_AREAS):
        _PARSE[f"{B.NAMES[_s]}>{B.NAMES[_d]}"] = (_s, _d, False, False)
        _PARSE[f"{B.NAMES[_s]}>{B.NAMES[_d]}+ball"] = (_s, _d, False, True)
_GK_PARSE: Final[dict[str, int]] = {f"GK>{n}": i for i, n in enumerate(B.NAMES[: B.N_AREAS])}

# B.ADJ_SET of every location as a bit mask (a midfield move's check reads it for every candidate)
_ADJ_BITS: Final[tuple[int, ...]] = tuple(sum(1 << a for a in B.ADJ_SET[s]) for s in range(B.N_LOC))
_ADJACENT: Final = tuple(tuple(a for a in B.ADJ[s] if a < B.N_AREAS) for s in range(B.N_AREAS))
# 4.8.7: "straight forward/backward one area away from the goal line"
_FREE_ENDS: Final = tuple(
    tuple(a for a in _ADJACENT[s] if B.away_from_goal_line(s, a)) for s in range(B.N_AREAS)
)
_MIXED_ENDS: Final = tuple(tuple(sorted(set(_ADJACENT[s]) | set(STRAIGHT_ENDS[s]))) for s in range(B.N_AREAS))


def _option_ends(team: int, option: str, src: int) -> tuple[int, ...]:
    """The only ends ``move_problem`` can accept for a move of ``option`` from ``src``: a
    midfield move sideways or diagonally to an adjacent area (4.8.1), a forward (defence) move
    straight ahead (back), 4.8.2 (4.8.3); the other rules are the check's."""
    if option == MIDFIELD:
        return tuple(a for a in _ADJACENT[src] if B.COL[a] != B.COL[src])
    return tuple(
        b
        for b in STRAIGHT_ENDS[src]
        if straight_path(team, src, b) is not None and B.beyond(team, b, src) == (option == FORWARD)
    )


# each team's ends of each movement option from each area: the options list checks only those
_OPTION_ENDS: Final[tuple[dict[str, tuple[tuple[int, ...], ...]], ...]] = tuple(
    {o: tuple(_option_ends(team, o, s) for s in range(B.N_AREAS)) for o in (DEFENCE, MIDFIELD, FORWARD)}
    for team in (B.HOME, B.AWAY)
)

# Moves.ends by kind, option and team (``Moves.__init__``)
_ENDS: Final[dict[int, tuple[tuple[int, ...], ...]]] = {}

Legal = Callable[[list[int], int], str | None]  # a set-up still legal after an adjustment (3.2)


# every move's name, built once (the options list names each legal move of every decision)
# (each pair typed tuple[str, ...]: mypyc unboxes a fixed pair read from the table and boxes
# it anew to index it by ``ball``)
_NAMES: Final[tuple[tuple[tuple[str, ...], ...], ...]] = tuple(
    tuple((f"{B.NAMES[s]}>{B.NAMES[d]}", f"{B.NAMES[s]}>{B.NAMES[d]}+ball") for d in range(B.N_LOC))
    for s in range(B.N_LOC)
)
_GK_NAMES: Final[tuple[str, ...]] = tuple(f"GK>{n}" for n in B.NAMES)


def fmt(src: int, dst: int, gk: bool, ball: bool) -> str:
    if gk:
        return _GK_NAMES[dst]
    return _NAMES[src][dst][1 if ball else 0]


def move_code(src: int, dst: int, gk: bool, ball: bool) -> int:
    """A move as one int: (source + 1) << 6 | destination << 1 | with the ball, the goalkeeper's
    source taken as -1 (``SeqOptions.codes``)."""
    return (0 if gk else (src + 1) << 6) | dst << 1 | (1 if ball else 0)


# the name of every move code (``fmt``; "" for the codes of no move)
CODE_NAMES: Final[tuple[str, ...]] = tuple(
    fmt(-1, (c >> 1) & 31, True, False)
    if c >> 6 == 0 and not c & 1 and (c >> 1) & 31 < B.N_LOC
    else (
        fmt((c >> 6) - 1, (c >> 1) & 31, False, bool(c & 1))
        if 0 < c >> 6 <= B.N_LOC and (c >> 1) & 31 < B.N_LOC
        else ""
    )
    for c in range((B.N_LOC + 1) << 6)
)


class Moves:
    """The constraints of one sequence of moves by one team."""

    __slots__ = (
        "arrived",
        "dribbled",
        "ends",
        "first",
        "g",
        "gk_moved",
        "k",
        "kind",
        "last_choice",
        "last_move",
        "legal",
        "m",
        "oc",
        "opp",
        "option",
        "own_ok",
        "rule",
        "sides",
        "sl",
        "team",
    )

    def __init__(
        self, m: MatchContext, g: F2, team: int, kind: str, option: str, rule: str, legal: Legal | None = None
    ) -> None:
        self.m = m
        self.g = g
        self.team = team
        self.kind = kind
        self.option = option
        self.rule = rule
        self.legal = legal
        self.arrived = [0] * B.N_LOC  # players that came by a move of this sequence (each moves once)
        self.gk_moved = False
        self.dribbled = False
        self.sides: tuple[Side, Side] | None = None
        # the opponent's side: its players hold still while this team moves (``do`` keeps it)
        self.opp: Side | None = None
        # whether the own side was checked since the last move (``_sides`` without the Side)
        self.own_ok = False
        # where ``any_move`` found the first legal outfield move since the last move (source << 5 |
        # its index in ``ends``; -1: not looked): the moves before it are illegal, it is legal
        self.first = -1
        # the last answer ``verify`` passed and its move: the sequence makes that move next
        self.last_choice: Any = None
        self.last_move: Move = (0, 0, False, False)
        # the opponent's second-last area (4.1.1) while ``sides`` holds: -2 not worked out yet
        self.sl: int | None = -2
        # the kind and the option as ints (every candidate of a list compares them)
        self.k = _KIND_CODE.get(kind, -1)
        self.oc = _OPTION_CODE.get(option, -1)
        # ``candidates`` of every area, worked out once per kind, option and team
        key = ((self.k + 1) * 4 + self.oc + 1) * 2 + team
        ends = _ENDS.get(key)
        if ends is None:
            ends = _ENDS[key] = tuple(self._candidates(src) for src in range(B.N_AREAS))
        self.ends = ends

    def parse(self, choice: Any) -> Move | None:
        return parse_move(_PARSE, _GK_PARSE, self.m.st.teams[self.team].gk, choice)

    def _sides(self) -> tuple[Side, Side]:
        if self.sides is None:
            st = self.m.st
            opp = self.opp
            if opp is None:
                opp = self.opp = side(st, 1 - self.team)
            self.sides = (side(st, self.team), opp)
        return self.sides

    def check(self, src: int, dst: int, gk: bool, ball: bool) -> str | None:
        """Why the move is not legal here ("chapter: reason"), or None."""
        st = self.m.st
        team = self.team
        ts = st.teams[team]
        k = self.k
        if gk:
            if k == _K_FREE:
                return "4.8.7: goalkeepers have no free movement"
            if self.gk_moved:
                return "4.8: the goalkeeper has already moved"
            src = ts.gk
        elif src >= B.N_LOC or ts.field[src] - self.arrived[src] <= 0:
            return f"4.8: no player of yours in {B.NAMES[src]} can move now"
        if dst == src or dst >= B.N_AREAS:
            return f"4.8: {B.NAMES[dst]} is not a move from {B.NAMES[src]}"
        ct = team == st.ct
        if k == _K_ADJUST:
            return "3.2: the ball is not moved in a set-up" if ball else self._adjust(src, dst, gk)
        if not self.own_ok:
            if not 0 <= ts.gk < B.N_AREAS:
                side(st, team)  # (refused as building the team's side refuses it)
            self.own_ok = True
        opp = self.opp
        if opp is None:
            opp = self.opp = side(st, 1 - team)
        if src >= B.N_AREAS:  # a corner taker before the corner is taken
            return "5.2.1: the corner taker stays on its spot until the corner is taken"
        why: str | None
        if k == _K_FREE:
            sides = self.sides
            if sides is None:
                sides = self._sides()
            why = free_move_problem(sides[0], src, dst, st.ball)
        elif k == _K_SPECIAL:
            why = None if dst in B.ADJ_SET[src] else "4.4.3: the player moves to an adjacent area"
            if why is None and ct and not B.backward(team, src, dst) and self._offside(opp, dst, st.ball):
                why = "4.8.5: a player cannot be moved into an offside position"
        else:
            why = self._ordinary(ts.field, ts.gk, opp, src, dst, gk, ct)
        if why is None and ball:
            why = self._dribble(opp, src, dst, ct)
        if why is None and ct and src == st.ball and not ball and players(st, team, src) <= 1:
            why = "4.8.9: the controlling team keeps a player in the same area as the ball"
        return why

    def _ordinary(
        self, wf: list[int], wg: int, opp: Side, src: int, dst: int, gk: bool, ct: bool
    ) -> str | None:
        """The move of the option (or, mixed, of any option): the team's players ``wf`` and
        goalkeeper ``wg`` (its side as it stands), the opponent's ``opp``."""
        ball = self.m.st.ball
        if self.k == _K_OPTION:
            oc = self.oc
            if oc < 0:
                return move_problem(side(self.m.st, self.team), opp, self.option, src, dst, gk, ball, ct)
            return self._problem(oc, wf, wg, opp, src, dst, gk, ball, ct)
        first = None
        for oc in range(3):  # (OPTIONS, in order)
            why = self._problem(oc, wf, wg, opp, src, dst, gk, ball, ct)
            if why is None:
                return None
            first = first or why
        return first

    def _problem(
        self,
        oc: int,
        wf: list[int],
        wg: int,
        opp: Side,
        start: int,
        end: int,
        goalkeeper: bool,
        ball: int,
        offside: bool,
    ) -> str | None:
        """``movement.move_problem`` for the option ``OPTIONS[oc]`` and a start and an end on the
        playing areas (as ``check`` calls it), the same verdict and reason; the tables read
        directly and the opponent's second-last area kept while the sides hold (a move list
        checks every candidate)."""
        team = self.team
        if oc == 1:  # midfield
            if not _ADJ_BITS[start] >> end & 1:  # (end in B.ADJ_SET[start])
                return "4.8.1: a midfield move goes to an adjacent area"
            if B.COL[start] == B.COL[end]:
                return "4.8.1: a midfield move goes sideways or diagonally, not straight forward or backwards"
        else:
            forward = oc == 2
            path = PATH_TABLE[team][start][end] if start >= 0 else None  # (straight_path's range)
            if path is None or B.beyond(team, end, start) != forward:
                return NOT_STRAIGHT[1 if forward else 0]
            if goalkeeper and len(path) > GK_MAX_AREAS:
                return "4.8.4: the goalkeeper moves at most two areas"
            of, og = opp.field, opp.gk
            for i in range(len(path) - 1):  # (the areas the move crosses, its end excluded)
                area = path[i]
                if of[area] + (1 if og == area else 0) > wf[area] + (1 if wg == area else 0):
                    return STOPS_IN[1 if forward else 0][area]
        if offside and not B.backward(team, start, end) and self._offside(opp, end, ball):
            return "4.8.5: a player cannot be moved into an offside position"
        return None

    def _offside(self, opp: Side, area: int, ball: int) -> bool:
        """``offside_position(opp, area, ball)``, the second-last area worked out once."""
        team = 1 - opp.team
        if area == B.CENTRE or area >= B.N_AREAS or not B.in_opp_half_entirely(team, area):
            return False
        if not B.beyond(team, area, B.CORNER_OF_SPOT.get(ball, ball)):
            return False
        sl = self.sl
        if sl == -2:
            sl = self.sl = second_last_area(opp)
        return sl is not None and B.beyond(team, area, sl)

    def _dribble(self, opp: Side, src: int, dst: int, ct: bool) -> str | None:
        if not ct or src != self.m.st.ball or self.kind not in (OPTION, MIXED):
            return "4.8.8: only the controlling team's player beside the ball dribbles, in its movement"
        if self.g.before_goal_kick:
            return "5.3: the controlling team cannot move the ball with a player before the goal kick"
        return dribble_problem(opp, src, dst, self.dribbled)

    def _adjust(self, src: int, dst: int, gk: bool) -> str | None:
        if dst not in B.ADJ_SET[src]:
            return "3.2: an adjusted player moves to an adjacent area"
        ts = self.m.st.teams[self.team]
        field = list(ts.field)
        keeper = ts.gk
        if gk:
            keeper = dst
        else:
            field[src] -= 1
            field[dst] += 1
        return self.legal(field, keeper) if self.legal is not None else None

    def candidates(self, src: int) -> tuple[int, ...]:
        """Where a player in `src` might go: a forward or defence move goes straight, maybe
        across several areas (4.8.2, 4.8.3), every other move to an adjacent area."""
        return self.ends[src] if src < B.N_AREAS else ()

    def _candidates(self, src: int) -> tuple[int, ...]:
        if src >= B.N_AREAS:
            return ()
        if self.kind == OPTION:
            ends = _OPTION_ENDS[self.team].get(self.option)
            if ends is not None:
                return ends[src]
            if self.option != OPTIONS[1]:
                return STRAIGHT_ENDS[src]
        if self.kind == MIXED:
            return _MIXED_ENDS[src]
        if self.kind == FREE:
            return _FREE_ENDS[src]
        return _ADJACENT[src]

    def options(self) -> tuple[str, ...]:
        names = CODE_NAMES
        return tuple([names[c] for c in self.codes()])

    def codes(self) -> list[int]:
        """The legal moves in the order of ``options``, each as ``move_code`` of it."""
        out: list[int] = []
        st = self.m.st
        ts = st.teams[self.team]
        field, arrived, ends = ts.field, self.arrived, self.ends
        ball = st.ball
        dribble = 0 <= self.k <= _K_MIXED and self.team == st.ct and not self.dribbled
        # (the corner spots have no candidates: the playing areas only)
        first = self.first
        for src in range(B.N_AREAS):
            if field[src] - arrived[src] <= 0:
                continue
            base = (src + 1) << 6
            e = ends[src]
            for i in range(len(e)):
                dst = e[i]
                at = src << 5 | i
                if at == first or (at > first and self.check(src, dst, False, False) is None):
                    out.append(base | dst << 1)
                if dribble and src == ball and self.check(src, dst, False, True) is None:
                    out.append(base | dst << 1 | 1)
        gk = ts.gk
        if self.k != _K_FREE and not self.gk_moved and 0 <= gk < B.N_AREAS:
            for dst in ends[gk]:
                if self.check(gk, dst, True, False) is None:
                    out.append(dst << 1)
        return out

    def any_move(self) -> bool:
        """Whether some move is legal (``options`` without listing them all)."""
        ts = self.m.st.teams[self.team]
        field, arrived, ends = ts.field, self.arrived, self.ends
        for src in range(B.N_AREAS):
            if field[src] - arrived[src] > 0:
                e = ends[src]
                for i in range(len(e)):
                    if self.check(src, e[i], False, False) is None:
                        self.first = src << 5 | i  # (``codes`` goes on from here)
                        return True
        self.first = B.N_AREAS << 5  # no outfield move is legal
        gk = ts.gk
        if self.k != _K_FREE and not self.gk_moved and 0 <= gk < B.N_AREAS:
            for dst in ends[gk]:
                if self.check(gk, dst, True, False) is None:
                    return True
        return False

    def verify(self, choice: Any) -> None:
        """``movebase.verify_move`` (its errors), with ``check`` called directly; the move kept."""
        if choice == D.DONE:
            return
        mv = self.parse(choice)
        if mv is None:
            raise not_a_move(choice, "4.8")
        src, dst, gk, ball = mv
        why = self.check(src, dst, gk, ball)
        if why:
            rule, _, why = why.partition(": ")
            raise IllegalEventError(f"move {choice} is illegal: {why}", rule=rule)
        self.last_choice = choice
        self.last_move = mv

    def parsed(self, choice: Any) -> Move:
        """The move of an answer the match has verified (parsed once, by ``verify``)."""
        if choice is self.last_choice:
            return self.last_move
        mv = self.parse(choice)
        assert mv is not None
        return mv

    def do(self, mv: Move) -> None:
        move_player(self.m.st, self.team, mv, self.arrived)
        if mv[2]:
            self.gk_moved = True
        if mv[3]:
            self.dribbled = True
        if 0 <= self.k <= _K_MIXED:
            self.g.turn.moved[self.team] += 1
        self.sides = None  # (the opponent's side and second-last area hold)
        self.own_ok = False
        self.first = -1


class SeqOptions:
    """The options of a move sequence's ask (``Pending.options_fn``): its legal moves and "done"
    when called; ``codes`` lists the same moves (without "done") as ``move_code`` ints, for a
    coach that scores every move and names only the one it makes (``CODE_NAMES``)."""

    __slots__ = ("mv",)

    def __init__(self, mv: Moves) -> None:
        self.mv = mv

    def __call__(self) -> tuple[str, ...]:
        return (*self.mv.options(), D.DONE)

    def codes(self) -> list[int]:
        return self.mv.codes()


def move_seq(
    m: MatchContext, mv: Moves, name: str, limit: int, prompt: str
) -> Generator[Pending, Event, int]:
    """Ask for up to `limit` moves, ended by "done" (the default); returns how many were made."""
    n = 0
    options = SeqOptions(mv)
    while n < limit:
        if not mv.any_move():
            m.skip(name, mv.team, D.DONE)  # "done" is the only answer: not asked
            break
        c = answer_choice((yield m.ask(name, mv.team, mv.rule, options, mv.verify, prompt, False, D.DONE)))
        if c == D.DONE:
            break
        mv.do(mv.parsed(c))
        n += 1
    return n


GK_NAME: Final = "GK"


def closest_player(m: MatchContext, g: F2, team: int, started_passive: bool) -> Flow:
    """4.4.2: the team with the ball and no player in the ball's area moves its closest player
    there ("this move is deducted from the number of moves the team is allowed")."""
    st = m.st
    target = st.ball
    if target >= B.N_AREAS or players(st, team, target):
        return
    cands = closest_players(side(st, team), target, started_passive)
    names = tuple(GK_NAME if a == GOALKEEPER else B.NAMES[a] for a in cands)
    pick = names[0]
    if len(names) > 1:
        pick = answer_choice(
            (
                yield m.ask(
                    D.CLOSEST_PLAYER, team, "4.4.2", lambda: names, None, "which player goes to the ball?"
                )
            )
        )
    ts = st.teams[team]
    if pick == GK_NAME:
        ts.gk = target
    else:
        ts.field[B.INDEX[pick]] -= 1
        ts.field[target] += 1
    g.turn.moved[team] += 1

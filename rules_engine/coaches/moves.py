"""The heuristic coach's moves (4.3.1, 4.5, 5.2.3, 5.4, set-up adjustment, skills): every single
move of the team scored by the value of the two areas for the team plus the local contests, the
best ones checked with the engine's own legality check.

Hot path (about 200 decisions a match): candidates are (gain, rank) pairs of numbers (the names
are looked up only for the few that are checked), scored per source by one comprehension over
precomputed (destination, rank) pairs, with the contest values read from part tables; a free move
without any eligible player is answered without scoring.
"""

from __future__ import annotations

from typing import Any

from .. import decisions as D
from ..errors import FubaError
from ..events import Pending
from ..state import MatchState, TeamState
from .positions import position_weights
from .style import Style
from .tables import (
    ADJ_PLAY,
    AREA_OF,
    BALL_PART,
    CORNER_SPOTS,
    DIST,
    DRIB_RANK,
    GK_RANK,
    IS_GOAL_LINE,
    MOVE_NAME,
    N_AREAS,
    N_LOC,
    NO_PEN_PART,
    PEN,
    PEN_PART,
    SRC_AREA,
    SRC_DST,
    SRC_RANK,
    STACK_GAIN,
    THREAT,
)


class _Contests:
    """The local contests of one move decision (see ``positions.contest_value``): the ball area
    and, near it, the penalty area that matters (the opponent's when in control, else the own),
    as part tables indexed by the team's numbers there."""

    def __init__(self, st: MatchState, team: int, field: list[int], gk: int) -> None:
        opp = st.teams[1 - team]
        ball = AREA_OF[st.ball]
        ct = st.ct == team
        pen = PEN[1 - team] if ct else PEN[team]
        self.ball = ball
        self.pen = pen
        self.ct = ct
        self.c_ball = field[ball] + (1 if gk == ball else 0)
        self.c_pen = field[pen] + (1 if gk == pen and not ct else 0)  # never in the opponent's box
        self.bpart: list[float] = BALL_PART[ct][opp.count(ball)]
        self.ppart: list[float] = PEN_PART[ct][opp.count(pen)] if DIST[ball][pen] <= 2 else NO_PEN_PART
        self.gk_home = gk == PEN[team]
        self.g_off = 0.0 if self.gk_home else 6.0
        self.base: float = self.bpart[self.c_ball] + self.ppart[self.c_pen] - (0.0 if self.gk_home else 6.0)


def move_candidates(
    st: MatchState, name: str, team: int, style: Style, cache: dict[int, list[float]]
) -> list[tuple[float, int]]:
    """The single moves of ``team`` worth making in a ``name`` sequence, as (gain, rank) pairs."""
    ts = st.teams[team]
    opp = st.teams[1 - team]
    gk = ts.gk
    free = name == D.FREE_MOVE
    # runner, fast defender, box-to-box midfielder (A11): a free move from anywhere
    extra_free = free and style.extra_free_moves and st.uses("A11")
    ts_field = ts.field
    ids: list[int] = []
    if free and not extra_free:
        _free_movers(ts, opp, ids)
        if not ids and (gk < 0 or gk == PEN[team]):
            return []  # no candidate at all
    else:
        for src in range(N_LOC):  # every player may move
            if ts_field[src]:
                ids.append(src)
    w = position_weights(st, team, style, cache)
    field = ts_field[:]
    for s in CORNER_SPOTS:  # a corner taker counts in its corner area
        if field[s]:
            field[AREA_OF[s]] += field[s]
            field[s] = 0
    contests = _Contests(st, team, field, gk)
    # a move must be worth the trouble (keeps the sequences short)
    threshold = 0.25 if free else 0.12
    drib_src = contests.ball if contests.ct and name == D.MOVE and not opp.has(contests.ball) else -1
    cands = _player_moves(
        ids,
        w,
        field,
        contests,
        PEN[1 - team],
        PEN[team],
        threshold,
        drib_src,
        THREAT[team],
        style.dribble_bonus,
    )
    if gk >= 0 and not contests.gk_home:
        cands += _goalkeeper_moves(gk, PEN[team], contests, threshold)
    return cands


def _free_movers(ts: TeamState, opp: TeamState, ids: list[int]) -> None:
    """4.3.1: a free move only from an outnumbering area (players per area as 1.4.1 counts them:
    goalkeeper included, at most six) or straight off a goal line (ids past ``N_LOC``), added
    to ``ids``."""
    ts_field, gk = ts.field, ts.gk
    of, og = opp.field, opp.gk
    for src in range(N_LOC):
        if not ts_field[src]:
            continue
        a = AREA_OF[src]
        o = ts_field[a] + (1 if gk == a else 0)
        t = of[a] + (1 if og == a else 0)
        if (6 if o > 6 else o) > (6 if t > 6 else t):
            ids.append(src)
        elif IS_GOAL_LINE[src]:
            ids.append(src + N_LOC)


def _player_moves(
    ids: list[int],
    w: list[float],
    field: list[int],
    contests: _Contests,
    opp_pen: int,
    own_pen: int,
    threshold: float,
    drib_src: int,
    threat: tuple[float, ...],
    dbonus: float,
) -> list[tuple[float, int]]:
    """The field players' moves: the value a player adds to the destination (diminishing returns)
    minus what it leaves, plus the contests a move into or out of the ball or penalty area changes;
    the player in the ball area may dribble (4.5.2) and take the ball along.

    Written for the compiled coach: plain loops over tuples of ints with float locals (no
    comprehension list per source, no pair objects unpacked); the arithmetic is the same,
    term for term, so every gain is the same float."""
    ball, pen = contests.ball, contests.pen
    c_ball, c_pen = contests.c_ball, contests.c_pen
    bpart, ppart = contests.bpart, contests.ppart
    base, g_off = contests.base, contests.g_off
    # (a list made at its size and filled: a comprehension appends to it item by item)
    wadd: list[float] = [0.0] * N_AREAS
    for d in range(N_AREAS):
        wadd[d] = w[d] * STACK_GAIN[field[d]]
    # contest gain of a move into the ball area and into the penalty area from an area outside
    # the contests (0.0 elsewhere: adding it would change no gain)
    ball_is_pen = ball == pen
    cd_ball = bpart[c_ball + 1] + ppart[c_pen + (1 if ball_is_pen else 0)] - g_off - base
    cd_pen = cd_ball if ball_is_pen else bpart[c_ball] + ppart[c_pen + 1] - g_off - base
    cands: list[tuple[float, int]] = []
    for sid in ids:
        a_src = SRC_AREA[sid]
        loss = w[a_src] * STACK_GAIN[field[a_src] - 1]
        dsts = SRC_DST[sid]
        ranks = SRC_RANK[sid]
        n = len(dsts)
        if a_src != ball and a_src != pen and a_src != opp_pen and a_src != own_pen:
            for i in range(n):
                d = dsts[i]
                g = wadd[d] - loss
                if d == ball:
                    g += cd_ball
                elif d == pen:
                    g += cd_pen
                if g > threshold:
                    cands.append((g, ranks[i]))
            continue
        s_ball = 1 if a_src == ball else 0
        s_pen = 1 if a_src == pen else 0
        drib = sid == drib_src
        for i in range(n):
            d = dsts[i]
            gain = wadd[d] - loss
            db = (1 if d == ball else 0) - s_ball
            dp = (1 if d == pen else 0) - s_pen
            if db or dp:
                gain += bpart[c_ball + db] + ppart[c_pen + dp] - g_off - base
            if gain > threshold:
                cands.append((gain, ranks[i]))
            if drib:
                # dribbling (4.5.2): the player in the ball area takes the ball along
                g2 = gain + 4.0 * (threat[d] - threat[a_src]) + dbonus
                if g2 > threshold:
                    cands.append((g2, DRIB_RANK[sid][d]))
    return cands


def _goalkeeper_moves(
    gk: int, own_pen: int, contests: _Contests, threshold: float
) -> list[tuple[float, int]]:
    """A goalkeeper away from its penalty area goes back (the contests count it only there)."""
    ball, ct = contests.ball, contests.ct
    bpart, ppart = contests.bpart, contests.ppart
    cands: list[tuple[float, int]] = []
    for dst in ADJ_PLAY[gk]:
        gkh = dst == own_pen
        db = (dst == ball) - (gk == ball)
        dp = 0 if ct else int(gkh)
        g = bpart[contests.c_ball + db] + ppart[contests.c_pen + dp] - (0.0 if gkh else 6.0) - contests.base
        if g > threshold:
            cands.append((g, GK_RANK[dst]))
    return cands


def pick_move(pending: Pending, cands: list[tuple[float, int]], free: bool, threshold: float) -> Any:
    """The best legal move of the (gain, rank) candidates, or ``done``."""
    names = MOVE_NAME
    check = pending.check_fn
    if check is not None:
        # the engine's check without raising (the same verdict as verify_fn), on the six best
        # candidates in the order of sorted(cands, reverse=True), picked one at a time: the
        # first is legal most of the time, so most decisions need one pass and no sort
        n = len(cands)
        last_g, last_r = 0.0, -1  # the candidate checked last (none yet: last_r < 0)
        for _ in range(n if n < 6 else 6):
            bg, br = 0.0, -1
            for g, r in cands:
                if last_r >= 0 and (g > last_g or (g == last_g and r >= last_r)):
                    continue  # checked already
                if br < 0 or g > bg or (g == bg and r > br):
                    bg, br = g, r
            c = names[br]
            if check(c) is None:
                pending.vouched = c  # (the match need not check it again)
                return c
            last_g, last_r = bg, br
        done_ok = check(D.DONE) is None
        if done_ok and (not cands or free):
            return D.DONE
        # What the options list below would choose, without listing the options (every
        # candidate the check passes is one of them): the best legal candidate, the first of
        # equal gains in that list's order (then it is listed), else "done" when legal
        if n > 6:
            cands.sort(reverse=True)  # (the order of the six checked)
            for i in range(6, n):
                g, r = cands[i]
                c = names[r]
                if check(c) is None:
                    for j in range(i + 1, n):
                        g2, r2 = cands[j]
                        if g2 != g:
                            break
                        if check(names[r2]) is None:
                            return _best_option(pending.options, cands, threshold)
                    pending.vouched = c
                    return c
        if done_ok:
            return D.DONE
    elif pending.verify_fn is not None:
        verify = pending.verify_fn
        cands.sort(reverse=True)
        for _, r in cands[:6]:
            c = names[r]
            try:
                verify(c)
            except FubaError:
                continue
            pending.vouched = c
            return c
        try:
            verify(D.DONE)
        except FubaError:
            pass
        else:
            if not cands or free:
                return D.DONE
    # list the options and take the best legal one
    return _best_option(pending.options, cands, threshold)


def _best_option(opts: tuple[Any, ...], cands: list[tuple[float, int]], threshold: float) -> Any:
    """The legal option of the best candidate (the first of equal gains), else ``done``."""
    names = MOVE_NAME
    if len(opts) == 1:
        return opts[0]
    scores = {names[r]: g for g, r in cands}
    best, best_gain = D.DONE, threshold
    for o in opts:
        sc = scores.get(o)
        if sc is not None and sc > best_gain:
            best, best_gain = o, sc
    if best == D.DONE and D.DONE not in opts:
        return opts[0]
    return best

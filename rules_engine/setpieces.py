"""Set-ups and restarts: kick-off (3.3, 3.3.1), free kick (5.2), corner kick
(5.3), goal kick (5.4), penalty kick (5.5) and goals (4.4, A10)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from . import board as B
from . import decisions as D
from .clock import advance_clock, restart_time
from .context import MatchContext
from .errors import IllegalEventError
from .events import Event, Pending, answer_choice, answer_dice
from .moves import MoveCtx, closest_player, move_seq
from .rules import PENALTY_SIDES, PENALTY_TABLE, can_attempt_from

Flow = Generator[Pending, Event, Any]
SETUP_RULE: Final = {"kick_off": "3.3.1", "free_kick": "5.2.1", "corner": "5.3.1", "penalty": "5.5.1"}


def placement_problem(
    m: MatchContext, kind: str, team: int, field: list[int], gk: int, spot: int
) -> str | None:
    """Why a set-up of `team` breaks the set-up rules of `kind`, or None."""
    # (the first problem only: the set-up adjustment asks this of every candidate move)
    problems = placement_problems(m, kind, team, field, gk, spot, True)
    return problems[0] if problems else None


def area_problem(m: MatchContext, kind: str, team: int, area: int, spot: int) -> str | None:
    """Why no outfield player of `team` may be set up in `area` for a set-up of `kind`, whatever
    the rest of the set-up (3.3.1: own half; 5.3.1: corner spots; 5.5.1: the penalty area)."""
    if kind == "kick_off":
        if area >= B.N_AREAS or not B.in_own_half_partly(team, area):
            return f"{B.NAMES[area]} is not at least partly in your own half (3.3.1)"
        return None
    is_ct = team == m.st.ct
    if area in B.CORNER_SPOTS and not (kind == "corner" and is_ct and area == spot):
        return f"no player can be set up on the corner spot {B.NAMES[area]} (5.3.1)"
    if kind == "penalty" and not is_ct and area == B.PEN[1 - m.st.ct]:
        return f"only the goalkeeper can be set up in {B.NAMES[area]} (5.5.1)"
    return None


def placement_problems(
    m: MatchContext, kind: str, team: int, field: list[int], gk: int, spot: int, first: bool = False
) -> list[str]:
    """Every way a set-up of `team` breaks the set-up rules of `kind` (3.3.1, 5.2.1, 5.3.1,
    5.5.1), in the order a referee would name them; empty when it is legal (``first``: stop at
    the first one)."""
    st = m.st
    is_ct = team == st.ct
    out: list[str] = []
    if kind == "kick_off":
        for a in range(B.N_LOC):
            # (area_problem's kick-off test inline: every candidate move of an adjustment asks)
            if field[a] and (a >= B.N_AREAS or not B.in_own_half_partly(team, a)):
                out.append(f"{B.NAMES[a]} is not at least partly in your own half (3.3.1)")
                if first:
                    return out
        if gk != B.PEN[team]:
            out.append("the goalkeeper must be placed in your own penalty area (3.3.1)")
        if is_ct and field[B.CENTRE] < 2:
            out.append("the controlling team must place two players in the centre area (3.3.1)")
        return out
    for a in B.CORNER_SPOTS:
        why = area_problem(m, kind, team, a, spot) if field[a] else None
        if why:
            out.append(why)
            if first:
                return out
    if gk >= B.N_AREAS:
        out.append("the goalkeeper cannot be set up on a corner spot (5.3.1)")
    if kind == "free_kick" and is_ct and field[spot] + (1 if gk == spot else 0) < 1:
        out.append(f"at least one player must be set up in the free kick area {B.NAMES[spot]} (5.2.1)")
    if kind == "corner" and is_ct and field[spot] != 1:
        out.append(f"exactly one player takes the corner from {B.NAMES[spot]} (5.3.1)")
    if kind == "penalty":
        pen = B.PEN[1 - st.ct]
        if is_ct and (field[pen] != 1 or gk == pen):
            out.append(f"exactly one player (the penalty taker) is set up in {B.NAMES[pen]} (5.5.1)")
        if not is_ct and (field[pen] or gk != pen):
            out.append(f"only the goalkeeper can be set up in {B.NAMES[pen]} (5.5.1)")
    return out


def _parse_setup(m: MatchContext, team: int, c: Any) -> tuple[list[int], int]:
    problems, field, gk = parse_setup(m, team, c)
    if problems:
        raise IllegalEventError(problems[0][0], rule=problems[0][1])
    return field, gk


def parse_setup(m: MatchContext, team: int, c: Any) -> tuple[list[tuple[str, str]], list[int], int]:
    """The players per area and the goalkeeper's area of a set-up answer, and every way it is
    not a set-up of this team (reason, rule): an unknown area, a bad count, the wrong number of
    players, no goalkeeper (-1)."""
    ts = m.st.teams[team]
    field = [0] * B.N_LOC
    players = c.get("players") if isinstance(c, dict) else None
    if not isinstance(players, dict):
        return [('a set-up is {"gk": AREA, "players": {AREA: COUNT, ...}}', "3.3")], field, -1
    problems: list[tuple[str, str]] = []
    index = B.INDEX
    for name, n in players.items():
        a = index.get(name)  # (one look-up an area, on a dict the compiled loop walks directly)
        if a is None:
            problems.append((f"unknown area {name!r} in the set-up", "1.4"))
        elif type(n) is not int or n < 0:
            problems.append((f"player count for {name} must be a whole number >= 0", "3.3"))
        else:
            field[a] += n
    if not problems and sum(field) != ts.outfield():
        placed, have = sum(field), ts.outfield()
        problems.append(
            (f"the set-up places {placed} outfield players but the team has {have} on the pitch", "3.3")
        )
    gk = c.get("gk")
    if type(gk) is not str or gk not in B.INDEX:
        problems.append((f"the goalkeeper's area {gk!r} is not an area", "3.3"))
        return problems, field, -1
    return problems, field, B.INDEX[str(gk)]


def setup_problems(m: MatchContext, kind: str, team: int, c: Any, spot: int) -> list[tuple[str, str]]:
    """Every problem of a proposed set-up (reason, rule), so that a board editor can show what
    is still wrong as pieces are placed; empty exactly when the set-up decision accepts it."""
    problems, field, gk = parse_setup(m, team, c)
    if not isinstance(c, dict) or not isinstance(c.get("players"), dict):
        return problems
    placed = placement_problems(m, kind, team, field, gk, spot)
    if gk < 0:  # (already named: the goalkeeper is not placed)
        placed = [why for why in placed if "goalkeeper" not in why]
    return problems + [(f"illegal set-up: {why}", SETUP_RULE[kind]) for why in placed]


def _suggest(m: MatchContext, kind: str, team: int, spot: int) -> tuple[Any, ...]:
    """A few ready-made legal set-ups (for bots and the guided scorer); the team's last set-up of
    this kind comes last, when it is still legal."""
    st = m.st
    ts = st.teams[team]
    n = ts.outfield()
    own = [a for a in range(B.N_AREAS) if B.in_own_half_partly(team, a)]
    by_depth = sorted(
        own if kind == "kick_off" else range(B.N_AREAS), key=lambda a: (B.depth_from(team, a), a)
    )
    out: list[Any] = []
    gk_area = B.PEN[team]
    if kind == "penalty" and team != st.ct:
        gk_area = B.PEN[team]
    for variant in range(3):
        field = [0] * B.N_LOC
        left = n
        req: list[int] = []
        if kind == "kick_off" and team == st.ct:
            req = [B.CENTRE, B.CENTRE]
        elif kind in ("free_kick", "corner") and team == st.ct:
            req = [spot]
        elif kind == "penalty" and team == st.ct:
            req = [B.PEN[1 - team]]
        for a in req:
            if left:
                field[a] += 1
                left -= 1
        pool = [a for a in by_depth if not (kind == "penalty" and a == B.PEN[1 - st.ct])]
        pool = [a for a in pool if a != B.PEN[team]] or pool
        if variant == 1:
            pool = pool[: max(3, len(pool) // 2)]
        elif variant == 2:
            pool = pool[len(pool) // 3 :]
        i = 0
        while left > 0 and pool:
            field[pool[i % len(pool)]] += 1
            left -= 1
            i += 1
        gk = gk_area
        if kind == "penalty" and team == st.ct and gk == B.PEN[1 - team]:
            gk = B.PEN[team]
        if placement_problem(m, kind, team, field, gk, spot) is None:
            choice = {
                "gk": B.NAMES[gk],
                "players": {B.NAMES[a]: field[a] for a in range(B.N_LOC) if field[a]},
            }
            if choice not in out:
                out.append(choice)
    last = m.setups.get((team, kind))
    if (
        last is not None
        and sum(last[0]) == ts.outfield()  # (a player sent off or injured since: not offered)
        and placement_problem(m, kind, team, last[0], last[1], spot) is None
    ):
        again = previous_setup(m, team, kind)
        if again is not None and again not in out:
            out.append(again)  # last: the presets of a kind keep their places (the editor starts from it)
    return tuple(out)


def previous_setup(m: MatchContext, team: int, kind: str) -> dict[str, Any] | None:
    """The team's previous set-up of this kind as a ``setup`` choice; None before the first."""
    last = m.setups.get((team, kind))
    if last is None:
        return None
    return {"gk": B.NAMES[last[1]], "players": {B.NAMES[a]: n for a, n in enumerate(last[0]) if n}}


def setup(m: MatchContext, kind: str, ct: int, spot: int = B.CENTRE) -> Flow:
    """3.3: controlling team sets up, defending team sets up, then the
    controlling team may move up to two players to adjacent areas."""
    st = m.st
    rule = SETUP_RULE[kind]
    for team in (ct, 1 - ct):

        def parse(c: Any, _t: int = team) -> tuple[list[int], int]:
            return _parse_setup(m, _t, c)

        def problem(field: list[int], gk: int, _t: int = team) -> tuple[str, str] | None:
            why = placement_problem(m, kind, _t, field, gk, spot)
            return (rule, why) if why else None

        def sugg(_t: int = team) -> tuple[Any, ...]:
            return _suggest(m, kind, _t, spot)

        field, gk = yield from m.ask_setup(team, rule, f"{kind} set-up", parse, problem, sugg)
        m.setups[(team, kind)] = (list(field), gk)

    ts = st.teams[ct]

    def still_legal(src: int, dst: int, gk: bool, ball: bool) -> str | None:
        f = ts.field
        if gk:
            return placement_problem(m, kind, ct, f, dst, spot)
        # the candidate move made on the team's own field and taken back at once (placement_problem
        # only reads it): every candidate move of the adjustment asks, a copy each cost more
        f[src] -= 1
        f[dst] += 1
        why = placement_problem(m, kind, ct, f, ts.gk, spot)
        f[src] += 1
        f[dst] -= 1
        return why

    ctx = MoveCtx(m, ct, "3.3", offside=False, keep_ball_player=False, extra=still_legal)
    yield from move_seq(m, ctx, D.SETUP_ADJUST, 2, "move up to two players one area (3.3)")
    st.flags.moved_turn = [[0] * B.N_LOC, [0] * B.N_LOC]


def kick_off(m: MatchContext, ct: int) -> Flow:
    """3.3.1: kick-off at the start of each half and after each goal."""
    st = m.st
    st.ct = ct
    st.ball = B.CENTRE
    st.value = 2
    yield from setup(m, "kick_off", ct)
    st.next_restart = "kick_off"


def award_free_kick(m: MatchContext, team: int, area: int, why: str) -> Flow:
    """5.2: free kick for `team` in `area` (penalty kick in the opponent's penalty area)."""
    st = m.st
    if area >= B.N_AREAS:
        area = B.CORNER_OF_SPOT[area]
    m.note("free_kick", team=B.TEAM_NAMES[team], area=B.NAMES[area], why=why)
    if area == B.PEN[1 - team]:
        yield from penalty(m, team)
        return
    st.ct = team
    st.ball = area
    st.value = 2
    yield from restart_time(m)
    if area == B.CENTRE or B.in_own_half_partly(team, area):
        # 5.2.3 quick free kick: no new set-up.  I-35: a team with nobody in the free-kick
        # area first brings its closest player there (as 4.2.2.1)
        if not st.teams[team].has(area):
            yield from closest_player(m, team)
        ctx = MoveCtx(m, team, "5.2.3", keep_ball_player=True)
        n = yield from move_seq(m, ctx, D.QUICK_FREE_KICK_MOVE, 99, "move players to adjacent areas")
        dctx = MoveCtx(m, 1 - team, "5.2.3")
        yield from move_seq(m, dctx, D.QUICK_FREE_KICK_MOVE, n, f"move up to {n} players")
    else:
        yield from setup(m, "free_kick", team, area)
    st.next_restart = "free_kick"
    st.next_free_kick_attempt = False
    if can_attempt_from(st, team, area):
        c = answer_choice((yield m.ask_yes_no(D.FREE_KICK_ATTEMPT, team, "5.2.2", "direct goal attempt?")))
        st.next_free_kick_attempt = c == "yes"


def corner(m: MatchContext, team: int) -> Flow:
    """5.3: corner kick for `team` (the attacking team)."""
    st = m.st
    st.ct = team
    spots = tuple(B.NAMES[s] for s in B.attack_corner_spots(team))
    c = answer_choice((yield m.ask(D.CORNER_SPOT, team, "5.3", lambda: spots, None, "which corner?")))
    spot = B.INDEX[c]
    st.ball = spot
    st.value = 2
    m.note("corner", team=B.TEAM_NAMES[team])
    yield from restart_time(m)
    yield from setup(m, "corner", team, spot)
    st.next_restart = "corner"


def goal_kick(m: MatchContext, team: int) -> Flow:
    """5.4: goal kick for `team` from its own penalty area."""
    st = m.st
    st.ct = team
    pen = B.PEN[team]
    st.ball = pen
    st.value = 2
    yield from restart_time(m)
    front = B.FRONT[team]
    for t in (0, 1):
        ts = st.teams[t]
        ts.field[front] += ts.field[pen]
        ts.field[pen] = 0
        if t != team and ts.gk == pen:
            ts.gk = front
    ctx = MoveCtx(m, team, "5.4", offside=False)
    n = yield from move_seq(m, ctx, D.GOAL_KICK_MOVE, 99, "move players to adjacent areas")
    dctx = MoveCtx(m, 1 - team, "5.4", offside=False)
    yield from move_seq(m, dctx, D.GOAL_KICK_MOVE, max(n, 4), f"move up to {max(n, 4)} players")
    st.next_restart = "goal_kick"


def penalty(m: MatchContext, team: int) -> Flow:
    """5.5: penalty kick for `team`."""
    st = m.st
    st.ct = team
    pen = B.PEN[1 - team]
    st.ball = pen
    st.value = 2
    m.note("penalty", team=B.TEAM_NAMES[team])
    yield from restart_time(m)
    yield from setup(m, "penalty", team, pen)
    st.flags.target = pen
    gk = answer_choice(
        (yield m.ask(D.PENALTY_KEEPER, 1 - team, "5.5.2", lambda: PENALTY_SIDES, None, "dive"))
    )
    shot = answer_choice((yield m.ask(D.PENALTY_SHOT, team, "5.5.2", lambda: PENALTY_SIDES, None, "shoot")))
    saver = "penalty_saver" in st.teams[1 - team].skills and st.uses("A11")
    dice = answer_dice((yield m.roll("penalty", team, 2 if saver else 1, "5.5.2", "penalty kick")))
    d = min(dice)
    need = PENALTY_TABLE[shot][gk]
    m.note("penalty_kick", team=B.TEAM_NAMES[team], keeper=gk, shot=shot, die=d, needed=need)
    if d >= need:
        yield from goal(m, team, pen)
    else:
        st.pending_restart = ("goal_kick", 1 - team, pen)


def goal(m: MatchContext, team: int, from_area: int) -> Flow:
    """A goal (4.4): V.A.R. check (A10), +1 minute (4.2.1.1), kick-off by the
    conceding team (the scoring team becomes the defending team)."""
    st = m.st
    if st.uses("A10"):
        d = answer_dice((yield m.roll("var", team, 2, "A10", "V.A.R. check of the goal")))
        if d == (6, 6):
            m.note("goal_denied", team=B.TEAM_NAMES[team])
            st.pending_restart = ("free_kick", 1 - team, from_area)
            return
    st.teams[team].goals += 1
    m.note("goal", team=B.TEAM_NAMES[team], score=st.score())
    advance_clock(m, 1)
    st.pending_restart = ("kick_off", 1 - team, B.CENTRE)

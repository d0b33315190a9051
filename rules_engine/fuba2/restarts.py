"""Rulebook 2.0's set pieces and what interrupts play: the set-up process (3.2) of the
kick-off (3.2.1), free kick (5.1), corner kick (5.2) and penalty kick (5.5), the goal kick
(5.3), goals (4.7), yellow and red cards (4.4.3 footnote, 5.4), injuries (A4) and
substitutions (A3)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from .. import board as B
from .. import decisions as D
from ..context import MatchContext
from ..errors import IllegalEventError
from ..events import Event, Pending, answer_choice, answer_dice
from . import names as N
from .condition import (
    INJURY_OUT_FOR_GOOD,
    MAX_SUBSTITUTIONS,
    add_points,
    formation_change_points,
    fresh_player_points,
    injury_turns_out,
)
from .goal import PENALTY_SIDES, penalty_scores
from .moveseq import ADJUST, Moves, move_seq
from .offside import Side
from .setup import kick_off_problem
from .special import red_card_test, red_card_test_needed, yellow_card_roll
from .styles import die_modifier
from .turnstate import F2, NO_TEAM, style

Flow = Generator[Pending, Event, Any]
KICK_OFF: Final = "kick_off"
FREE_KICK: Final = "free_kick"
CORNER: Final = "corner"
PENALTY: Final = "penalty"
SETUP_RULE: Final = {KICK_OFF: "3.2.1", FREE_KICK: "5.1.1", CORNER: "5.2.1", PENALTY: "5.5.1"}
ZONES: Final = B.ZONE_NAMES
# A3's substitutions as FUBA 3's logs write them (condition.FRESH_PLAYER, REMOVE_YELLOW, FORMATION_CHANGE)
FRESH: Final = "fresh"
YELLOW: Final = "yellow"
FORMATION: Final = "formation"


# ------------------------------------------------------------------ set-ups
def placement_problem(
    m: MatchContext, kind: str, team: int, field: list[int], gk: int, spot: int
) -> str | None:
    """Why a set-up of `team` breaks the set-up rules of `kind` ("chapter: reason"), or None."""
    is_ct = team == m.st.ct
    if not 0 <= gk < B.N_AREAS:
        return "3.2: the goalkeeper stands on a playing area"
    for a in B.CORNER_SPOTS:
        if field[a] and not (kind == CORNER and is_ct and a == spot):
            return f"5.2.1: only the corner taker stands on a corner spot ({B.NAMES[a]})"
    s = Side(team, tuple(field[: B.N_AREAS]), gk)
    if kind == KICK_OFF:
        return kick_off_problem(s, is_ct)
    if kind == FREE_KICK:
        if is_ct:
            return (
                None if s.players(spot) else f"5.1.1: one player stands in the free kick area {B.NAMES[spot]}"
            )
        behind = [a for a in range(B.N_AREAS) if B.beyond(1 - team, a, spot)]
        if behind and not any(s.players(a) for a in behind):
            return f"5.1.1: the passive team sets up a player closer to its goal line than {B.NAMES[spot]}"
        return None
    if kind == CORNER:
        return (
            None
            if not is_ct or field[spot] == 1
            else "5.2.1: one player stands in the corner to take the kick"
        )
    pen = B.PEN[1 - m.st.ct]
    if is_ct and (field[pen] != 1 or gk == pen):
        return "5.5.1: one player of the team taking the penalty stands on the penalty spot"
    if not is_ct and (field[pen] or gk != pen):
        return "5.5.1: only the passive team's goalkeeper stands in its penalty area"
    return None


def parse_setup(m: MatchContext, team: int, c: Any) -> tuple[list[int], int]:
    """The players per area and the goalkeeper's area of a set-up answer (as in FUBA 3's logs)."""
    field = [0] * B.N_LOC
    if not isinstance(c, dict) or not isinstance(c.get("players"), dict):
        raise IllegalEventError('a set-up is {"gk": AREA, "players": {AREA: COUNT, ...}}', rule="3.2")
    for name, n in c["players"].items():
        if name not in B.INDEX:
            raise IllegalEventError(f"unknown area {name!r} in the set-up", rule="1.3")
        if type(n) is not int or n < 0:
            raise IllegalEventError(f"player count for {name} must be a whole number >= 0", rule="3.2")
        field[B.INDEX[name]] += n
    have = m.st.teams[team].outfield()
    if sum(field) != have:
        raise IllegalEventError(
            f"the set-up places {sum(field)} outfield players; the team has {have}", rule="3.2"
        )
    gk = c.get("gk")
    if type(gk) is not str or gk not in B.INDEX:
        raise IllegalEventError(f"the goalkeeper's area {gk!r} is not an area", rule="3.2")
    return field, B.INDEX[gk]


# _suggest's set-ups by (kind, team, spot, controlling team, outfield players): all they depend on
_SUGGESTED: Final[dict[tuple[str, int, int, int, int], tuple[dict[str, Any], ...]]] = {}


def _suggest(m: MatchContext, kind: str, team: int, spot: int) -> tuple[Any, ...]:
    """A few ready-made legal set-ups (for bots and the guided scorer); others are accepted too.
    Worked out once for each situation they depend on; each answer gets its own copies (a log
    keeps the set-up it was given)."""
    st = m.st
    key = (kind, team, spot, st.ct, st.teams[team].outfield())
    made = _SUGGESTED.get(key)
    if made is None:
        made = _SUGGESTED[key] = _suggested(m, kind, team, spot)
    return tuple([{"gk": c["gk"], "players": dict(c["players"])} for c in made])


def _suggested(m: MatchContext, kind: str, team: int, spot: int) -> tuple[dict[str, Any], ...]:
    st = m.st
    is_ct = team == st.ct
    pen_pt = B.PEN[1 - st.ct]
    pool = [a for a in range(B.N_AREAS) if kind != KICK_OFF or B.in_own_half_partly(team, a)]
    if kind == PENALTY:
        pool = [a for a in pool if a != pen_pt]
    pool.sort(key=lambda a: (B.depth_from(team, a), a))
    req: list[int] = []
    if kind == KICK_OFF and is_ct:
        req = [B.CENTRE, B.CENTRE]
    elif kind in (FREE_KICK, CORNER, PENALTY) and is_ct:
        req = [pen_pt if kind == PENALTY else spot]
    elif kind == FREE_KICK:
        req = [a for a in pool if B.beyond(1 - team, a, spot)][:1]
    out: list[dict[str, Any]] = []
    n = st.teams[team].outfield()
    for variant in (pool[1:], pool[: max(3, len(pool) // 2)], pool[len(pool) // 3 :]):
        field = [0] * B.N_LOC
        for a in req[:n]:
            field[a] += 1
        left = n - min(n, len(req))
        cells = variant or pool
        for i in range(left):
            field[cells[i % len(cells)]] += 1
        gk = B.PEN[team]
        if placement_problem(m, kind, team, field, gk, spot) is None:
            choice = {
                "gk": B.NAMES[gk],
                "players": {B.NAMES[a]: field[a] for a in range(B.N_LOC) if field[a]},
            }
            if choice not in out:
                out.append(choice)
    return tuple(out)


def setup(m: MatchContext, g: F2, kind: str, ct: int, spot: int) -> Flow:
    """3.2: "1. The controlling team sets up its players. 2. The passive team sets up its players.
    3. ... the controlling team is allowed to adjust their starting position by moving 0-2
    players up to one area"; "The players new position must still fill the setup rules"."""
    st = m.st
    rule = SETUP_RULE[kind]
    st.stage = "setup"
    for team in (ct, 1 - ct):

        def parse(c: Any, _t: int = team) -> tuple[list[int], int]:
            return parse_setup(m, _t, c)

        def problem(field: list[int], gk: int, _t: int = team) -> tuple[str, str] | None:
            why = placement_problem(m, kind, _t, field, gk, spot)
            if why is None:
                return None
            r, _, reason = why.partition(": ")  # FUBA 2's problems read "chapter: reason"
            return r, reason

        def sugg(_t: int = team) -> tuple[Any, ...]:
            return _suggest(m, kind, _t, spot)

        yield from m.ask_setup(team, rule, f"{kind.replace('_', ' ')} set-up", parse, problem, sugg)

    def legal(field: list[int], gk: int) -> str | None:
        return placement_problem(m, kind, ct, field, gk, spot)

    mv = Moves(m, g, ct, ADJUST, "", "3.2", legal)
    yield from move_seq(m, mv, D.SETUP_ADJUST, 2, "move up to two players one area (3.2)")
    g.press_failed_by = NO_TEAM
    g.before_goal_kick = False


def kick_off(m: MatchContext, g: F2, ct: int) -> Flow:
    """3.2.1: "Kick-off takes place at the beginning of each half and after each goal ... The
    ball is placed on the centre circle with 1 as the initial ball die value"."""
    st = m.st
    st.ct = ct
    st.ball = B.CENTRE
    st.value = 1
    yield from setup(m, g, KICK_OFF, ct, B.CENTRE)
    st.next_restart = N.KICK_OFF_START


def free_kick(m: MatchContext, g: F2, team: int, area: int) -> Flow:
    """5.1: "The team awarded a free kick immediately becomes ... the controlling team", the
    ball to the target area, a penalty kick instead in the passive team's penalty area, value
    1, a new set-up; "The controlling team can choose to continue the turn from stage 6 if they
    decide to make a goal attempt" (``g.attempt_first``)."""
    st = m.st
    st.ct = team
    m.note("free_kick", team=B.TEAM_NAMES[team], area=B.NAMES[area])
    if area == B.PEN[1 - team]:
        yield from penalty(m, g, team)
        return
    st.ball = area
    st.value = 1
    yield from setup(m, g, FREE_KICK, team, area)
    st.next_restart = N.FREE_KICK_START
    if attempt_possible(m, team):
        c = answer_choice(
            (yield m.ask_yes_no(D.FREE_KICK_ATTEMPT, team, "5.1", "goal attempt from the free kick?"))
        )
        g.attempt_first = c == "yes"
        if g.attempt_first:
            st.next_restart = ""


def attempt_possible(m: MatchContext, team: int) -> bool:
    """4.7, 4.7.2: from an area entirely in the passive team's half, or one touching the halfway
    line with the goalkeeper out of its penalty area."""
    st = m.st
    if team != st.ct or st.ball >= B.N_AREAS:
        return False
    mod = B.area_modifier(team, st.ball)
    return mod is not None and (mod > -6 or st.teams[1 - team].gk != B.PEN[1 - team])


def corner(m: MatchContext, g: F2, team: int, area: int) -> Flow:
    """5.2: the corner kick of `team` from the corner of `area` (or a spot it picks), value 1,
    a new set-up, "After the setup a new turn starts"."""
    st = m.st
    st.ct = team
    spots = B.attack_corner_spots(team)
    named = [s for s in spots if B.CORNER_OF_SPOT[s] == area]
    if named:
        spot = named[0]
    else:
        opts = tuple(B.NAMES[s] for s in spots)
        spot = B.INDEX[
            answer_choice((yield m.ask(D.CORNER_SPOT, team, "5.2", lambda: opts, None, "which corner?")))
        ]
    st.ball = spot
    st.value = 1
    m.note("corner", team=B.TEAM_NAMES[team])
    yield from setup(m, g, CORNER, team, spot)
    st.next_restart = N.CORNER_START


def goal_kick(m: MatchContext, g: F2, team: int) -> None:
    """5.3: "A goal kick takes place from the penalty area. The ball is placed there and the ball
    die value is adjusted to 1. The rest of turn is played as normally before the goal kick is
    taken"; the next turn starts by choosing its target area."""
    st = m.st
    st.ct = team
    st.ball = B.PEN[team]
    st.value = 1
    g.before_goal_kick = True
    g.press_failed_by = NO_TEAM
    st.next_restart = N.GOAL_KICK_START
    m.note("goal_kick", team=B.TEAM_NAMES[team])


def penalty(m: MatchContext, g: F2, team: int) -> Flow:
    """5.5: set-up (5.5.1), the keeper's secret dive and the kick (5.5.2); "If the penalty kick
    fails, a new turn begins and the game continues with a goal kick"."""
    st = m.st
    st.ct = team
    pen = B.PEN[1 - team]
    st.ball = pen
    st.value = 1
    m.note("penalty", team=B.TEAM_NAMES[team])
    yield from setup(m, g, PENALTY, team, pen)
    st.stage = "restart"
    sides = PENALTY_SIDES
    dive = answer_choice(
        (yield m.ask(D.PENALTY_KEEPER, 1 - team, "5.5.2", lambda: sides, None, "the keeper's dive"))
    )
    kick = answer_choice((yield m.ask(D.PENALTY_SHOT, team, "5.5.2", lambda: sides, None, "the kick")))
    die = answer_dice((yield m.roll(N.PENALTY, team, 1, "5.5.2", "penalty kick")))[0]
    m.note("penalty_kick", team=B.TEAM_NAMES[team], keeper=dive, shot=kick, die=die)
    if penalty_scores(die, str(kick), str(dive)):
        goal(m, team)
    else:
        goal_kick(m, g, 1 - team)


def goal(m: MatchContext, team: int) -> None:
    """4.7: a goal; "new team setups for kick-off ... The scoring team becomes the passive team"."""
    st = m.st
    st.teams[team].goals += 1
    m.note("goal", team=B.TEAM_NAMES[team], score=st.score())
    st.pending_restart = (KICK_OFF, 1 - team, B.CENTRE)


# ------------------------------------------------------------ cards, injuries
def yellow_card_test(m: MatchContext, g: F2, team: int) -> Flow:
    """The special event table's footnote: "The team rolling for a yellow card must roll a die";
    5.4: a second yellow card is followed by the red card test."""
    st = m.st
    ts = st.teams[team]
    die = answer_dice((yield m.roll(N.YELLOW_CARD, team, 1, "4.4.3", "roll for a yellow card")))[0]
    yr = yellow_card_roll(die, team, g.turn.target)
    if not yr.yellow:
        return
    before = ts.yellows
    ts.yellows += 1
    m.note("yellow", team=B.TEAM_NAMES[team])
    if red_card_test_needed(before):
        d = answer_dice((yield m.roll(N.RED_CARD, team, 1, "5.4", "red card test")))[0]
        test = red_card_test(d, ts.yellows, len(ts.reds), yr.red_test_bonus)
        if test.red:
            ts.yellows = test.yellows
            ts.reds.append("direct" if d == 1 else "second_yellow")
            m.note("red", team=B.TEAM_NAMES[team])
            yield from _remove_player(m, team, D.SENT_OFF_PLAYER, "5.4", "which player is sent off?")
            ts.off_pieces += 1
    if yr.opponent_injury:
        yield from injury(m, g, 1 - team, "foul (4.4.3)")


def _remove_player(
    m: MatchContext, team: int, name: str, rule: str, prompt: str
) -> Generator[Pending, Event, int]:
    """The team takes one of its outfield players off; returns the area he left (-1: none left)."""
    ts = m.st.teams[team]
    opts = tuple(B.NAMES[a] for a in range(B.N_LOC) if ts.field[a] > 0)
    if not opts:
        return -1
    pick = opts[0]
    if len(opts) > 1:
        pick = answer_choice((yield m.ask(name, team, rule, lambda: opts, None, prompt)))
    area = B.INDEX[pick]
    ts.field[area] -= 1
    return area


def injury(m: MatchContext, g: F2, team: int, why: str) -> Flow:
    """A4: "If a team suffers an injury it must immediately remove one player from the game and
    must make an injury roll"; 1-3 the player comes back in the centre area at the movement
    stage of a later turn, 4+ never; then a fresh player may come on (A3)."""
    st = m.st
    if not st.uses("A4"):
        return
    ts = st.teams[team]
    area = yield from _remove_player(m, team, D.INJURED_PLAYER, "A4", "which player is injured?")
    if area < 0:
        return
    die = answer_dice((yield m.roll(N.INJURY, team, 1, "A4", "injury roll")))[0]
    out = injury_turns_out(die, die_modifier(style(st, team, g.turn.target)))
    record: dict[str, Any] = {
        "minute": st.minute_label(),
        "permanent": out == INJURY_OUT_FOR_GOOD,
        "out_minutes": None,
        "out_turns": None if out == INJURY_OUT_FOR_GOOD else out,
        "why": why,
        "goalkeeper": False,
        "substituted": False,
    }
    ts.injuries.append(record)
    m.note("injury", team=B.TEAM_NAMES[team], permanent=record["permanent"])
    # A4: "The substitution type must be a fresh player"; the substitute comes on in the
    # centre area, where an injured player returns (I2-15)
    if (
        st.uses("A3")
        and ts.subs_used < MAX_SUBSTITUTIONS
        and (yield from substitution(m, team, injured=True))
    ):
        record["substituted"] = True
        ts.field[B.CENTRE] += 1
        return
    if out == INJURY_OUT_FOR_GOOD:
        ts.off_pieces += 1
    else:
        ts.injured_out.append((st.turn + 1 + out, 1))


def return_injured(m: MatchContext, team: int) -> None:
    """A4: "The player returns to the game at the beginning of the next turn's movement stage ...
    in the area containing the centre circle": the movement stage is the team's own (4.4.2 "the
    player movement stage", 4.8.8 "once in the movement stage"), so ``team``'s due players come
    back when ``team`` starts moving, never in the opponent's stage (I2-22; ``injured_out`` holds
    the turn of the return)."""
    ts = m.st.teams[team]
    if ts.injured_out:
        keep = [(t, n) for t, n in ts.injured_out if t > m.st.turn]
        ts.field[B.CENTRE] += sum(n for t, n in ts.injured_out if t <= m.st.turn)
        ts.injured_out = keep


# ---------------------------------------------------------------- substitutions
# the answers' names, built once (the options are listed at every substitution prompt)
_FRESH_OPTIONS: Final[tuple[str, ...]] = tuple(f"{FRESH}:{z}" for z in ZONES)
_CHANGES: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(f"{ZONES[a]}>{ZONES[b]}" for b in range(3)) for a in range(3)
)
_CHANGE_OPTIONS: Final[tuple[tuple[str, ...], ...]] = tuple(
    tuple(f"{FORMATION}:{c}" for c in row) for row in _CHANGES
)


def substitution_options(m: MatchContext, team: int, injured: bool) -> tuple[str, ...]:
    """A3's three kinds, written as in FUBA 3's logs: ``formation:FROM>TO`` (lines),
    ``yellow`` (remove one yellow card), ``fresh:ZONE``; after an injury only a fresh player (A4)."""
    ts = m.st.teams[team]
    out = list(_FRESH_OPTIONS)
    if not injured:
        if ts.yellows:
            out.append(YELLOW)
        formation = ts.formation
        for a in range(3):
            if formation[a]:
                for b in range(3):
                    if a != b:
                        out.append(_CHANGE_OPTIONS[a][b])
    out.append(D.DONE)
    return tuple(out)


def formation_changes(formation: list[int]) -> tuple[str, ...]:
    """2.1.1, A3: one player changes lines ("defence>midfield")."""
    return tuple(_CHANGES[a][b] for a in range(3) for b in range(3) if a != b and formation[a])


def change_formation(m: MatchContext, team: int, change: str) -> int:
    """Move one player of the formation between lines; returns the line strengthened."""
    ts = m.st.teams[team]
    src, _, dst = change.partition(">")
    a, b = ZONES.index(src), ZONES.index(dst)
    ts.formation[a] -= 1
    ts.formation[b] += 1
    return b


def substitution(m: MatchContext, team: int, injured: bool = False) -> Generator[Pending, Event, bool]:
    """A3: one substitution (or "done", the default); returns whether one was made."""
    st = m.st
    ts = st.teams[team]

    def options() -> tuple[str, ...]:
        return substitution_options(m, team, injured)

    c = answer_choice(
        (yield m.ask(D.SUBSTITUTION, team, "A3", options, None, "substitution?", False, D.DONE))
    )
    if c == D.DONE:
        return False
    kind, _, what = str(c).partition(":")
    if kind == FORMATION:
        zone = change_formation(m, team, what)
        # A3 note *: "If the change is done in the second half, then one condition point is added"
        ts.cp[:] = formation_change_points((ts.cp[0], ts.cp[1], ts.cp[2]), zone, st.half >= 2)
    elif kind == YELLOW:
        ts.yellows -= 1
    else:
        d = answer_dice((yield m.roll(N.FRESH_PLAYER, team, 2, "A3", "fresh player: two dice")))
        pts = fresh_player_points(d[0], d[1], st.minute())
        ts.cp[:] = add_points((ts.cp[0], ts.cp[1], ts.cp[2]), ZONES.index(what), pts)
    ts.subs_used += 1
    m.note("substitution", team=B.TEAM_NAMES[team], type=str(c))
    return True

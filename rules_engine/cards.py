"""Yellow and red cards (5.6) and injuries (A4)."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from . import board as B
from . import decisions as D
from .condition import add_cp
from .context import MatchContext
from .errors import IllegalEventError
from .events import Event, Pending, answer_choice, answer_dice
from .rules import closest_areas, yellow_from_test

Flow = Generator[Pending, Event, Any]
# the decision that picks the outfield player removed instead of a named goalkeeper: only an
# injury may name the keeper (A4); a red card always removes an outfield player (5.6.2)
_INSTEAD: Final = {D.INJURED_PLAYER: D.INJURED_PLAYER_INSTEAD}


def yellow_test(m: MatchContext, team: int, why: str, die_modifier: int = 0) -> Flow:
    """5.6.1: the team rolls for a yellow card.  ``die_modifier`` is added to the
    die ("roll for a yellow card with a +1 die roll modifier", diver, A11); a
    modified result above 6 reads as the 6 row (I-39)."""
    st = m.st
    d = answer_dice((yield m.roll("yellow_test", team, 1, "5.6.1", f"yellow card test ({why})")))[0]
    d = min(6, d + die_modifier)
    if not yellow_from_test(d, team, st.flags.target):
        return
    yield from give_yellow(m, team, why, red_test_always=d == 6, red_modifier=1 if d == 6 else 0)
    if d == 6:
        yield from injury(m, 1 - team, "yellow card test 6 (5.6.1)")


def give_yellow(
    m: MatchContext, team: int, why: str, red_test_always: bool = False, red_modifier: int = 0
) -> Flow:
    ts = m.st.teams[team]
    had = ts.yellows
    ts.yellows += 1
    m.note("yellow", team=B.TEAM_NAMES[team], why=why)
    if had >= 1 or red_test_always:
        yield from red_test(m, team, red_modifier)


def red_test(m: MatchContext, team: int, modifier: int = 0) -> Flow:
    """5.6.2: red if the die is lower than the yellow cards held (+modifier, I-10)."""
    ts = m.st.teams[team]
    d = answer_dice((yield m.roll("red_test", team, 1, "5.6.2", "red card test")))[0]
    if d < ts.yellows + modifier:
        kind = "direct" if d == 1 else "second_yellow"
        ts.yellows = max(0, ts.yellows - (1 if d == 1 else 2))
        ts.reds.append(kind)
        m.note("red", team=B.TEAM_NAMES[team], red=kind)
        yield from remove_player(m, team, D.SENT_OFF_PLAYER, "5.6.2", near_ball=False)


GOALKEEPER: Final = "GK"  # the injured_player answer that names the goalkeeper (A4, I-28)


def remove_player(
    m: MatchContext, team: int, name: str, rule: str, near_ball: bool, gk_option: bool = False
) -> Generator[Pending, Event, int]:
    """The team removes one outfield player; returns the area it came from.

    With ``gk_option`` (A4) the team may name its goalkeeper ("GK") when it
    stands in the ball area or next to it: the goalkeeper stays, an outfield
    player closest to it is removed instead (asked when several are), and
    the opponent gets +1 on all its upcoming goal attempts (I-28)."""
    st = m.st
    ts = st.teams[team]
    if ts.outfield() == 0:
        return -1
    if near_ball:
        near = [a for a in (st.ball, *B.ADJ[st.ball]) if ts.field[a] > 0]
        cands = near or closest_areas(ts, st.ball)
    else:
        cands = [a for a in range(B.N_LOC) if ts.field[a] > 0]
    opts = tuple(B.NAMES[a] for a in sorted(set(cands)))
    if gk_option and ts.gk >= 0 and (ts.gk == st.ball or ts.gk in B.ADJ_SET[st.ball]):
        opts = (*opts, GOALKEEPER)
    area = yield from _pick_area(m, team, name, rule, opts, "the player must be removed from one of")
    if area < 0:  # the goalkeeper: another piece goes instead
        ts.attempt_bonus_for_opponent += 1
        instead = tuple(B.NAMES[a] for a in sorted(set(closest_areas(ts, ts.gk))))
        area = yield from _pick_area(
            m,
            team,
            _INSTEAD[name],
            rule,
            instead,
            "for the injured goalkeeper, remove a player from one of",
        )
    ts.field[area] -= 1
    ts.off_pieces += 1
    return area


def _pick_area(
    m: MatchContext, team: int, name: str, rule: str, opts: tuple[str, ...], why: str
) -> Generator[Pending, Event, int]:
    """The area the team chooses among ``opts`` (asked only when there is a choice); -1 for "GK"."""
    if len(opts) == 1:
        c = opts[0]
    else:

        def verify(c: Any) -> None:
            if c not in opts:
                raise IllegalEventError(f"{why} {', '.join(opts)}, not {c!r}", rule=rule)

        # a single outfield choice besides the keeper is the default: logs written before the
        # keeper could be named left this decision out, and still replay
        areas = [o for o in opts if o != GOALKEEPER]
        default = areas[0] if len(areas) == 1 else None
        c = answer_choice((yield m.ask(name, team, rule, lambda: opts, verify, "", False, default)))
    return -1 if c == GOALKEEPER else B.INDEX[c]


def injury(m: MatchContext, team: int, why: str) -> Flow:
    """A4: remove the injured player, roll for the injury."""
    st = m.st
    if not st.uses("A4"):
        return
    ts = st.teams[team]
    bonus_before = ts.attempt_bonus_for_opponent
    area = yield from remove_player(m, team, D.INJURED_PLAYER, "A4", near_ball=True, gk_option=True)
    if area < 0:
        return
    d = answer_dice((yield m.roll("injury", team, 1, "A4", "injury roll")))[0]
    if st.weather in ("cold", "storm"):
        d += 1
    record: dict[str, Any] = {"team": B.TEAM_NAMES[team], "minute": st.minute_label(), "why": why}
    if ts.attempt_bonus_for_opponent > bonus_before:
        record["goalkeeper"] = True  # I-28: the opponent's goal attempts get +1 from now on
    if d <= 4:
        ts.injured_out.append((st.minute() + d, 1))
        ts.off_pieces -= 1  # temporarily out, counted in injured_out
        record["out_minutes"] = d
        record["permanent"] = False
    else:
        record["permanent"] = True
        if st.uses("A3") and ts.subs_used < 3:
            c = answer_choice(
                (yield m.ask_yes_no(D.INJURY_SUBSTITUTION, team, "A4", "substitute the injured player?"))
            )
            if c == "yes":
                ts.subs_used += 1
                ts.off_pieces -= 1
                ts.field[B.CENTRE] += 1  # I-14: the substitute enters in the centre area
                record["substituted"] = True
                if st.half >= 2:  # the second half or extra time
                    add_cp(ts, B.zone_of(team, st.ball))
    ts.injuries.append(record)
    m.note("injury", **record)


def return_injured(m: MatchContext) -> None:
    """A4: temporarily injured players come back at the end of a turn (centre area)."""
    st = m.st
    now = st.minute()
    for ts in st.teams:
        if ts.injured_out:
            keep = []
            for back, n in ts.injured_out:
                if now >= back:
                    ts.field[B.CENTRE] += n
                else:
                    keep.append((back, n))
            ts.injured_out = keep

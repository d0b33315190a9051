"""Yellow and red cards (5.6) and injuries (A4)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from . import board as B
from .errors import IllegalEventError
from .events import Event, Pending, answer_choice, answer_dice
from .rules import closest_areas, yellow_from_test

if TYPE_CHECKING:
    from .machine import Match

Flow = Generator[Pending, Event, Any]


def yellow_test(m: Match, team: int, why: str, red_modifier: int = 0) -> Flow:
    """5.6.1: the team rolls for a yellow card."""
    st = m.st
    d = answer_dice((yield m.roll("yellow_test", team, 1, "5.6.1", f"yellow card test ({why})")))[0]
    if not yellow_from_test(d, team, st.flags.target):
        return
    yield from give_yellow(
        m, team, why, red_test_always=d == 6, red_modifier=red_modifier + (1 if d == 6 else 0)
    )
    if d == 6:
        yield from injury(m, 1 - team, "yellow card test 6 (5.6.1)")


def give_yellow(m: Match, team: int, why: str, red_test_always: bool = False, red_modifier: int = 0) -> Flow:
    ts = m.st.teams[team]
    had = ts.yellows
    ts.yellows += 1
    m.note("yellow", team=B.TEAM_NAMES[team], why=why)
    if had >= 1 or red_test_always:
        yield from red_test(m, team, red_modifier)


def red_test(m: Match, team: int, modifier: int = 0) -> Flow:
    """5.6.2: red if the die is lower than the yellow cards held (+modifier, I-10)."""
    ts = m.st.teams[team]
    d = answer_dice((yield m.roll("red_test", team, 1, "5.6.2", "red card test")))[0]
    if d < ts.yellows + modifier:
        kind = "direct" if d == 1 else "second_yellow"
        ts.yellows = max(0, ts.yellows - (1 if d == 1 else 2))
        ts.reds.append(kind)
        m.note("red", team=B.TEAM_NAMES[team], red=kind)
        yield from remove_player(m, team, "sent_off_player", "5.6.2", near_ball=False)


def remove_player(
    m: Match, team: int, name: str, rule: str, near_ball: bool
) -> Generator[Pending, Event, int]:
    """The team removes one outfield player; returns the area it came from."""
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
    if len(opts) == 1:
        area = B.INDEX[opts[0]]
    else:

        def verify(c: Any) -> None:
            if c not in opts:
                raise IllegalEventError(
                    f"the player must be removed from one of {', '.join(opts)}, not {c!r}", rule=rule
                )

        area = B.INDEX[answer_choice((yield m.ask(name, team, rule, lambda: opts, verify)))]
    ts.field[area] -= 1
    ts.off_pieces += 1
    return area


def injury(m: Match, team: int, why: str) -> Flow:
    """A4: remove the injured player, roll for the injury."""
    st = m.st
    if not st.uses("A4"):
        return
    ts = st.teams[team]
    area = yield from remove_player(m, team, "injured_player", "A4", near_ball=True)
    if area < 0:
        return
    d = answer_dice((yield m.roll("injury", team, 1, "A4", "injury roll")))[0]
    if st.weather in ("cold", "storm"):
        d += 1
    record: dict[str, Any] = {"team": B.TEAM_NAMES[team], "minute": st.minute_label(), "why": why}
    if d <= 4:
        ts.injured_out.append((st.minute() + d, 1))
        ts.off_pieces -= 1  # temporarily out, counted in injured_out
        record["out_minutes"] = d
        record["permanent"] = False
    else:
        record["permanent"] = True
        if st.uses("A3") and ts.subs_used < 3:
            c = answer_choice(
                (yield m.ask_yes_no("injury_substitution", team, "A4", "substitute the injured player?"))
            )
            if c == "yes":
                ts.subs_used += 1
                ts.off_pieces -= 1
                ts.field[B.CENTRE] += 1  # I-14: the substitute enters in the centre area
                record["substituted"] = True
                if st.half == 2:
                    from .advanced import add_cp

                    add_cp(ts, B.zone_of(team, st.ball))
    ts.injuries.append(record)
    m.note("injury", **record)


def return_injured(m: Match) -> None:
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

"""Skills (A11) that add steps to the flow: their timing is the one printed in
the "This skill can be played ..." column of the rulebook-3 skill tables."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from . import board as B
from . import decisions as D
from .cards import give_yellow, yellow_test
from .condition import pay
from .context import MatchContext
from .events import Event, Pending, answer_choice, answer_dice
from .moves import MoveCtx, move_seq
from .rules import second_last_area
from .skills import CATALOGUE, has, offer, skill_active
from .substitutions import FORMATION_CHANGES, ZONE_KEYS, change_formation

Flow = Generator[Pending, Event, Any]


def player_count(m: MatchContext, team: int, area: int) -> int:
    """Players counted in an area, with the target man (counts as three) of A11."""
    st = m.st
    n = st.teams[team].count(area)
    if st.flags.target_man == team and area == st.flags.target and n:
        n += 2
    return n


def diver(m: MatchContext, ct: int) -> Generator[Pending, Event, bool]:
    """Diver: rolled before a special event in the team's attacking zone.
    Returns True when the special event is replaced by a free kick."""
    st = m.st
    target = st.flags.target
    for team in (ct, 1 - ct):
        if target in B.ATTACK_ZONE[team] and (
            "diver" in m.st.teams[team].skills and (yield from offer(m, team, "diver"))
        ):
            d = answer_dice((yield m.roll("diver", team, 1, "A11", "diver")))[0]
            if d == 1:
                yield from give_yellow(m, team, "diver (A11)")
                st.pending_restart = ("free_kick", 1 - team, target)
                return True
            if d >= 4:
                yield from yellow_test(m, 1 - team, "diver (A11)", die_modifier=1)
                st.pending_restart = ("free_kick", team, target)
                return True
    return False


def offside_trap(m: MatchContext, ct: int, a: int, b: int, v: int) -> Generator[Pending, Event, bool]:
    st = m.st
    if not st.flags.offside_risk or (a >= v) == (b >= v):
        return False
    dt = 1 - ct
    if "offside_trap" in m.st.teams[dt].skills and (yield from offer(m, dt, "offside_trap")):
        st.pending_restart = ("free_kick", dt, st.flags.target)  # no yellow card test
        return True
    return False


def end_of_stage2(m: MatchContext) -> Flow:
    """Fanatic fans (both teams) and catenaccio (defending team)."""
    st = m.st
    for team in (st.ct, st.dt):
        if "fanatic_fans" in m.st.teams[team].skills and (yield from offer(m, team, "fanatic_fans")):
            d = answer_dice((yield m.roll("fanatic_fans", team, 1, "A11", "fanatic fans")))[0]
            if d == st.value:
                yield from yellow_test(m, team, "fanatic fans (A11)")
                st.pending_restart = ("free_kick", 1 - team, st.flags.target)
                return
            st.value = d
    dt = st.dt
    sl = second_last_area(st.teams[dt], dt)
    if (
        sl is not None
        and st.teams[dt].field[sl] > 0
        and ("catenaccio" in m.st.teams[dt].skills and (yield from offer(m, dt, "catenaccio")))
    ):

        def only_second_last(src: int, dst: int, gk: bool, ball: bool) -> str | None:
            return None if src == sl and not gk else "catenaccio moves the second lowest player (A11)"

        ctx = MoveCtx(m, dt, "A11", extra=only_second_last, gk_allowed=False)
        yield from move_seq(m, ctx, D.SKILL_MOVE, 1, "catenaccio: move the second lowest player")


def before_actions(
    m: MatchContext, first: int, a: int, b: int, v: int
) -> Generator[Pending, Event, int | None]:
    """Between stage 2 and 3: midfield general, goal poacher, seconda punta,
    target man, regista.  Returns the first team, or None to skip the action stage."""
    st = m.st
    f = st.flags
    ct, dt = st.ct, st.dt
    if f.target in B.MIDFIELD_ZONE:
        for team in (dt, ct):
            if team == ct and has(m, dt, "midfield_general"):
                continue  # both have it: only the defending team can use it
            if "midfield_general" in m.st.teams[team].skills and (
                yield from offer(m, team, "midfield_general")
            ):
                first = 1 - first
                break
    one_die = (a >= v) != (b >= v)
    if (
        one_die
        and f.target == B.PEN[dt]
        and ("goal_poacher" in m.st.teams[ct].skills and (yield from offer(m, ct, "goal_poacher")))
    ):
        d = answer_dice((yield m.roll("goal_poacher", ct, 1, "A11", "goal poacher")))[0]
        if d >= st.value:
            first = ct
            f.forced_first = "goal_attempt"
    if (
        a >= v
        and b >= v
        and f.target in B.ATTACK_ZONE[ct]
        and ("seconda_punta" in m.st.teams[ct].skills and (yield from offer(m, ct, "seconda_punta")))
    ):
        return None
    if (
        f.target in B.ATTACK_ZONE[ct]
        and st.teams[ct].has(f.target)
        and ("target_man" in m.st.teams[ct].skills and (yield from offer(m, ct, "target_man")))
    ):
        f.target_man = ct
    if (
        f.start in B.MIDFIELD_ZONE
        and f.target in B.ATTACK_ZONE[ct]
        and f.ct_at_start == ct
        and ("regista" in m.st.teams[ct].skills and (yield from offer(m, ct, "regista")))
    ):
        f.regista = ct
    return first


def extra_free_move(m: MatchContext, team: int, src: int, dst: int) -> str | None:
    """Runner / fast defender / box-to-box midfielder: one extra free move
    regardless of the numbers in the area.  Returns the skill that allows the
    move, or None."""
    used = m.st.flags.extra_free_move_used
    # (in this order; tested one by one: the free movements ask this of every candidate move)
    if dst in B.ATTACK_ZONE[team] and "runner" not in used and skill_active(m, team, "runner"):
        return "runner"
    if dst in B.DEFENCE_ZONE[team] and "fast_defender" not in used and skill_active(m, team, "fast_defender"):
        return "fast_defender"
    if (
        src == B.CENTRE
        and B.straight(src, dst)
        and "box_to_box_midfielder" not in used
        and skill_active(m, team, "box_to_box_midfielder")
    ):
        return "box_to_box_midfielder"
    return None


def end_of_action_stage(m: MatchContext) -> Flow:
    """Trained formation change: two position changes, once per game."""
    st = m.st
    for team in (st.ct, st.dt):
        ts = st.teams[team]
        if "trained_formation_change" in ts.used_once or ts.coach_sent_off:
            continue
        if "trained_formation_change" in m.st.teams[team].skills and (
            yield from offer(m, team, "trained_formation_change")
        ):
            ts.used_once.add("trained_formation_change")
            for _ in range(2):
                f = ts.formation

                def opts(_f: list[int] = f) -> tuple[str, ...]:
                    return tuple(c for c in FORMATION_CHANGES if _f[ZONE_KEYS.index(c.split(">")[0])] > 0)

                c = answer_choice(
                    (yield m.ask(D.FORMATION_CHANGE, team, "A11", opts, None, "change one position"))
                )
                change_formation(ts, c)


def spend_skill(m: MatchContext, team: int, skill: str, area: int = -1) -> None:
    """Pay the condition point of a skill whose use is implied by a move
    (`area`: where the ball was when the skill was used)."""
    m.st.flags.skills_used.add(f"{B.TEAM_NAMES[team]}:{skill}")
    if CATALOGUE[skill][0]:
        pay(m, team, CATALOGUE[skill][0], for_action=False, area=area)

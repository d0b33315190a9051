"""Special events (A13; called "A12" in 4.2.1 - interpretation I-12).

Rolled when the two situation dice are equal: controlling team die first,
defending team die second.  ``resolve`` applies the parts that happen
"immediately after time adjustment" and returns a :class:`Special` describing
what changes later in stage 2 ("after the control check")."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from . import board as B
from .cards import give_yellow, injury, yellow_test
from .clock import advance_clock
from .condition import add_cp
from .context import MatchContext
from .events import Event, Pending, answer_dice
from .skills import SKILL_NAMES, random_skill_candidates


def event_name(ct_die: int, dt_die: int) -> str:
    """The A13 table (the second "3 5" row is "3 6", interpretation I-11)."""
    table: dict[int, tuple[str, ...]] = {
        1: ("excellent_attack_move",) * 2
        + ("excellent_defence_move",) * 2
        + ("fast_situation_dt", "fast_situation_ct"),
        2: ("ball_bounces_dt",) * 2 + ("ball_bounces_ct",) * 2 + ("lost_momentum", "failed_man_marking"),
        3: ("defenders_foul",) * 2 + ("attackers_foul",) * 2 + ("defenders_rude_foul", "attackers_rude_foul"),
        4: (
            "slow_play",
            "slow_play",
            "ball_over_touchline",
            "ball_over_goal_line",
            "momentum",
            "aggressive_defence",
        ),
        5: (
            "high_ball_head_collision",
            "failed_opening",
            "perfect_pass",
            "behind_referees_back",
            "streaker",
            "out_of_position_goalkeeper",
        ),
        6: (
            "terrace_chant_dt",
            "terrace_chant_ct",
            "injured_star_player_dt",
            "injured_star_player_ct",
            "new_talent_dt",
            "new_talent_ct",
        ),
    }
    return table[ct_die][dt_die - 1]


ALL_EVENTS = tuple(sorted({event_name(a, b) for a in range(1, 7) for b in range(1, 7)}))


class Special:
    """What the special event of a turn (A13) changes in stage 2.  A plain class
    with its own ``__init__`` (one per turn; see state.TurnFlags)."""

    __slots__ = (
        "aggressive_defence",
        "collision_value",
        "collision_winner",
        "control",
        "failed_opening",
        "fast",
        "first",
        "move_after_check",
        "name",
        "touchline",
        "value_mod",
    )

    def __init__(self, name: str = "") -> None:
        self.name: str = name
        self.control: str = ""  # "" | success | fail | collision
        self.collision_winner: int = -1
        self.collision_value: int = 0
        self.value_mod: int = 0
        self.first: str = ""  # "" | ct | dt | new_ct  (after the control check)
        self.move_after_check: str = ""  # ct | dt  (excellent moves)
        self.fast: str = ""  # ct | dt (fast situation: move, then the action stage is skipped)
        self.aggressive_defence: bool = False
        self.touchline: bool = False
        self.failed_opening: bool = False


def resolve(m: MatchContext, ct: int) -> Generator[Pending, Event, Special]:
    st = m.st
    dt = 1 - ct
    d = answer_dice((yield m.roll("special_event", None, 2, "A13", "special event: CT die, DT die")))
    name = event_name(d[0], d[1])
    sp = Special(name=name)
    m.note("special_event", event=name, dice=list(d))
    target = st.flags.target
    if _settled_at_once(m, sp, ct):
        return sp
    if name in ("defenders_foul", "attackers_foul"):
        fouled = ct if name == "defenders_foul" else dt
        yield from yellow_test(m, 1 - fouled, name)
        st.pending_restart = ("free_kick", fouled, target)
    elif name in ("defenders_rude_foul", "attackers_rude_foul"):
        fouled = ct if name == "defenders_rude_foul" else dt
        # "gets a yellow card and must make a red card test with a +1 die roll modifier" (I-10)
        yield from give_yellow(m, 1 - fouled, name, red_test_always=True, red_modifier=1)
        yield from injury(m, fouled, name)
        st.pending_restart = ("free_kick", fouled, target)
    elif name == "high_ball_head_collision":
        while True:
            h = answer_dice((yield m.roll("head_collision", None, 2, "A13", "CT die, DT die")))
            if h[0] != h[1]:
                break
        sp.control = "collision"
        sp.collision_winner = ct if h[0] > h[1] else dt
        sp.collision_value = max(h)
        yield from injury(m, ct, name)
        yield from injury(m, dt, name)
    elif name == "behind_referees_back":
        yield from injury(m, ct, name)
    elif name == "streaker":
        s = answer_dice((yield m.roll("streaker", ct, 1, "A13", "streaker: D6+1 minutes")))[0]
        advance_clock(m, s + 1)
    elif name.startswith("injured_star_player"):
        team = ct if name.endswith("ct") else dt
        yield from _lose_skill(m, team)
    elif name.startswith("new_talent"):
        team = ct if name.endswith("ct") else dt
        yield from _gain_skill(m, team)
    return sp


def _settled_at_once(m: MatchContext, sp: Special, ct: int) -> bool:
    """The special events that ask for no roll and no decision: their effect is set on ``sp`` or
    on the turn's flags here; False for the others (and for an unknown name)."""
    st = m.st
    dt = 1 - ct
    name = sp.name
    target = st.flags.target
    if name == "excellent_attack_move":
        sp.move_after_check = "ct"
    elif name == "excellent_defence_move":
        sp.move_after_check = "dt"
    elif name == "fast_situation_dt":
        sp.fast = "dt"
    elif name == "fast_situation_ct":
        sp.fast = "ct"
    elif name == "ball_bounces_dt":
        sp.value_mod = 2
    elif name == "ball_bounces_ct":
        sp.value_mod = -2
    elif name == "lost_momentum":
        st.flags.no_free_moves.add(ct)
    elif name == "failed_man_marking":
        st.flags.no_free_moves.add(dt)
    elif name == "slow_play":
        advance_clock(m, 1)
        for team in (ct, dt):
            ts = st.teams[team]
            if ts.cp_total() < ts.cp_initial:
                add_cp(ts, B.zone_of(team, st.ball))
    elif name == "ball_over_touchline":
        if target in B.TOUCHLINE_AREAS:
            sp.touchline = True
    elif name == "ball_over_goal_line":
        if target in B.GOAL_LINE_AREAS:
            attacker = 0 if target in B.ATTACK_ZONE[0] else 1
            st.pending_restart = ("corner", attacker, target)
    elif name == "momentum":
        st.flags.momentum = -2  # resolved after the control check
    elif name == "aggressive_defence":
        sp.aggressive_defence = True
    elif name == "failed_opening":
        sp.failed_opening = True
    elif name == "perfect_pass":
        sp.control = "success"
        sp.first = "ct"
    elif name == "out_of_position_goalkeeper":
        st.flags.attempt_bonus[0] += 2
        st.flags.attempt_bonus[1] += 2
    elif name in ("terrace_chant_dt", "terrace_chant_ct"):
        sp.first = name[-2:]
    else:
        return False
    return True


def _lose_skill(m: MatchContext, team: int) -> Generator[Pending, Event, Any]:
    ts = m.st.teams[team]
    if not m.st.uses("A11") or not ts.skills:
        return
    n = len(ts.skills)
    i = answer_dice((yield m.roll("injured_star_player", team, 1, "A13", f"random skill 1..{n}", sides=n)))[0]
    lost = ts.skills.pop(i - 1)
    ts.skills_lost.append(lost)
    m.note("skill_lost", team=B.TEAM_NAMES[team], skill=lost)


def _gain_skill(m: MatchContext, team: int) -> Generator[Pending, Event, Any]:
    ts = m.st.teams[team]
    if not m.st.uses("A11"):
        return
    cands = random_skill_candidates(ts.skills)
    if not cands:
        return
    n = len(cands)
    i = answer_dice((yield m.roll("new_talent", team, 1, "A13", f"random skill 1..{n}", sides=n)))[0]
    got = cands[i - 1]
    ts.skills.append(got)
    ts.skills_gained.append(got)
    m.note("skill_gained", team=B.TEAM_NAMES[team], skill=got)


__all__ = ["ALL_EVENTS", "SKILL_NAMES", "Special", "event_name", "resolve"]

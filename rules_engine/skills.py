"""Skills (A11): catalogue with condition-point costs and the hooks used by
the flow.  A skill with a cost is played by a ``use_skill`` decision (choice:
the skill name or ``"no"``) at the moment the rulebook names; cost-0 skills
that only change a rule apply automatically."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any, Final

from . import board as B
from . import decisions as D
from .condition import cp_plan, pay
from .context import MatchContext
from .events import Event, Pending, answer_choice

# name -> (CP cost, counts as two skill choices, group)
CATALOGUE: Final[dict[str, tuple[int, bool, str]]] = {
    "trained_formation_change": (0, False, "team"),
    "strength_in_depth": (0, False, "team"),
    "great_condition": (0, False, "team"),
    "fanatic_fans": (1, True, "team"),
    "trained_special_event": (1, False, "team"),
    "gegenpressing": (1, False, "team"),
    "fiery_coach": (0, False, "team"),
    "sweeper_keeper": (1, False, "goalkeeper"),
    "creative_goalkeeper": (1, False, "goalkeeper"),
    "shot_stopper": (1, True, "goalkeeper"),
    "penalty_saver": (0, False, "goalkeeper"),
    "leading_goalkeeper": (1, False, "goalkeeper"),
    "advancing_goalkeeper": (1, False, "goalkeeper"),
    "tackler": (0, False, "defender"),
    "stopper": (1, False, "defender"),
    "skilled_full_back": (1, False, "defender"),
    "doubling_up": (0, False, "defender"),
    "offside_trap": (1, False, "defender"),
    "skilled_wing_backs": (1, False, "defender"),
    "fast_defender": (1, False, "defender"),
    "catenaccio": (1, False, "defender"),
    "midfield_general": (1, False, "midfielder"),
    "creative_midfielder": (1, False, "midfielder"),
    "midfield_pressing": (1, False, "midfielder"),
    "crossing": (1, False, "midfielder"),
    "regista": (1, False, "midfielder"),
    "dribbler": (1, False, "midfielder"),
    "short_passes": (0, False, "midfielder"),
    "box_to_box_midfielder": (1, False, "midfielder"),
    "il_mediano": (1, False, "midfielder"),
    "mezzala": (1, False, "midfielder"),
    "target_man": (1, False, "forward"),
    "clinical_finisher": (1, True, "forward"),
    "aggressive_striker": (1, False, "forward"),
    "goal_poacher": (1, False, "forward"),
    "diver": (1, False, "forward"),
    "runner": (1, False, "forward"),
    "seconda_punta": (1, False, "forward"),
}
SKILL_NAMES: Final = tuple(sorted(CATALOGUE))

Flow = Generator[Pending, Event, Any]


def skill_weight(skills: tuple[str, ...] | list[str]) -> int:
    """Number of skill choices used (skills marked 1 count twice, A11)."""
    return sum(2 if CATALOGUE[s][1] else 1 for s in skills)


def any_skill(m: MatchContext, skills: frozenset[str]) -> bool:
    """Whether either team has one of ``skills``. A hook that only offers those skills is not
    entered without one: a generator made and run to its end costs more than the event it
    would ask for, and the commonest events pass several such hooks."""
    for ts in m.st.teams:
        for s in ts.skills:
            if s in skills:
                return True
    return False


def has(m: MatchContext, team: int, skill: str) -> bool:
    st = m.st
    return skill in st.teams[team].skills and "A11" in st.header.advanced


def skill_active(m: MatchContext, team: int, skill: str) -> bool:
    """A skill that applies automatically when its conditions hold: cost 0, or
    cost paid automatically (interpretation I-16) when affordable."""
    st = m.st
    if skill not in st.teams[team].skills or "A11" not in st.header.advanced:
        return False
    cost = CATALOGUE[skill][0]
    if cost == 0:
        return True
    return cp_plan(st.teams[team], B.zone_of(team, st.ball), cost) is not None


def keeper_alone(m: MatchContext, team: int, area: int) -> bool:
    """A11 footnote 2 (tackler, stopper, doubling up): "This skill cannot be used if
    the goalkeeper is the only player of the defending team in the ball area"."""
    ts = m.st.teams[team]
    return ts.gk == area and ts.field[area] == 0


def offer(m: MatchContext, team: int, skill: str, rule: str = "A11") -> Generator[Pending, Event, bool]:
    """Ask whether the team plays `skill` now; spends its cost if it does."""
    if skill not in m.st.teams[team].skills or not skill_active(m, team, skill):
        return False
    ev = yield m.ask(D.USE_SKILL, team, rule, lambda: (skill, "no"), None, f"play {skill}?", default="no")
    if answer_choice(ev) != skill:
        return False
    cost = CATALOGUE[skill][0]
    if cost:
        pay(m, team, cost, for_action=False)
    m.st.flags.skills_used.add(f"{B.TEAM_NAMES[team]}:{skill}")
    return True


def attempt_skills(m: MatchContext, team: int, area: int) -> Generator[Pending, Event, int]:
    """Skills announced with a goal attempt, before the die roll."""
    st = m.st
    opp = 1 - team
    bonus = 0
    in_pen = area == B.PEN[opp]
    set_piece = st.flags.restart in ("free_kick", "corner")
    if in_pen and (
        "clinical_finisher" in m.st.teams[team].skills and (yield from offer(m, team, "clinical_finisher"))
    ):
        bonus += 1
    if in_pen and (
        "aggressive_striker" in m.st.teams[team].skills and (yield from offer(m, team, "aggressive_striker"))
    ):
        bonus += 1
        st.flags.aggressive_striker = True
    # "A team taking a free kick or a corner kick": the team that had the ball at the restart
    if (
        set_piece
        and team == st.flags.ct_at_start
        and (
            "trained_special_event" in m.st.teams[team].skills
            and (yield from offer(m, team, "trained_special_event"))
        )
    ):
        bonus += 1
    if not st.flags.charge and (
        "shot_stopper" in m.st.teams[opp].skills and (yield from offer(m, opp, "shot_stopper"))
    ):
        st.flags.shot_stopper = True  # shot stopper: two dice, the highest discarded
    elif set_piece and (
        "leading_goalkeeper" in m.st.teams[opp].skills and (yield from offer(m, opp, "leading_goalkeeper"))
    ):
        st.flags.shot_stopper = True  # leading goalkeeper: the same after a corner or free kick
    return bonus


def random_skill_candidates(owned: list[str]) -> tuple[str, ...]:
    """Skills a "New talent" draw chooses from (A13 6-5/6-6), in a fixed order."""
    return tuple(s for s in SKILL_NAMES if s not in owned)

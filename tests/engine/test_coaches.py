"""AI coaches: they only choose legal options, and the heuristic
coach's choices follow its rules of thumb."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import board as B
from rules_engine.api import Decision, Roll, new_match
from rules_engine.coaches import HeuristicCoach, RandomCoach, make_coach
from rules_engine.coaches.targets import _insert
from rules_engine.decisions import MOVE_DECISIONS
from rules_engine.errors import FubaError
from rules_engine.events import Pending
from rules_engine.machine import Match
from rules_engine.rules import goal_attempt_modifier
from rules_engine.simulate import SimulationOptions, TeamSetup, play_match

FORMATIONS = ("4-4-2", "3-5-2", "4-5-1", "5-3-2", "3-4-3", "4-3-3", "5-4-1", "4-2-4")


class Checked:
    """Wraps a coach; asserts that every answer is legal and records them."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.seen: list[tuple[str, Any, Any]] = []  # (decision, choice, context)

    def choose(self, match: Match, pending: Pending) -> Any:
        opts = pending.options
        context = self.context(match, pending)
        choice = self.inner.choose(match, pending)
        if pending.open:
            if choice not in opts:
                assert pending.verify_fn is not None
                pending.verify_fn(choice)  # raises if the set-up is illegal
        else:
            assert choice in opts, (pending.name, choice, opts)
        self.seen.append((pending.name, choice, context))
        return choice

    @staticmethod
    def context(match: Match, pending: Pending) -> Any:
        s = match.st
        team = 0 if pending.actor == "home" else 1
        if pending.name == "action":
            return {
                "ct": s.ct == team,
                "value": s.value,
                "ball": s.ball,
                "options": pending.options,
                "mod": goal_attempt_modifier(s, team, s.ball, False),
                "own_pen_target": s.flags.target == B.PEN[team],
            }
        if pending.name in MOVE_DECISIONS:
            return {"gk": s.teams[team].gk, "own_pen": B.PEN[team]}
        return None


def run(
    home: TeamSetup, away: TeamSetup, kinds: tuple[str, str], seed: int, rules: Any = "all"
) -> list[Checked]:
    coaches = [Checked(make_coach(k, random.Random(f"{k}{i}{seed}"))) for i, k in enumerate(kinds)]
    play_match(
        home,
        away,
        SimulationOptions(advanced_rules=rules),
        seed=seed,
        coaches=(coaches[0], coaches[1]),
    )
    return coaches


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**31),
    home_f=st.sampled_from(FORMATIONS),
    away_f=st.sampled_from(FORMATIONS),
    kinds=st.sampled_from([("heuristic", "heuristic"), ("heuristic", "random"), ("random", "heuristic")]),
    rules=st.sampled_from(["all", "none", ["A1", "A6"], ["A3", "A4", "A13"]]),
)
def test_coaches_choose_only_legal_options(
    seed: int, home_f: str, away_f: str, kinds: tuple[str, str], rules: Any
) -> None:
    skills = rules == "all"
    home = TeamSetup("H", home_f, skills=("tackler", "runner") if skills else ())
    away = TeamSetup("A", away_f, skills=("dribbler", "stopper") if skills else ())
    coaches = run(home, away, kinds, seed, rules)
    assert all(c.seen for c in coaches)


def test_random_coach_is_seeded() -> None:
    h, a = TeamSetup("H", "4-4-2"), TeamSetup("A", "4-4-2")
    one = play_match(h, a, SimulationOptions(home_coach="random", away_coach="random"), seed=5).events
    two = play_match(h, a, SimulationOptions(home_coach="random", away_coach="random"), seed=5).events
    assert one == two


def _match() -> Match:
    return new_match(
        {
            "advanced_rules": "all",
            "teams": {
                "home": {"name": "H", "formation": "4-4-2"},
                "away": {"name": "A", "formation": "3-5-2"},
            },
        }
    )


def _pending(name: str, options: tuple[Any, ...], actor: str = "home") -> Pending:
    return Pending("decision", name, actor, 1, 3, "x", options_fn=lambda: options)


def test_penalty_shots_follow_the_equilibrium_mix() -> None:
    coach = HeuristicCoach(random.Random(1))
    m = _match()
    sides = ("left", "middle", "right")
    shots = Counter(coach.choose(m, _pending("penalty_shot", sides)) for _ in range(6000))
    assert all(abs(shots[s] / 6000 - 1 / 3) < 0.03 for s in sides)  # the I-9 table is symmetric
    keeper = Counter(
        coach.choose(m, _pending("penalty_keeper", ("left", "middle", "right"), "away")) for _ in range(3000)
    )
    assert min(keeper.values()) > 850


def test_kick_off_choice_and_unknown_decisions() -> None:
    coach = HeuristicCoach(random.Random(1))
    m = _match()
    assert coach.choose(m, _pending("kick_off_team", ("home", "away"), "away")) == "away"
    # a decision the coach does not know yet: the prudent answer
    assert coach.choose(m, _pending("brand_new_rule", ("yes", "no"))) == "no"
    assert RandomCoach(random.Random(1)).choose(m, _pending("brand_new_rule", ("a", "b"))) in ("a", "b")


def test_heuristic_kick_off_setup_follows_the_formation() -> None:
    m = _match()
    coach = HeuristicCoach(random.Random(1))
    m.apply(Roll("kick_off", "both", (5, 2)))
    p = m.pending()
    assert p is not None and p.name == "kick_off_team"
    m.apply(Decision(p.name, p.actor, coach.choose(m, p)))
    p = m.pending()
    assert p is not None and p.name == "setup" and p.actor == "home"
    choice = coach.choose(m, p)
    assert p.verify_fn is not None
    p.verify_fn(choice)
    players = choice["players"]
    assert choice["gk"] == "H-PEN"
    assert sum(players.values()) == 10
    assert players.get("CENTRE", 0) >= 2  # kick-off team (3.3.1)
    # four defenders of 4-4-2 in the defence areas
    assert players.get("H-FRONT", 0) + players.get("H-LC", 0) + players.get("H-RC", 0) == 4


@pytest.mark.parametrize("seed", range(6))
def test_heuristic_rules_of_thumb(seed: int) -> None:
    home, away = TeamSetup("H", "4-4-2", skills=("tackler",)), TeamSetup("A", "4-3-3", skills=("runner",))
    coaches = run(home, away, ("heuristic", "heuristic"), seed)
    for c in coaches:
        for name, choice, ctx in c.seen:
            sure_goal = ctx is not None and name == "action" and ctx["mod"] + 1 > ctx["value"]
            if name == "action" and ctx["ct"] and "goal_attempt" in ctx["options"] and sure_goal:
                # a sure goal (die + modifiers always above the ball value) is always taken
                assert choice == "goal_attempt", ctx
            if name == "action" and not ctx["ct"]:
                assert choice != "goal_attempt"
                if "pressing" in ctx["options"] and ctx["value"] >= 5:
                    assert choice == "pressing", ctx  # 89% to win the ball
                if ctx["own_pen_target"]:
                    assert choice != "aggressive_pressing"  # a failure would give a penalty
            if name in MOVE_DECISIONS and isinstance(choice, str) and choice.startswith("GK>"):
                # the goalkeeper only ever moves back into its own penalty area
                assert choice == f"GK>{B.NAMES[ctx['own_pen']]}", (name, choice)


def test_heuristic_uses_condition_points_skills_and_substitutions() -> None:
    home = TeamSetup("H", "4-4-2", skills=("shot_stopper", "stopper"))
    away = TeamSetup("A", "3-5-2", skills=("clinical_finisher", "creative_midfielder"))
    totals: Counter[tuple[str, Any]] = Counter()
    for seed in range(8):
        for c in run(home, away, ("heuristic", "heuristic"), seed):
            totals.update((n, ch if n != "setup" else "...") for n, ch, _ in c.seen)
    used_skills = {ch for (n, ch), k in totals.items() if n == "use_skill" and ch != "no"}
    assert used_skills, totals
    assert totals[("use_cp", "yes")] > 0
    assert sum(k for (n, ch), k in totals.items() if n == "substitutions" and ch) > 0
    assert sum(k for (n, ch), k in totals.items() if n == "substitution") > 0
    assert totals[("action", "goal_attempt")] > 0
    assert totals[("action", "pressing")] > 0


def test_setup_falls_back_to_an_offered_setup() -> None:
    """If the built set-up were refused, the coach takes one of the offered ones."""
    coach = HeuristicCoach(random.Random(3))
    m = _match()
    m.apply(Roll("kick_off", "both", (5, 2)))
    m.apply(Decision("kick_off_team", "home", "home"))
    p = m.pending()
    assert p is not None

    def refuse(choice: Any) -> None:
        raise FubaError("refused")

    picky = Pending(
        p.kind, p.name, p.actor, p.turn, p.stage, p.rule, options_fn=p.options_fn, verify_fn=refuse
    )
    assert coach.choose(m, picky) in p.options


def test_heuristic_knows_every_decision_of_the_engine() -> None:
    """Every decision the engine asks (all rules, every skill on one side or the
    other) has a dedicated rule in the heuristic coach, not the fallback."""
    from rules_engine.skills import CATALOGUE, skill_weight

    names = sorted(CATALOGUE)
    unknown: set[str] = set()
    covered: set[str] = set()
    for k in range(0, len(names), 4):
        skills = tuple(names[k : k + 4])
        other: list[str] = []
        for n in reversed(names):  # the same weight from the other end of the list
            if n not in skills and skill_weight((*other, n)) <= skill_weight(skills):
                other.append(n)
        assert skill_weight(other) == skill_weight(skills)
        covered |= {*skills, *other}
        home = TeamSetup("H", "4-4-2", skills=skills)
        away = TeamSetup("A", "3-5-2", skills=tuple(other))
        for seed in range(2):
            coaches = (HeuristicCoach(random.Random(seed)), HeuristicCoach(random.Random(seed + 1)))
            play_match(home, away, SimulationOptions(), seed=seed, coaches=coaches)
            for c in coaches:
                unknown |= c.unknown_decisions
    assert covered == set(names)
    assert not unknown


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from((0.0, 0.25, -0.1, 0.5)), st.sampled_from(B.NAMES)),
        max_size=8,
        unique_by=lambda p: p[1],
    )
)
def test_target_areas_are_ranked_as_sorting_the_pairs_would(pairs: list[tuple[float, str]]) -> None:
    # the target area coach puts each scored area in its place instead of sorting (score, name)
    # pairs: the order, ties of score included, must be the sorted one (seeded logs rely on it)
    scores: list[float] = []
    names: list[str] = []
    for score, name in pairs:
        _insert(scores, names, score, name)
    assert list(zip(scores, names, strict=True)) == sorted(pairs, reverse=True)

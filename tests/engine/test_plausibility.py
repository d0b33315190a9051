"""Plausibility of simulated matches, over many seeds.

Default run: about 150 matches (a few seconds); the 500-match heuristic
against random win rate is in the slow suite (and in bench/bench_simulate.py)."""

from __future__ import annotations

import itertools

import pytest

from rules_engine import board as B
from rules_engine.events import Event
from rules_engine.machine import Match
from rules_engine.simulate import (
    SimulationOptions,
    SimulationStats,
    TeamSetup,
    play_match,
    play_with_stats,
    versus_random,
)

PAIRS = [
    (
        TeamSetup("Blues", "4-4-2", skills=("runner", "tackler")),
        TeamSetup("Yellows", "3-5-2", skills=("dribbler", "stopper")),
    ),
    (
        TeamSetup("Reds", "4-5-1", (("attacking_midfielders", 2),), ("catenaccio",)),
        TeamSetup("Greens", "4-3-3", skills=("crossing",)),
    ),
    (
        TeamSetup("Whites", "5-3-2", skills=("great_condition",)),
        TeamSetup("Blacks", "3-4-3", skills=("gegenpressing",)),
    ),
    (TeamSetup("Greys", "4-4-2"), TeamSetup("Pinks", "4-4-2")),
]


def series(n: int, options: SimulationOptions, seed0: int = 0) -> SimulationStats:
    stats = SimulationStats()
    for i, (home, away) in zip(range(n), itertools.cycle(PAIRS)):
        play_with_stats(home, away, options, seed0 + i, stats)
    return stats


@pytest.fixture(scope="module")
def heuristic_series() -> SimulationStats:
    return series(120, SimulationOptions(advanced_rules="all"))


def test_turns_per_half(heuristic_series: SimulationStats) -> None:
    # rulebook 3, chapter 4: "each half contains approximately 17 turns"
    assert 15 <= heuristic_series.turns_per_half <= 20, heuristic_series.turns_per_half


def test_every_half_reaches_45_minutes(heuristic_series: SimulationStats) -> None:
    assert len(heuristic_series.half_minutes) == 2 * heuristic_series.matches
    assert heuristic_series.shortest_half >= 45


def test_goals_and_draws_in_a_football_range(heuristic_series: SimulationStats) -> None:
    # professional football: about 2.5-2.9 goals per match, 22-30 % draws
    assert 2.0 <= heuristic_series.goals_per_match <= 3.6, heuristic_series.goals_per_match
    assert 0.12 <= heuristic_series.draw_share <= 0.33, heuristic_series.draw_share
    assert max(heuristic_series.goals) <= 12
    assert heuristic_series.goals.count(0) < heuristic_series.matches // 2


def test_without_advanced_rules_too() -> None:
    stats = series(30, SimulationOptions(advanced_rules="none"), seed0=1000)
    assert 15 <= stats.turns_per_half <= 21
    assert stats.shortest_half >= 45
    assert 0.8 <= stats.goals_per_match <= 5.0


def test_heuristic_beats_random_clearly() -> None:
    wins, draws, losses = versus_random(PAIRS, 40, seed0=5000)
    assert wins >= 32, (wins, draws, losses)
    assert losses <= 2, (wins, draws, losses)


@pytest.mark.slow
def test_heuristic_beats_random_over_500_matches() -> None:
    wins, draws, losses = versus_random(PAIRS, 500, seed0=100_000)
    print(
        f"\nheuristic vs random over 500 matches: {wins} wins, {draws} draws, {losses} losses "
        f"(win rate {wins / 500:.1%})"
    )
    assert wins / 500 >= 0.85


def _average_depth(team: TeamSetup, n: int) -> float:
    """Mean depth of the home team's outfield players (rows from its own goal
    line) at every situation roll, against a 4-4-2."""
    total, count = 0.0, 0

    def observe(m: Match, ev: Event) -> None:
        nonlocal total, count
        if ev.name == "situation":
            ts = m.st.teams[0]
            total += sum(ts.field[a] * B.depth_from(0, a) for a in range(B.N_AREAS)) / max(1, ts.outfield())
            count += 1

    for seed in range(n):
        play_match(team, TeamSetup("Opp", "4-4-2"), SimulationOptions(), seed, observer=observe)
    return total / count


def test_formation_and_roles_shape_the_play() -> None:
    attacking = _average_depth(TeamSetup("Att", "3-4-3", (("attacking_midfielders", 2),)), 16)
    neutral = _average_depth(TeamSetup("Neu", "4-4-2"), 16)
    defensive = _average_depth(TeamSetup("Def", "5-4-1", (("defending_midfielders", 2),)), 16)
    assert attacking > neutral + 0.2 > defensive + 0.4, (attacking, neutral, defensive)
